package io.listwatch.apiserver.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.listwatch.api.StatusException;
import io.listwatch.api.clock.FakeClock;
import io.listwatch.apiserver.cacher.Cacher;
import io.listwatch.apiserver.cacher.CacherConfig;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import io.listwatch.storage.memory.MemoryStorage;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What admission reads never does: hold a request's thread on a cache that will not answer. */
class CacheListersTest {

  private static final ResourceDefinition LIMIT_RANGES =
      ResourceRegistry.builtins().find("", "v1", "limitranges").orElseThrow();

  @Test
  void aReadFromAClosedCacheThatIsNotReady_isRefusedAtOnce_with503() {
    try (MemoryStorage storage = MemoryStorage.builder().open()) {
      // the store is at revision 1 while the cache, never started, has seen nothing: a read must wait for it
      storage.create("/registry/configmaps/default/x", "{}".getBytes(StandardCharsets.UTF_8)).join();
      Cacher cacher = new Cacher(LIMIT_RANGES, storage, CacherConfig.DEFAULTS, new FakeClock());
      cacher.close(); // as when the server shuts down while a request is in flight
      CacheListers listers = new CacheListers(Map.of(LIMIT_RANGES, cacher));

      StatusException e = catchThrowableOfType(StatusException.class, () -> listers.list("", "limitranges", "default"));

      assertThat(e).isNotNull();
      assertThat(e.status().code()).isEqualTo(503);
      assertThat(e.getMessage()).startsWith("not yet ready to handle request");
    }
  }
}
