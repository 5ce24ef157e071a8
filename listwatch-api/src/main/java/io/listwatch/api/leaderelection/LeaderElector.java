package io.listwatch.api.leaderelection;

import io.listwatch.api.clock.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Elects one leader among candidates sharing a {@link ResourceLock}, with client-go's
 * algorithm ({@code leaderelection.LeaderElector}).
 *
 * <h2>How it works</h2>
 * <ul>
 *   <li><b>Acquire.</b> Every {@code retryPeriod} (jittered by up to {@code jitterFactor}
 *       times more), the candidate reads the record. It writes itself in as holder when the
 *       lock is absent, has no holder, or has not changed for the record's lease duration as
 *       measured on this candidate's clock since it <em>observed</em> the change (the record's
 *       own timestamps are never compared with the local clock). Taking over from another
 *       holder increments {@code leaseTransitions}. Writes are guarded by the lock's version,
 *       so of two candidates only one wins.
 *   <li><b>Renew.</b> The leader rewrites {@code renewTime} every {@code retryPeriod}. When it
 *       has not renewed successfully for {@code renewDeadline}, it stops leading
 *       ({@link LeaderCallbacks#onStoppedLeading}); a call blocked past the deadline is
 *       interrupted. Since {@code renewDeadline < leaseDuration}, the old leader stops before
 *       any candidate can consider the lease expired (given clocks running at similar rates).
 *   <li><b>After losing</b> the elector ends ({@link #done()} completes), as client-go's
 *       {@code Run} returns: a process that lost leadership normally exits and starts over.
 *   <li><b>Close.</b> {@link #close} stops the loop; a leader calls
 *       {@link LeaderCallbacks#onStoppedLeading} and then, when {@code releaseOnCancel} is set,
 *       releases the lock (empty holder, lease duration 1 s) so a standby takes over at its next
 *       retry instead of after a lease duration.
 * </ul>
 *
 * <p>Thread-safe. The loop runs on one thread named {@code LeaderElector[<lock>]} started by
 * {@link #start}; callbacks run on it. {@link #isLeader}, {@link #leader} and {@link #close}
 * may be called from any thread.
 */
public final class LeaderElector implements AutoCloseable {

  /** client-go's {@code JitterFactor}: a candidate waits up to this much longer than the retry period. */
  public static final double DEFAULT_JITTER_FACTOR = 1.2;

  private static final Logger LOG = LoggerFactory.getLogger(LeaderElector.class);

  private final ResourceLock lock;
  private final LeaderCallbacks callbacks;
  private final Clock clock;
  private final Duration leaseDuration;
  private final Duration renewDeadline;
  private final Duration retryPeriod;
  private final double jitterFactor;
  private final boolean releaseOnCancel;
  private final String logName;
  private final CompletableFuture<Void> done = new CompletableFuture<>();
  private final Thread thread;

  /** The record last observed (read or written). Written by the loop thread only. */
  private volatile LeaderElectionRecord observedRecord;
  /** {@link Clock#nanoTime} when {@link #observedRecord} last changed. Loop thread only. */
  private long observedNanos;
  /** The holder last reported to {@link LeaderCallbacks#onNewLeader}. Loop thread only. */
  private String reportedLeader;
  /** {@link Clock#nanoTime} of the last successful acquire or renew. Loop thread only. */
  private volatile long lastRenewNanos;
  /** True between onStartedLeading and onStoppedLeading. */
  private volatile boolean leading;
  /** True while the loop thread is inside a call to the lock (the watchdog may interrupt it). */
  private volatile boolean inCall;
  private volatile boolean closed;
  private volatile boolean started;

  private LeaderElector(Builder b) {
    this.lock = b.lock;
    this.callbacks = b.callbacks;
    this.clock = b.clock;
    this.leaseDuration = b.leaseDuration;
    this.renewDeadline = b.renewDeadline;
    this.retryPeriod = b.retryPeriod;
    this.jitterFactor = b.jitterFactor;
    this.releaseOnCancel = b.releaseOnCancel;
    this.logName = "LeaderElector[" + lock.describe() + "]";
    this.thread = Thread.ofPlatform().daemon().name(logName).unstarted(this::run);
  }

  /** kube's default identity for a candidate: the host name plus a unique suffix. */
  public static String defaultIdentity() {
    String host;
    try {
      host = java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.net.UnknownHostException e) {
      host = "localhost";
    }
    return host + "_" + java.util.UUID.randomUUID();
  }

  /** A builder for an elector competing for {@code lock}, telling {@code callbacks}. */
  public static Builder builder(ResourceLock lock, LeaderCallbacks callbacks) {
    return new Builder(lock, callbacks);
  }

  /** Starts competing, on the elector's own thread. Returns at once. Call once. */
  public synchronized LeaderElector start() {
    if (started) {
      throw new IllegalStateException(logName + " already started");
    }
    started = true;
    thread.start();
    return this;
  }

  /** True while this candidate leads (between onStartedLeading and onStoppedLeading). */
  public boolean isLeader() {
    return leading;
  }

  /** The holder of the lock as last observed, empty if none or not observed yet. */
  public Optional<String> leader() {
    LeaderElectionRecord r = observedRecord;
    return r == null || r.holderIdentity().isEmpty() ? Optional.empty() : Optional.of(r.holderIdentity());
  }

  /** This candidate's identity. */
  public String identity() {
    return lock.identity();
  }

  /** Completes when the elector has ended: closed, or leadership lost. */
  public CompletableFuture<Void> done() {
    return done;
  }

  /**
   * Stops competing; a leader stops leading and, with {@code releaseOnCancel}, releases the
   * lock. Waits for the loop to end. Idempotent.
   */
  @Override
  public void close() {
    closed = true;
    if (!started) {
      done.complete(null);
      return;
    }
    thread.interrupt();
    if (Thread.currentThread() != thread) {
      done.join();
    }
  }

  private void run() {
    try {
      if (!acquire()) {
        return;
      }
      renew();
    } finally {
      if (leading) {
        leading = false;
        Thread.interrupted(); // close's or the watchdog's interrupt must not cut the stop short
        LOG.info("{}: {} stopped leading", logName, lock.identity());
        callSafely(callbacks::onStoppedLeading);
        if (closed && releaseOnCancel) {
          release();
        }
      }
      done.complete(null);
    }
  }

  /** Tries until this candidate holds the lock; false if closed first. */
  private boolean acquire() {
    LOG.info("{}: {} attempting to acquire the lease", logName, lock.identity());
    while (!closed) {
      boolean acquired = tryAcquireOrRenew();
      maybeReportTransition();
      if (acquired) {
        lastRenewNanos = clock.nanoTime();
        leading = true;
        LOG.info("{}: {} acquired the lease", logName, lock.identity());
        callSafely(callbacks::onStartedLeading);
        return !closed;
      }
      double factor = jitterFactor > 0 ? 1 + ThreadLocalRandom.current().nextDouble() * jitterFactor : 1;
      if (!sleep(Duration.ofNanos((long) (retryPeriod.toNanos() * factor)))) {
        return false;
      }
    }
    return false;
  }

  /** Renews every retry period until closed or the renew deadline passes without success. */
  private void renew() {
    while (!closed) {
      if (!sleep(retryPeriod)) {
        return;
      }
      if (deadlinePassed()) {
        break;
      }
      Clock.Cancellable watchdog = clock.schedule(remainingToDeadline(), this::interruptIfPastDeadline);
      boolean renewed;
      try {
        renewed = tryAcquireOrRenew();
      } finally {
        watchdog.cancel();
      }
      maybeReportTransition();
      if (renewed) {
        lastRenewNanos = clock.nanoTime();
      } else if (closed) {
        return;
      } else if (deadlinePassed()) {
        break;
      }
    }
    if (!closed) {
      LOG.warn("{}: {} failed to renew the lease within {}", logName, lock.identity(), renewDeadline);
    }
  }

  private boolean deadlinePassed() {
    return clock.nanoTime() - lastRenewNanos >= renewDeadline.toNanos();
  }

  private Duration remainingToDeadline() {
    return Duration.ofNanos(Math.max(0, renewDeadline.toNanos() - (clock.nanoTime() - lastRenewNanos)));
  }

  /** Run by the clock: unblocks a lock call that is still running at the renew deadline. */
  private void interruptIfPastDeadline() {
    if (inCall && deadlinePassed()) {
      thread.interrupt();
    }
  }

  /** One attempt (client-go's {@code tryAcquireOrRenew}); false on any failure. */
  private boolean tryAcquireOrRenew() {
    Instant now = clock.now();
    int leaseSeconds = (int) Math.max(1, leaseDuration.toSeconds());
    inCall = true;
    try {
      Optional<LeaderElectionRecord> current = lock.get();
      if (current.isEmpty()) {
        LeaderElectionRecord mine = new LeaderElectionRecord(lock.identity(), leaseSeconds, now, now, 0);
        lock.create(mine);
        observe(mine);
        return true;
      }
      LeaderElectionRecord old = current.get();
      observe(old);
      boolean heldByMe = lock.identity().equals(old.holderIdentity());
      if (!old.holderIdentity().isEmpty() && !heldByMe && leaseValid(old)) {
        return false;
      }
      LeaderElectionRecord mine = heldByMe
          ? new LeaderElectionRecord(lock.identity(), leaseSeconds, old.acquireTime() != null ? old.acquireTime() : now,
              now, old.leaseTransitions())
          : new LeaderElectionRecord(lock.identity(), leaseSeconds, now, now, old.leaseTransitions() + 1);
      lock.update(mine);
      observe(mine);
      return true;
    } catch (RuntimeException e) {
      LOG.debug("{}: {} could not acquire or renew: {}", logName, lock.identity(), e.toString());
      return false;
    } finally {
      inCall = false;
    }
  }

  /** True while {@code record}, observed unchanged since {@link #observedNanos}, is unexpired. */
  private boolean leaseValid(LeaderElectionRecord record) {
    long durationNanos = Duration.ofSeconds(record.leaseDurationSeconds()).toNanos();
    return clock.nanoTime() - observedNanos < durationNanos;
  }

  private void observe(LeaderElectionRecord record) {
    if (!record.equals(observedRecord)) {
      observedRecord = record;
      observedNanos = clock.nanoTime();
    }
  }

  private void maybeReportTransition() {
    LeaderElectionRecord r = observedRecord;
    if (r == null || r.holderIdentity().equals(reportedLeader)) {
      return;
    }
    reportedLeader = r.holderIdentity();
    if (!reportedLeader.isEmpty()) {
      String leader = reportedLeader;
      callSafely(() -> callbacks.onNewLeader(leader));
    }
  }

  /** Client-go's {@code release}: empties the holder so a standby need not wait. */
  private void release() {
    LeaderElectionRecord old = observedRecord;
    if (old == null || !lock.identity().equals(old.holderIdentity())) {
      return;
    }
    Instant now = clock.now();
    try {
      LeaderElectionRecord released = new LeaderElectionRecord("", 1, now, now, old.leaseTransitions());
      lock.update(released);
      observe(released);
      LOG.info("{}: {} released the lease", logName, lock.identity());
    } catch (RuntimeException e) {
      LOG.warn("{}: {} could not release the lease: {}", logName, lock.identity(), e.toString());
    }
  }

  /** Sleeps on the clock; false if interrupted by {@link #close}. */
  private boolean sleep(Duration d) {
    try {
      clock.sleep(d);
      return !closed;
    } catch (InterruptedException e) {
      return !closed; // the watchdog interrupts too: the caller then checks the deadline
    }
  }

  private void callSafely(Runnable callback) {
    try {
      callback.run();
    } catch (RuntimeException e) {
      LOG.warn("{}: a leader election callback failed", logName, e);
    }
  }

  /** Options with client-go's defaults; validated by {@link #build}. */
  public static final class Builder {
    private final ResourceLock lock;
    private final LeaderCallbacks callbacks;
    private Clock clock = Clock.system();
    private Duration leaseDuration = Duration.ofSeconds(15);
    private Duration renewDeadline = Duration.ofSeconds(10);
    private Duration retryPeriod = Duration.ofSeconds(2);
    private double jitterFactor = DEFAULT_JITTER_FACTOR;
    private boolean releaseOnCancel = true;

    private Builder(ResourceLock lock, LeaderCallbacks callbacks) {
      this.lock = Objects.requireNonNull(lock, "lock");
      this.callbacks = Objects.requireNonNull(callbacks, "callbacks");
    }

    /** How long candidates wait after the record last changed before taking over (15 s). */
    public Builder leaseDuration(Duration d) {
      this.leaseDuration = Objects.requireNonNull(d, "leaseDuration");
      return this;
    }

    /** How long a leader keeps leading without a successful renewal (10 s). */
    public Builder renewDeadline(Duration d) {
      this.renewDeadline = Objects.requireNonNull(d, "renewDeadline");
      return this;
    }

    /** How often candidates try to acquire and the leader renews (2 s). */
    public Builder retryPeriod(Duration d) {
      this.retryPeriod = Objects.requireNonNull(d, "retryPeriod");
      return this;
    }

    /**
     * How much a candidate's acquire interval may be stretched at random, as a fraction of the
     * retry period (1.2, client-go's {@code JitterFactor}); 0 for none.
     */
    public Builder jitterFactor(double f) {
      if (!(f >= 0)) {
        throw new IllegalArgumentException("jitterFactor must be >= 0");
      }
      this.jitterFactor = f;
      return this;
    }

    /** Whether {@link LeaderElector#close} releases a held lock (true). */
    public Builder releaseOnCancel(boolean release) {
      this.releaseOnCancel = release;
      return this;
    }

    /** The time source (the system clock). */
    public Builder clock(Clock c) {
      this.clock = Objects.requireNonNull(c, "clock");
      return this;
    }

    /**
     * The elector, not started.
     *
     * @throws IllegalArgumentException unless {@code leaseDuration > renewDeadline >
     *     jitterFactor * retryPeriod > 0} and the lease duration is whole seconds of at least one
     */
    public LeaderElector build() {
      checkTiming(leaseDuration, renewDeadline, retryPeriod, jitterFactor);
      return new LeaderElector(this);
    }
  }

  /**
   * Checks timings as {@link Builder#build} does.
   *
   * @throws IllegalArgumentException unless {@code leaseDuration > renewDeadline >
   *     jitterFactor * retryPeriod > 0} and the lease duration is whole seconds of at least one
   */
  public static void checkTiming(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod,
      double jitterFactor) {
    if (retryPeriod.isNegative() || retryPeriod.isZero()) {
      throw new IllegalArgumentException("retryPeriod must be greater than zero");
    }
    if (leaseDuration.compareTo(renewDeadline) <= 0) {
      throw new IllegalArgumentException("leaseDuration must be greater than renewDeadline");
    }
    if (renewDeadline.toNanos() <= (long) (Math.max(1.0, jitterFactor) * retryPeriod.toNanos())) {
      throw new IllegalArgumentException("renewDeadline must be greater than retryPeriod*max(1, jitterFactor)");
    }
    if (leaseDuration.toSeconds() < 1 || leaseDuration.toNanos() % 1_000_000_000L != 0) {
      throw new IllegalArgumentException("leaseDuration must be a whole number of seconds, at least 1");
    }
  }
}
