package io.listwatch.apiserver.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.CompletableFuture;

/**
 * What a resource's store does around its writes with state of its own (kube's
 * {@code genericregistry.Store} {@code BeginCreate}, {@code BeginUpdate} and
 * {@code AfterDelete}; a Service's cluster IP and node port allocation): unlike a
 * {@link io.listwatch.apiserver.strategy.RestStrategy}, a hook may read and write storage.
 *
 * <p>The contract, as {@link ResourceStore} keeps it:
 * <ul>
 *   <li>{@link #beginCreate} and {@link #beginUpdate} run once per write attempt, after
 *       validation and before the validating admission plug-ins and storage; they may change
 *       the object about to be stored (fill what they allocated) and may fail the write with a
 *       {@link io.listwatch.api.StatusException}. An update that changes nothing calls
 *       neither.</li>
 *   <li>The {@link Finish} they return is called exactly once: {@code finish(true)} when the
 *       object was stored (or the dry run answered), {@code finish(false)} when anything after
 *       the hook refused the write or storage failed (a conflict retried included), so that
 *       what was taken for it is given back.</li>
 *   <li>With {@code dryRun} a hook checks and fills as for real and keeps nothing.</li>
 *   <li>{@link #afterDelete} runs once the object is gone from storage (not for a dry run, nor
 *       while finalizers or a grace period hold it).</li>
 * </ul>
 * Implementations are thread-safe; their futures must not block the caller's thread.
 */
public interface StoreHooks {

  /** Hooks that do nothing. */
  StoreHooks NONE = new StoreHooks() {
  };

  /** Called once per write attempt with its outcome. */
  @FunctionalInterface
  interface Finish {
    /** A finish with nothing to do. */
    Finish NOTHING = success -> {
    };

    void finish(boolean success);
  }

  /** Before a new object is stored; may change {@code obj}. */
  default CompletableFuture<Finish> beginCreate(ObjectNode obj, boolean dryRun) {
    return CompletableFuture.completedFuture(Finish.NOTHING);
  }

  /** Before {@code obj} replaces {@code old} (the stored object); may change {@code obj}. */
  default CompletableFuture<Finish> beginUpdate(ObjectNode obj, ObjectNode old, boolean dryRun) {
    return CompletableFuture.completedFuture(Finish.NOTHING);
  }

  /**
   * After {@code deleted} (as it last was) is gone from storage; the delete is answered once the
   * future completes (what kube releases, it releases before answering). Must not throw; the
   * future must not fail.
   */
  default CompletableFuture<Void> afterDelete(ObjectNode deleted) {
    return CompletableFuture.completedFuture(null);
  }
}
