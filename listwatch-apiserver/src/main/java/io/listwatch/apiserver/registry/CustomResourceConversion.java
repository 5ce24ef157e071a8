package io.listwatch.apiserver.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.schema.Defaulter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Moves custom resources between the storage version and the version a resource serves:
 * objects are stored in the CustomResourceDefinition's storage version, and moved by the
 * definition's {@link CustomResourceConverter} (strategy {@code None}: only the
 * {@code apiVersion} changes; {@code Webhook}: the conversion webhook converts them). An object
 * read from storage also gets the defaults of the schema of the version it is read through, as
 * kube defaults on read.
 *
 * <p>The {@code ...Async} forms never wait; the others wait for a webhook, so they run only
 * where a thread may block (never a Netty event loop). Built-in kinds pass through unchanged.
 * Stateless; thread-safe (the objects belong to the caller).
 */
public final class CustomResourceConversion {

  private CustomResourceConversion() {
  }

  /** Whether moving {@code def}'s objects between versions may wait on a webhook. */
  public static boolean remote(ResourceDefinition def) {
    return def.customResource().map(crv -> crv.converter().remote()).orElse(false);
  }

  /**
   * Turns an object read from storage into {@code def}'s version, in place when no webhook is
   * involved: its {@code apiVersion} and the defaults of that version's schema. Waits for a
   * conversion webhook.
   *
   * @throws io.listwatch.api.StatusException when the webhook fails (kube's message)
   */
  public static ObjectNode toServed(ResourceDefinition def, ObjectNode stored) {
    return join(toServedAsync(def, stored));
  }

  /** {@link #toServed}, without waiting. */
  public static CompletableFuture<ObjectNode> toServedAsync(ResourceDefinition def, ObjectNode stored) {
    return toServedAsync(def, List.of(stored)).thenApply(List::getFirst);
  }

  /** Each of {@code stored} in {@code def}'s version (one webhook call for all of them). */
  public static CompletableFuture<List<ObjectNode>> toServedAsync(ResourceDefinition def, List<ObjectNode> stored) {
    if (def.customResource().isEmpty()) {
      return CompletableFuture.completedFuture(stored);
    }
    CustomResourceVersion crv = def.customResource().get();
    return convert(crv.converter(), new ArrayList<>(stored), def.apiVersion()).thenApply(served -> {
      JsonNode schema = crv.schema();
      if (schema.isObject()) {
        served.forEach(o -> Defaulter.apply(schema, o));
      }
      return served;
    });
  }

  /**
   * The object as it is stored: in the storage version when {@code def} serves another version
   * (a copy; converted by the webhook with strategy {@code Webhook}), else {@code served} itself.
   * Waits for a conversion webhook.
   */
  public static ObjectNode toStorage(ResourceDefinition def, ObjectNode served) {
    return join(toStorageAsync(def, served));
  }

  /** {@link #toStorage}, without waiting. */
  public static CompletableFuture<ObjectNode> toStorageAsync(ResourceDefinition def, ObjectNode served) {
    if (def.customResource().isEmpty()) {
      return CompletableFuture.completedFuture(served);
    }
    CustomResourceVersion crv = def.customResource().get();
    String apiVersion = def.group() + "/" + crv.storageVersion();
    if (apiVersion.equals(served.path("apiVersion").asText())) {
      return CompletableFuture.completedFuture(served);
    }
    return convert(crv.converter(), List.of(served.deepCopy()), apiVersion).thenApply(List::getFirst);
  }

  private static CompletableFuture<List<ObjectNode>> convert(CustomResourceConverter converter,
      List<ObjectNode> objects, String apiVersion) {
    try {
      return converter.convert(objects, apiVersion);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private static <T> T join(CompletableFuture<T> f) {
    try {
      return f.join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
  }
}
