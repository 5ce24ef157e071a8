package io.listwatch.bench.server;

import io.listwatch.bench.CpuMonitor;
import io.listwatch.bench.GcLog;
import io.listwatch.bench.JvmThreadCpu;
import io.listwatch.bench.ServerJvm;
import io.listwatch.server.testing.Haproxy;
import io.listwatch.storage.etcd.testing.EtcdServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The server side {@code bench server-fanout} measures: one API server on its embedded store
 * (the default), one on a real etcd, or two on one etcd behind HAProxy, which the watchers and
 * writers reach only through HAProxy, so the watches spread over both servers and each write,
 * made through one of them, reaches watchers of both through etcd. Every server runs
 * {@link FanOutServer} in a JVM of its own ({@link ServerJvm}); etcd ({@link EtcdServer}) and
 * HAProxy ({@link Haproxy}) run in processes of their own, all on 127.0.0.1. With two servers
 * and a TLS transport, the second serves the first one's certificate and trusts its client CA,
 * as replicas share them, and HAProxy passes TLS through to their HTTPS listeners.
 */
enum FanOutTopology {
  ROCKSDB(1, false),
  ETCD(1, true),
  ETCD_2_HAPROXY(2, true);

  /** How many API servers run. */
  final int servers;
  /** Whether the servers store in etcd. */
  final boolean etcd;

  FanOutTopology(int servers, boolean etcd) {
    this.servers = servers;
    this.etcd = etcd;
  }

  /** The topology {@code s} names, e.g. {@code etcd-2-haproxy}. */
  static FanOutTopology parse(String s) {
    return EnumLabels.parse(FanOutTopology.class, "topology", s);
  }

  /** Whether the watchers and writers reach the servers through HAProxy. */
  boolean balanced() {
    return servers > 1;
  }

  /** The processes this topology runs besides the benchmark, for the phases' names. */
  String processes() {
    return switch (this) {
      case ROCKSDB -> "server JVM";
      case ETCD -> "server JVM and etcd";
      case ETCD_2_HAPROXY -> "2 server JVMs, etcd and HAProxy";
    };
  }

  /** What this topology runs, for the report's parameters. */
  String description() {
    return this + switch (this) {
      case ROCKSDB -> ": one server, embedded RocksDB store";
      case ETCD -> ": one server on etcd (the etcd binary on PATH, one member on 127.0.0.1 in its own process, "
          + "fresh data dir)";
      case ETCD_2_HAPROXY -> ": two servers, each in its own JVM, on one etcd as above, behind HAProxy (TCP mode, "
          + "round robin over connections, the haproxy binary on PATH or in /usr/sbin) that watchers and writers "
          + "connect to; with TLS the second server serves the first one's certificate and trusts its client CA, "
          + "and the set-up goes to the first server's plain listener";
    };
  }

  /** Its label on the command line, e.g. {@code etcd-2-haproxy}. */
  @Override
  public String toString() {
    return EnumLabels.of(this);
  }

  /**
   * The running processes of one topology, started by {@link #start} into a directory of their
   * own: for one server its data in {@code data/}, its standard error in {@code server.log} and
   * its JVM log in {@code jvm.log}, with a profile its JFR recording in {@code server.jfr}; for
   * several, {@code data-1/}, {@code server-1.log}, {@code jvm-1.log}, {@code server-1.jfr} and so on; etcd's data and log in {@code etcd/}, HAProxy's configuration
   * and log in {@code haproxy/}. {@link #close} stops what was started, in reverse order, also
   * after a failed start; it is idempotent and may run from a shutdown hook while the
   * benchmark's thread starts the pieces, which is the only thread-safety this class has.
   */
  static final class Servers implements AutoCloseable {
    private final FanOutTopology topology;
    private final Path dir;
    private final boolean profile;
    private final List<Path> recordings = new ArrayList<>();
    private final List<ServerJvm> jvms = new ArrayList<>();
    private final List<GcLog> gcLogs = new ArrayList<>();
    private final List<AutoCloseable> started = new ArrayList<>();
    private EtcdServer etcd;
    private Haproxy haproxy;
    /** The scheme of the listeners HAProxy balances; null without HAProxy. */
    private String balancedScheme;
    private boolean closed;

    /** With {@code profile}, each server JVM is recorded by JFR ({@link FanOutProfile#jvmOptions}). */
    Servers(FanOutTopology topology, Path dir, boolean profile) {
      this.topology = topology;
      this.dir = dir;
      this.profile = profile;
    }

    /**
     * Starts etcd if the topology has it, the servers ({@link FanOutServer} for
     * {@code transport}, with the server TLS provider {@code provider} for a TLS one, null for
     * its default; JVM options {@code jvmOptions} after each one's GC log options) until each
     * printed its listeners, then HAProxy over the listeners {@code transport} uses, if the
     * topology has it.
     */
    void start(Transport transport, String provider, List<String> jvmOptions)
        throws IOException, InterruptedException {
      if (topology.etcd) {
        etcd = started(EtcdServer.start(dir.resolve("etcd")));
      }
      Set<String> schemes = transport.tls ? Set.of("http", "https") : Set.of("http");
      for (int i = 1; i <= topology.servers; i++) {
        String suffix = topology.servers == 1 ? "" : "-" + i;
        GcLog gcLog = new GcLog(dir.resolve("jvm" + suffix + ".log"));
        List<String> jvm = new ArrayList<>(gcLog.jvmOptions());
        jvm.addAll(jvmOptions);
        if (profile) {
          Path recording = dir.resolve("server" + suffix + ".jfr");
          jvm.addAll(FanOutProfile.jvmOptions(recording));
          recordings.add(recording);
        }
        jvms.add(started(ServerJvm.start(FanOutServer.class.getName(),
            serverArgs(Files.createDirectories(dir.resolve("data" + suffix)), transport, provider, i), jvm, schemes,
            dir.resolve("server" + suffix + ".log"))));
        gcLogs.add(gcLog);
      }
      if (topology.balanced()) {
        String scheme = transport.tls ? "https" : "http";
        haproxy = started(Haproxy.start(dir.resolve("haproxy"),
            jvms.stream().map(s -> s.address(scheme).getPort()).toList()));
        balancedScheme = scheme;
      }
    }

    /** {@link FanOutServer}'s arguments for the {@code n}th server (from 1) on {@code data}. */
    private List<String> serverArgs(Path data, Transport transport, String provider, int n) {
      List<String> args = new ArrayList<>(List.of(data.toString()));
      if (etcd != null) {
        args.add(FanOutServer.ETCD + etcd.endpoint());
      }
      if (transport.tls) {
        args.add("tls");
        if (provider != null) {
          args.add(provider);
        }
        if (n > 1) {
          args.add(FanOutServer.TLS_OF + dataDir());
        }
      }
      return args;
    }

    /** Registers a piece to close, or closes it at once if {@link #close} already ran. */
    private synchronized <T extends AutoCloseable> T started(T piece) {
      if (closed) {
        closeQuietly(piece);
        throw new IllegalStateException("stopped while starting");
      }
      started.add(piece);
      return piece;
    }

    /**
     * Where to connect for {@code scheme}: HAProxy for the listeners it balances (those of the
     * transport), else the (first) server's listener, e.g. the plain one for setting up.
     */
    InetSocketAddress address(String scheme) {
      return scheme.equals(balancedScheme) ? new InetSocketAddress("127.0.0.1", haproxy.port())
          : jvms.get(0).address(scheme);
    }

    /** The (first) server's data directory, which holds its TLS material. */
    Path dataDir() {
      return dir.resolve(topology.servers == 1 ? "data" : "data-1");
    }

    /** The API server JVMs' CPU so far, together, in clock ticks. */
    long serverTicks() {
      return jvms.stream().mapToLong(ServerJvm::cpuTicks).sum();
    }

    /** The API server JVMs' CPU so far by thread name ({@link JvmThreadCpu#byThreadName}), in clock ticks. */
    Map<String, Long> serverThreadTicks() {
      Map<String, Long> ticks = new HashMap<>();
      jvms.forEach(s -> JvmThreadCpu.byThreadName(s.pid()).forEach((name, n) -> ticks.merge(name, n, Long::sum)));
      return ticks;
    }

    /** etcd's CPU so far in clock ticks; 0 without etcd. */
    long etcdTicks() {
      return etcd == null ? 0 : CpuMonitor.processTicks(etcd.pid());
    }

    /** HAProxy's CPU so far in clock ticks; 0 without HAProxy. */
    long haproxyTicks() {
      return haproxy == null ? 0 : CpuMonitor.processTicks(haproxy.pid());
    }

    /** Every process's CPU so far in clock ticks: the servers', etcd's and HAProxy's. */
    long allTicks() {
      return serverTicks() + etcdTicks() + haproxyTicks();
    }

    FanOutTopology topology() {
      return topology;
    }

    /** The servers' JFR recordings, written when they stop ({@link #close}); none without a profile. */
    List<Path> recordings() {
      return List.copyOf(recordings);
    }

    /** The servers' JVM logs' lengths now ({@link GcLog#mark}), one per server. */
    long[] gcMarks() {
      return gcLogs.stream().mapToLong(GcLog::mark).toArray();
    }

    /**
     * The pauses of every server between two {@link #gcMarks}: counts and totals added up,
     * the longest pause the longest of any, the heaps after GC added up.
     */
    GcLog.Pauses pauses(long[] from, long[] to) {
      int gc = 0;
      long gcNanos = 0;
      long gcMax = 0;
      int safepoints = 0;
      long safepointNanos = 0;
      long heap = 0;
      for (int i = 0; i < gcLogs.size(); i++) {
        GcLog.Pauses p = gcLogs.get(i).between(from[i], to[i]);
        gc += p.gcPauses();
        gcNanos += p.gcNanos();
        gcMax = Math.max(gcMax, p.gcMaxNanos());
        safepoints += p.safepoints();
        safepointNanos += p.safepointNanos();
        heap = heap < 0 || p.heapAfterGcMiB() < 0 ? -1 : heap + p.heapAfterGcMiB();
      }
      return new GcLog.Pauses(gc, gcNanos, gcMax, safepoints, safepointNanos, heap);
    }

    /** Stops HAProxy, the servers and etcd, in reverse order of their start. Idempotent. */
    @Override
    public synchronized void close() {
      closed = true;
      for (int i = started.size() - 1; i >= 0; i--) {
        closeQuietly(started.get(i));
      }
      started.clear();
    }

    private static void closeQuietly(AutoCloseable piece) {
      try {
        piece.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (Exception e) {
        // stopping: nothing more to do about a piece that would not stop cleanly
      }
    }
  }
}
