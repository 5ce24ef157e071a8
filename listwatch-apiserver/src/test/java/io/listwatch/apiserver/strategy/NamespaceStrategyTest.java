package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.JsonLimits;
import io.listwatch.api.StatusException;
import java.io.IOException;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class NamespaceStrategyTest {

  private final NamespaceStrategy strategy = new NamespaceStrategy();

  private static ObjectNode json(String s) {
    try {
      return (ObjectNode) JsonLimits.mapper().readTree(s);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void prepareForCreate_isActive_andAddsTheNamespaceFinalizerOnce() {
    ObjectNode plain = json("{\"metadata\":{\"name\":\"a\"},\"status\":{\"phase\":\"Terminating\"}}");
    ObjectNode withIt = json("{\"metadata\":{\"name\":\"b\"},\"spec\":{\"finalizers\":[\"x\",\"kubernetes\"]}}");

    strategy.prepareForCreate(plain, Instant.EPOCH);
    strategy.prepareForCreate(withIt, Instant.EPOCH);

    assertThat(plain.path("status")).isEqualTo(json("{\"phase\":\"Active\"}"));
    assertThat(plain.path("spec")).isEqualTo(json("{\"finalizers\":[\"kubernetes\"]}"));
    assertThat(withIt.path("spec")).isEqualTo(json("{\"finalizers\":[\"x\",\"kubernetes\"]}"));
  }

  @Test
  void updateAndStatusUpdate_keepTheStoredFinalizers() {
    ObjectNode old = json("{\"metadata\":{\"name\":\"a\"},\"spec\":{\"finalizers\":[\"kubernetes\"]}}");
    ObjectNode update = json("{\"metadata\":{\"name\":\"a\"},\"spec\":{\"finalizers\":[]}}");
    ObjectNode status = json("{\"metadata\":{\"name\":\"a\"},\"status\":{\"phase\":\"Active\"}}");
    ObjectNode noSpecStored = json("{\"metadata\":{\"name\":\"a\"},\"spec\":{\"finalizers\":[\"x\"]}}");

    strategy.prepareForUpdate(update, old);
    strategy.prepareForStatusUpdate(status, old);
    strategy.prepareForUpdate(noSpecStored, json("{\"metadata\":{\"name\":\"a\"}}"));

    assertThat(update.path("spec")).isEqualTo(json("{\"finalizers\":[\"kubernetes\"]}"));
    assertThat(status.path("spec")).isEqualTo(json("{\"finalizers\":[\"kubernetes\"]}"));
    assertThat(noSpecStored.has("spec")).isFalse();
  }

  @Test
  void prepareForFinalize_takesOnlyTheFinalizers_fromTheWrittenObject() {
    ObjectNode old = json("""
        {"metadata":{"name":"a","resourceVersion":"7","labels":{"k":"v"}},"spec":{"finalizers":["kubernetes"]}}""");
    ObjectNode written = json("{\"metadata\":{\"name\":\"a\",\"labels\":{\"k\":\"changed\"}},\"spec\":{\"finalizers\":[]}}");

    strategy.prepareForFinalize(written, old);

    assertThat(written).isEqualTo(json("{\"metadata\":{\"name\":\"a\",\"labels\":{\"k\":\"v\"}},\"spec\":{\"finalizers\":[]}}"));
  }

  @Test
  void checkDelete_refusesTheBuiltInNamespaces_only() {
    for (String name : new String[] {"default", "kube-system", "kube-public"}) {
      assertThatThrownBy(() -> strategy.checkDelete(name)).as(name)
          .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(403));
    }
    strategy.checkDelete("team-a");
  }
}
