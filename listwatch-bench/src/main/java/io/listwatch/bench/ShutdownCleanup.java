package io.listwatch.bench;

/**
 * Clean-up a benchmark owes even when its JVM is stopped (Ctrl-C, SIGTERM): stopping the child
 * processes it started, deleting its temporary files. Registered as a JVM shutdown hook when
 * made; {@link #close} runs it on the caller's thread when the work ends, then unregisters the
 * hook. So it runs once, or twice and at once if the JVM is stopped while {@link #close} runs:
 * the clean-up must be idempotent and safe to run concurrently with itself.
 *
 * <p>Thread-safe as far as the clean-up is.
 */
public final class ShutdownCleanup implements AutoCloseable {

  private final Runnable cleanup;
  private final Thread hook;

  /** Registers {@code cleanup} as a shutdown hook, a thread named {@code name}. */
  public ShutdownCleanup(String name, Runnable cleanup) {
    this.cleanup = cleanup;
    this.hook = Thread.ofPlatform().name(name).unstarted(cleanup);
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /** Runs the clean-up, then unregisters the hook. Idempotent as the clean-up is. */
  @Override
  public void close() {
    cleanup.run();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down: the hook runs (or ran) the clean-up itself
    }
  }
}
