package io.listwatch.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs a body on {@code count} named threads, virtual or platform, and waits for all of them.
 * The first failure of any body is rethrown once every thread has ended; everything a body
 * wrote is visible to the caller after {@link #run} returns (thread join).
 */
final class Workers {

  /** Which threads run the writers. */
  enum ThreadKind { VIRTUAL, PLATFORM }

  /** Accepts {@code virtual} and {@code platform} in any case, for picocli options. */
  static final class ThreadKindConverter
      implements picocli.CommandLine.ITypeConverter<ThreadKind> {
    @Override
    public ThreadKind convert(String value) {
      return ThreadKind.valueOf(value.toUpperCase(java.util.Locale.ROOT));
    }
  }

  /** The work of one thread; {@code index} runs from 0 to count - 1. */
  @FunctionalInterface
  interface Body {
    void run(int index) throws Exception;
  }

  private Workers() {
  }

  static void run(ThreadKind kind, int count, String name, Body body) throws InterruptedException {
    Thread.Builder builder = kind == ThreadKind.VIRTUAL
        ? Thread.ofVirtual().name(name + "-", 0)
        : Thread.ofPlatform().daemon(true).name(name + "-", 0);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int index = i;
      threads.add(builder.start(() -> {
        try {
          body.run(index);
        } catch (Throwable t) {
          failure.compareAndSet(null, t);
        }
      }));
    }
    for (Thread t : threads) {
      t.join();
    }
    if (failure.get() != null) {
      throw new IllegalStateException(name + " failed: " + failure.get(), failure.get());
    }
  }
}
