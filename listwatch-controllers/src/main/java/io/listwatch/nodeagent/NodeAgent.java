package io.listwatch.nodeagent;

import io.listwatch.api.clock.Clock;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A kubelet-style node agent: the kubelet's list-watch side, with pods run by simulation.
 *
 * <h2>What it does</h2>
 * <ul>
 *   <li>{@link #start} registers the Node ({@link NodeStatusManager}) and its heartbeat Lease in
 *       {@code kube-node-lease} ({@link NodeLease}), then renews the Lease every
 *       {@code leaseRenewInterval} and writes the Node's status every
 *       {@code statusUpdatePeriod}.
 *   <li>A {@link PodConfig} merges the sources: {@link ApiserverSource} (always),
 *       {@link FileSource} (with a manifest directory), {@link HttpSource} (with a manifest URL).
 *   <li>Pods of the API server are run by {@link PodWorkers} (a failing container restarts
 *       with the kubelet's CrashLoopBackOff); their status goes through a
 *       {@link PodStatusManager}, which writes it back when someone else changed it (a
 *       RECONCILE). Static pods get mirror pods ({@link MirrorPods}), which are then run like
 *       any other pod.
 * </ul>
 *
 * <h2>Threads</h2>
 * {@code NodeAgent[<node>] pods}: every merged update and every pod timer, one at a time;
 * {@code NodeAgent[<node>] heartbeat}: Lease and Node status writes; the sources' own threads.
 * Timers run on the {@link Clock}, so a fake clock drives them in tests. {@link #close} may
 * be called from any thread and is idempotent.
 *
 * <p>Use: {@code NodeAgent.builder(client, "node-1").manifestDir(dir).podCidr("10.244.1.0/24")
 * .build().start()}; {@code close()} stops it (the Node and its pods stay, as when a kubelet
 * stops).
 */
public final class NodeAgent implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(NodeAgent.class);

  private final NodeAgentConfig config;
  private final Clock clock;
  private final ExecutorService podThread;
  private final ExecutorService heartbeatThread;
  private final NodeStatusManager nodeStatus;
  private final NodeLease lease;
  private final PodConfig podConfig;
  private final PodWorkers workers;
  private final MirrorPods mirrors;
  private final List<AutoCloseable> sources = new ArrayList<>();
  private final List<Clock.Cancellable> timers = new ArrayList<>();
  private final AtomicBoolean started = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final ApiserverSource apiSource;

  private NodeAgent(KubeClient client, NodeAgentConfig config, Clock clock) {
    this.config = config;
    this.clock = clock;
    String name = "NodeAgent[" + config.nodeName() + "]";
    this.podThread = Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon().name(name + " pods").factory());
    this.heartbeatThread =
        Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon().name(name + " heartbeat").factory());
    Executor podExecutor = closedDrops(podThread);
    ResourceClient<DynamicObject> pods = client.dynamic(ResourceType.PODS);
    this.nodeStatus = new NodeStatusManager(client.dynamic(ResourceType.NODES), config, clock);
    this.lease = new NodeLease(client.dynamic(ResourceType.LEASES), config.nodeName(), config.leaseDuration(), clock,
        nodeStatus::nodeUid);
    this.workers = new PodWorkers(pods, clock, podExecutor, new PodIpAllocator(config.podCidr()), config.nodeIp(),
        config.containerStartDelay(), new Backoff(clock, config.crashLoopBackOff(), config.crashLoopBackOffMax()),
        config.nodeName());
    this.mirrors = new MirrorPods(pods, config.nodeName(), nodeStatus::nodeUid);
    this.podConfig = new PodConfig(update -> podExecutor.execute(() -> handle(update)), clock);
    this.apiSource = new ApiserverSource(pods, config.nodeName(), podConfig.channel(PodSources.API));
    if (config.manifestDir() != null) {
      sources.add(new FileSource(config.manifestDir(), config.nodeName(), podConfig.channel(PodSources.FILE),
          config.fileCheckPeriod()));
    }
    if (config.manifestUrl() != null) {
      sources.add(new HttpSource(config.manifestUrl(), config.nodeName(), podConfig.channel(PodSources.HTTP),
          config.httpCheckPeriod(), clock));
    }
  }

  /** A builder for the agent of node {@code nodeName}, talking to the API server through {@code client}. */
  public static Builder builder(KubeClient client, String nodeName) {
    return new Builder(client, nodeName);
  }

  /** The settings. */
  public NodeAgentConfig config() {
    return config;
  }

  /** Whether every pod source has sent its first complete set (the kubelet's SeenAllSources). */
  public boolean seenAllSources() {
    return podConfig.seenAllSources();
  }

  /**
   * Registers the Node and creates its Lease (returning once both are written), then starts
   * the heartbeat and the pod sources.
   *
   * @throws io.listwatch.api.StatusException if the API server refuses the Node or the Lease
   * @throws IllegalStateException when called twice
   */
  public void start() {
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException("NodeAgent[" + config.nodeName() + "] already started");
    }
    nodeStatus.register();
    lease.renew();
    every(config.leaseRenewInterval(), lease::renew, "lease renewal");
    every(config.statusUpdatePeriod(), nodeStatus::updateStatus, "node status update");
    apiSource.start();
    for (AutoCloseable s : sources) {
      if (s instanceof FileSource f) {
        f.start();
      } else if (s instanceof HttpSource h) {
        h.start();
      }
    }
    log.info("NodeAgent[{}]: registered; watching its pods", config.nodeName());
  }

  /** Runs {@code task} on the heartbeat thread every {@code period} of the clock until closed. */
  private void every(Duration period, Runnable task, String what) {
    synchronized (timers) {
      if (closed.get()) {
        return;
      }
      timers.add(clock.schedule(period, () -> closedDrops(heartbeatThread).execute(() -> {
        try {
          task.run();
        } catch (RuntimeException e) {
          log.warn("NodeAgent[{}]: {} failed: {}", config.nodeName(), what, e.toString());
        }
        every(period, task, what);
      })));
    }
  }

  /**
   * {@code executor}, dropping tasks once it is shut down: late timers and source updates after
   * {@link #close} have nothing left to do.
   */
  private static Executor closedDrops(ExecutorService executor) {
    return task -> {
      try {
        executor.execute(task);
      } catch (RejectedExecutionException e) {
        // closed
      }
    };
  }

  /** One merged update, on the pod thread. */
  private void handle(PodUpdate update) {
    try {
      if (PodSources.isStatic(update.source())) {
        for (DynamicObject pod : update.pods()) {
          switch (update.op()) {
            case ADD, UPDATE -> mirrors.staticPod(pod);
            case REMOVE -> mirrors.staticPodRemoved(pod);
            default -> { }
          }
        }
      } else {
        for (DynamicObject pod : update.pods()) {
          boolean mirror = MirrorPods.isMirror(pod);
          switch (update.op()) {
            case ADD, UPDATE, RECONCILE -> {
              if (mirror) {
                mirrors.mirrorSeen(pod);
              }
              workers.sync(pod);
            }
            case DELETE -> {
              if (mirror) {
                mirrors.mirrorDeleting(pod);
              } else {
                workers.terminate(pod);
              }
            }
            case REMOVE -> {
              workers.forget(pod);
              if (mirror) {
                mirrors.mirrorGone(pod);
              }
            }
            default -> { }
          }
        }
      }
      if (podConfig.seenAllSources()) {
        mirrors.removeOrphans();
      }
    } catch (RuntimeException e) {
      log.warn("NodeAgent[{}]: handling {} {} from {}: {}", config.nodeName(), update.op(), update.podNames(),
          update.source(), e.toString());
    }
  }

  /** Stops the sources, the heartbeat and the pod thread. Idempotent. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    synchronized (timers) {
      timers.forEach(Clock.Cancellable::cancel);
    }
    apiSource.close();
    for (AutoCloseable s : sources) {
      try {
        s.close();
      } catch (Exception e) {
        log.debug("NodeAgent[{}]: closing a source: {}", config.nodeName(), e.toString());
      }
    }
    podThread.execute(workers::close);
    podThread.shutdown();
    heartbeatThread.shutdown();
    try {
      podThread.awaitTermination(10, TimeUnit.SECONDS);
      heartbeatThread.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Builds a {@link NodeAgent}; defaults are the kubelet's where it has one. Not thread-safe. */
  public static final class Builder {
    private final KubeClient client;
    private final String nodeName;
    private Path manifestDir;
    private URI manifestUrl;
    private String podCidr = "10.88.0.0/16";
    private String nodeIp = "127.0.0.1";
    private String cpu = "4";
    private String memory = "8Gi";
    private int maxPods = 110;
    private Duration leaseDuration = Duration.ofSeconds(40);
    private Duration leaseRenewInterval = Duration.ofSeconds(10);
    private Duration statusUpdatePeriod = Duration.ofMinutes(1);
    private Duration fileCheckPeriod = FileSource.DEFAULT_PERIOD;
    private Duration httpCheckPeriod = HttpSource.DEFAULT_PERIOD;
    private Duration containerStartDelay = Duration.ofSeconds(1);
    private Duration crashLoopBackOff = Duration.ofSeconds(10);
    private Duration crashLoopBackOffMax = Duration.ofMinutes(5);
    private Clock clock = Clock.system();

    private Builder(KubeClient client, String nodeName) {
      this.client = Objects.requireNonNull(client, "client");
      this.nodeName = Objects.requireNonNull(nodeName, "nodeName");
    }

    /** The static pod directory (default: none). */
    public Builder manifestDir(Path dir) { this.manifestDir = dir; return this; }
    /** The static pod URL (default: none). */
    public Builder manifestUrl(URI url) { this.manifestUrl = url; return this; }
    /** The IPv4 pod CIDR (default {@code 10.88.0.0/16}). */
    public Builder podCidr(String cidr) { this.podCidr = Objects.requireNonNull(cidr); return this; }
    /** The node's InternalIP (default {@code 127.0.0.1}). */
    public Builder nodeIp(String ip) { this.nodeIp = Objects.requireNonNull(ip); return this; }
    /** Capacity and allocatable (default 4 cpu, 8Gi, 110 pods). */
    public Builder capacity(String cpu, String memory, int maxPods) {
      this.cpu = Objects.requireNonNull(cpu); this.memory = Objects.requireNonNull(memory); this.maxPods = maxPods;
      return this;
    }
    /** The Lease's duration and renewal interval (kube: 40 s and 10 s). */
    public Builder lease(Duration duration, Duration renewInterval) {
      this.leaseDuration = duration; this.leaseRenewInterval = renewInterval; return this;
    }
    /** How often the Node's status is written (default 1 min). */
    public Builder statusUpdatePeriod(Duration d) { this.statusUpdatePeriod = d; return this; }
    /** How often the manifest directory and URL are checked (kubelet: 20 s). */
    public Builder manifestCheckPeriod(Duration d) { this.fileCheckPeriod = d; this.httpCheckPeriod = d; return this; }
    /** How long a new pod's containers take to start (default 1 s). */
    public Builder containerStartDelay(Duration d) { this.containerStartDelay = d; return this; }
    /**
     * The back-off of containers restarted after exiting: {@code initial} doubling at each
     * restart up to {@code max}, and back to {@code initial} after {@code 2 * max} (kube: 10 s,
     * 5 min, so reset after 10 min).
     */
    public Builder crashLoopBackOff(Duration initial, Duration max) {
      this.crashLoopBackOff = Objects.requireNonNull(initial); this.crashLoopBackOffMax = Objects.requireNonNull(max);
      return this;
    }
    /** The clock of every timer (default: the system clock). */
    public Builder clock(Clock clock) { this.clock = Objects.requireNonNull(clock); return this; }

    /**
     * The agent, not started.
     *
     * @throws IllegalArgumentException for a node name that is not a DNS subdomain, a pod
     *     CIDR that is not IPv4, a non-positive period or capacity, or a back-off over its
     *     maximum
     */
    public NodeAgent build() {
      List<String> nameErrors = NameSyntax.isDns1123Subdomain(nodeName);
      if (!nameErrors.isEmpty()) {
        throw new IllegalArgumentException("node name " + nodeName + ": " + String.join("; ", nameErrors));
      }
      new PodIpAllocator(podCidr);
      for (Duration d : List.of(leaseDuration, leaseRenewInterval, statusUpdatePeriod, fileCheckPeriod,
          httpCheckPeriod, crashLoopBackOff)) {
        if (d.isNegative() || d.isZero()) {
          throw new IllegalArgumentException("periods must be positive, got " + d);
        }
      }
      if (crashLoopBackOffMax.compareTo(crashLoopBackOff) < 0) {
        throw new IllegalArgumentException("crashLoopBackOff " + crashLoopBackOff + " is over its maximum "
            + crashLoopBackOffMax);
      }
      if (containerStartDelay.isNegative()) {
        throw new IllegalArgumentException("containerStartDelay must not be negative");
      }
      if (maxPods <= 0) {
        throw new IllegalArgumentException("maxPods must be positive, got " + maxPods);
      }
      NodeAgentConfig config = new NodeAgentConfig(nodeName, manifestDir, manifestUrl, podCidr, nodeIp, cpu, memory,
          maxPods, leaseDuration, leaseRenewInterval, statusUpdatePeriod, fileCheckPeriod, httpCheckPeriod,
          containerStartDelay, crashLoopBackOff, crashLoopBackOffMax);
      return new NodeAgent(client, config, clock);
    }
  }
}
