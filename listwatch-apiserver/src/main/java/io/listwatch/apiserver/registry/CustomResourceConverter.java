package io.listwatch.apiserver.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Moves custom resources between the versions of their CustomResourceDefinition, as its
 * {@code spec.conversion.strategy} says (kube's {@code CRConverter}): {@link #NONE} only
 * rewrites {@code apiVersion}; a conversion webhook is asked over HTTPS.
 *
 * <p>Implementations are thread-safe. The objects passed belong to the converter for the call;
 * the result holds the converted objects in the same order.
 */
public interface CustomResourceConverter {

  /** kube's strategy {@code None}: the same object with {@code desiredApiVersion} as its {@code apiVersion}. */
  CustomResourceConverter NONE = new CustomResourceConverter() {
    @Override
    public CompletableFuture<List<ObjectNode>> convert(List<ObjectNode> objects, String desiredApiVersion) {
      objects.forEach(o -> o.put("apiVersion", desiredApiVersion));
      return CompletableFuture.completedFuture(objects);
    }

    @Override
    public boolean remote() {
      return false;
    }
  };

  /**
   * {@code objects} in {@code desiredApiVersion} ({@code group/version}); those already in it
   * come back unchanged. Fails with a {@link io.listwatch.api.StatusException} saying what went
   * wrong, in kube's words.
   */
  CompletableFuture<List<ObjectNode>> convert(List<ObjectNode> objects, String desiredApiVersion);

  /**
   * Whether a conversion may wait on another process (a webhook): such a conversion is never
   * awaited on a thread that must not block (an event loop).
   */
  boolean remote();
}
