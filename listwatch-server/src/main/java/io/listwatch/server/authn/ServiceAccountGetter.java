package io.listwatch.server.authn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.api.ListOptions;
import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.apiserver.cacher.Cacher;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Looks up a service account for the token authenticator, which checks on every request that
 * the account a token names still exists with the same uid. Implementations answer from memory
 * without blocking. Thread-safe.
 */
@FunctionalInterface
public interface ServiceAccountGetter {

  /** The service account {@code namespace/name}, or empty when it does not exist. */
  Optional<ServiceAccount> get(String namespace, String name);

  /**
   * What the authenticator needs of a service account.
   *
   * @param deleting whether its deletion has begun ({@code metadata.deletionTimestamp} set)
   */
  record ServiceAccount(String namespace, String name, String uid, boolean deleting) {
  }

  /**
   * Reads the serviceaccounts watch cache: its current state, without waiting for storage
   * (a lookup never blocks; a deletion is seen as soon as the cache has applied it).
   */
  static ServiceAccountGetter fromCache(Cacher serviceAccounts) {
    ObjectMapper json = new ObjectMapper();
    ListOptions current = ListOptions.parse(Map.of("resourceVersion", List.of("0")));
    return (namespace, name) -> {
      Optional<CachedObject> o = serviceAccounts.get(namespace, name, current).join();
      if (o.isEmpty()) {
        return Optional.empty();
      }
      try {
        JsonNode meta = json.readTree(o.get().json()).path("metadata");
        return Optional.of(new ServiceAccount(namespace, name, meta.path("uid").asText(""),
            meta.hasNonNull("deletionTimestamp")));
      } catch (IOException e) {
        throw new IllegalStateException("cannot parse the cached service account " + namespace + "/" + name, e);
      }
    };
  }
}
