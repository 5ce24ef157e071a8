package io.listwatch.apiserver.admission;

import java.util.concurrent.CompletableFuture;

/**
 * One named admission plug-in (kube's {@code admission.Interface}, with its
 * {@code MutationInterface} and {@code ValidationInterface}): it may change a write in the
 * mutating phase and refuse it in the validating phase. The {@link AdmissionChain} runs every
 * plug-in's {@link #admit} in kube's order, then the store prepares and validates the object
 * as the kind's strategy says, then every plug-in's {@link #validate}, then the write is stored.
 *
 * <p>A refusal is a {@link io.listwatch.api.StatusException} (thrown, or failing the future);
 * nothing is stored then. Plug-ins run for dry runs too. Implementations are thread-safe and do
 * not block: a plug-in that needs to read or call out answers with a future ({@link #admitAsync},
 * {@link #validate}).
 */
public interface AdmissionPlugin {

  /**
   * kube's name of the plug-in ({@code NamespaceLifecycle}, {@code ServiceAccount}, ...): by
   * default the class's, each plug-in's class being named as kube names it.
   */
  default String name() {
    return getClass().getSimpleName();
  }

  /**
   * Whether the plug-in sees writes of {@code operation} (kube's {@code Handles}): by default
   * creates and updates; a plug-in that admits deletes too says so.
   */
  default boolean handles(AdmissionAttributes.Operation operation) {
    return operation != AdmissionAttributes.Operation.DELETE;
  }

  /** The mutating phase: may change {@code attributes.object()}. */
  default void admit(AdmissionAttributes attributes) {
  }

  /**
   * The mutating phase of a plug-in that must wait for something (a webhook's answer): completes
   * once {@code attributes.object()} is changed, fails with the refusal. By default {@link #admit}, at once.
   * The chain runs the next plug-in only after the future completes.
   */
  default CompletableFuture<Void> admitAsync(AdmissionAttributes attributes) {
    admit(attributes);
    return CompletableFuture.completedFuture(null);
  }

  /** The validating phase: completes normally to let the write through. */
  default CompletableFuture<Void> validate(AdmissionAttributes attributes) {
    return CompletableFuture.completedFuture(null);
  }
}
