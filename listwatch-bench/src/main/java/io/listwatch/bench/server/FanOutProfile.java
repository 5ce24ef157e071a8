package io.listwatch.bench.server;

import io.listwatch.bench.Format;
import io.listwatch.bench.JfrProfile;
import io.listwatch.bench.JvmThreadCpu;
import io.listwatch.bench.Report;
import io.listwatch.bench.ResultTable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bench server-fanout --profile}: where each server JVM spent its CPU in each measured
 * window, from a JFR recording of the server ({@link JfrProfile}), as two tables of the suite's
 * report (samples by kind of work, thread and self method; allocation by site) and figures
 * {@code fanout.<server side>.w<watchers>.r<writes/s or Max>.profile.<kind>Pct.run<i>} (the kind
 * in lower camel case, e.g. {@code watchDelivery}), {@code profile.samples.run<i>},
 * {@code profile.allocatedMiBPerSecond.run<i>}, and the servers' CPU by thread group from /proc
 * (which sees the JIT, GC and native threads JFR does not sample), in percent of one core:
 * {@code profile.cpu.<group>Pct.run<i>}, e.g. {@code profile.cpu.eventLoopsPct.run1}.
 *
 * <p>The kinds, first match on the stack wins: socket system calls (the native read, write and
 * epoll calls, and the JDK's socket channel code), TLS (the engines' encryption and decryption:
 * the JDK's, OpenSSL through netty-tcnative, and SslHandler's wrap; not SslHandler as a whole,
 * whose unwrap calls the rest of the pipeline), HTTP/2 framing (Netty's HTTP/2 codec and what it
 * calls: on the watch connections that is the watches' framing), watch delivery (a watcher's
 * queue and send, the watch sinks that frame events for each transport), watch cache dispatch
 * (the rest of the cacher: the watch cache, event history, encoding each event once), storage
 * (the store, RocksDB's Java side), the write request in three: its managed fields
 * ({@code io.listwatch.api.apply}), its validation (the strategies, validation, the OpenAPI field
 * checks) and the rest of it (the REST handlers, admission, the merge patch, JSON, filters,
 * authn/authz, audit), Netty
 * (the rest of the pipeline and event loop: HTTP/1.1 codec, buffers, tasks), else other.
 *
 * <p>Confined to the thread that runs the command.
 */
final class FanOutProfile {

  /** The sampling period of execution, native and CPU-time samples, in ms. */
  static final int PERIOD_MS = 10;
  /** A clock tick of /proc's CPU times (USER_HZ is 100 on Linux). */
  private static final double TICK_SECONDS = 0.01;

  static final List<JfrProfile.Kind> KINDS = List.of(
      JfrProfile.Kind.of("socket system calls", "io.netty.channel.unix.FileDescriptor",
          "io.netty.channel.unix.Socket", "io.netty.channel.epoll.LinuxSocket", "io.netty.channel.epoll.Native",
          "sun.nio.ch.SocketDispatcher", "sun.nio.ch.IOUtil", "sun.nio.ch.FileDispatcherImpl", "sun.nio.ch.EPoll",
          "sun.nio.ch.Net", "sun.nio.ch.SocketChannelImpl#write", "sun.nio.ch.SocketChannelImpl#read",
          "sun.nio.ch.NioSocketImpl#implWrite", "sun.nio.ch.NioSocketImpl#implRead"),
      // not SslHandler as a whole: its unwrap calls the rest of the pipeline, the whole request
      JfrProfile.Kind.of("TLS", "sun.security.ssl", "javax.net.ssl", "com.sun.crypto.provider", "sun.security.provider",
          "io.netty.internal.tcnative", "io.netty.handler.ssl.ReferenceCountedOpenSslEngine",
          "io.netty.handler.ssl.OpenSsl", "io.netty.handler.ssl.JdkSslEngine", "io.netty.handler.ssl.SslHandler#wrap",
          "io.netty.handler.ssl.SslHandler#wrapNonAppData", "io.netty.handler.ssl.SslHandler$SslEngineType"),
      JfrProfile.Kind.of("HTTP/2 framing", "io.netty.handler.codec.http2"),
      JfrProfile.Kind.of("watch delivery", "io.listwatch.apiserver.cacher.CacheWatcher",
          "io.listwatch.apiserver.cacher.WatchSink", "io.listwatch.server.http.ChunkedWatchSink",
          "io.listwatch.server.http.WebSocketWatchSink", "io.listwatch.server.http.TableWatchSink",
          "io.listwatch.server.http.WriteBackpressure"),
      JfrProfile.Kind.of("watch cache dispatch", "io.listwatch.apiserver.cacher"),
      JfrProfile.Kind.of("storage", "io.listwatch.storage", "org.rocksdb"),
      JfrProfile.Kind.of("write request: managed fields", "io.listwatch.api.apply"),
      JfrProfile.Kind.of("write request: validation", "io.listwatch.apiserver.strategy",
          "io.listwatch.apiserver.validation", "io.listwatch.api.validation", "io.listwatch.apiserver.openapi"),
      JfrProfile.Kind.of("write request: other", "io.listwatch.apiserver", "io.listwatch.api", "io.listwatch.server",
          "com.fasterxml.jackson"),
      JfrProfile.Kind.of("Netty", "io.netty"));

  /**
   * The groups of the servers' threads whose CPU the tables show (from /proc, which also counts
   * the threads JFR does not sample): a group and the prefixes of its threads' names ({@code comm},
   * 15 characters).
   */
  private static final Map<String, List<String>> THREAD_GROUPS = threadGroups();

  private static Map<String, List<String>> threadGroups() {
    Map<String, List<String>> g = new LinkedHashMap<>();
    g.put("event loops", List.of("multiThreadIoEv", "epollEventLoop", "nioEventLoopGr"));
    g.put("virtual threads", List.of("ForkJoinPool-"));
    g.put("storage", List.of("listwatch-stora", "rocksdb:"));
    g.put("GC", List.of());
    g.put("JIT", List.of("C1 CompilerThre", "C2 CompilerThre"));
    g.put("JFR", List.of("JFR "));
    return g;
  }

  private final Report report;
  private final List<String> leadColumns;
  private ResultTable cpu;
  private ResultTable allocation;

  /** Profiles into {@code report}'s tables, whose rows start with {@code leadColumns}. */
  FanOutProfile(Report report, List<String> leadColumns) {
    this.report = report;
    this.leadColumns = leadColumns;
  }

  /** The JVM options that record a server into {@code file}. */
  static List<String> jvmOptions(Path file) {
    return List.of(JfrProfile.jvmOption(file, PERIOD_MS, true), JfrProfile.STACK_DEPTH);
  }

  /** What the recording holds, for the report's parameters. */
  static String description() {
    return "each server JVM recorded by JFR (" + jvmOptions(Path.of("server.jfr")).get(0).replaceAll(
        ",filename=.*", "") + " " + JfrProfile.STACK_DEPTH + "), dumped into server.jfr when it exits; samples "
        + "counted in each point's measured window";
  }

  /** One measured point of a server side: its lead cells, its figure key's start, its run (from 1), its result. */
  record Point(List<Object> lead, String figureKey, long run, FanOutPoint.Result result) {
  }

  /** Adds the rows and figures of {@code points}, all measured on the servers recorded into {@code recordings}. */
  void add(List<Path> recordings, List<Point> points) throws IOException {
    if (points.isEmpty()) {
      return;
    }
    List<JfrProfile.Counts> counts = JfrProfile.count(recordings, KINDS, points.stream()
        .map(p -> new JfrProfile.Window(p.result().measuredFrom(), p.result().measuredUntil())).toList());
    tables();
    for (int i = 0; i < points.size(); i++) {
      Point p = points.get(i);
      JfrProfile.Counts c = counts.get(i);
      FanOutPoint.Result r = p.result();
      List<Object> cells = new ArrayList<>(p.lead());
      cells.addAll(List.of(r.watchers(), r.rate() == 0 ? "max" : Format.count(r.rate()), p.run(),
          Format.count(c.samples())));
      String key = p.figureKey() + ".profile.";
      String suffix = ".run" + p.run();
      for (String kind : c.byKind().keySet()) {
        cells.add(String.format(Locale.ROOT, "%.0f%%", c.percent(kind)));
        report.figure(key + FanOutFigures.lowerCamel(kind.toLowerCase(Locale.ROOT)) + "Pct" + suffix, c.percent(kind));
      }
      report.figure(key + "samples" + suffix, c.samples());
      cells.add(threadCpu(r, key, suffix));
      cells.add(JfrProfile.Counts.shares(c.topThreads(3), c.samples()));
      cells.add(JfrProfile.Counts.shares(c.topSelf(3), c.samples()));
      cpu.row(cells.toArray());

      List<Object> alloc = new ArrayList<>(p.lead());
      double seconds = java.time.Duration.between(r.measuredFrom(), r.measuredUntil()).toNanos() / 1e9;
      double perSecond = c.allocatedBytes() / seconds;
      double perWrite = r.writesPerSecond() > 0 ? perSecond / r.writesPerSecond() : 0;
      double perDelivery = r.deliveriesPerSecond() > 0 ? perSecond / r.deliveriesPerSecond() : 0;
      alloc.addAll(List.of(r.watchers(), r.rate() == 0 ? "max" : Format.count(r.rate()), p.run(),
          String.format(Locale.ROOT, "%.0f", perSecond / (1 << 20)), String.format(Locale.ROOT, "%.1f", perWrite / 1024),
          String.format(Locale.ROOT, "%.0f", perDelivery),
          JfrProfile.Counts.shares(c.topAllocationSites(5), c.allocatedBytes())));
      allocation.row(alloc.toArray());
      report.figure(key + "allocatedMiBPerSecond" + suffix, perSecond / (1 << 20));
      report.figure(key + "allocatedKiBPerWrite" + suffix, perWrite / 1024);
      report.figure(key + "allocatedBytesPerDelivery" + suffix, perDelivery);
    }
  }

  /**
   * The servers' CPU in point {@code r}'s window by thread group, in percent of one core, as a
   * cell, each group's also a figure {@code <key>cpu.<group>Pct<suffix>}.
   */
  private String threadCpu(FanOutPoint.Result r, String key, String suffix) {
    Map<String, Long> ticks = new LinkedHashMap<>();
    THREAD_GROUPS.keySet().forEach(g -> ticks.put(g, 0L));
    ticks.put(JfrProfile.OTHER, 0L);
    r.serverThreadTicks().forEach((name, n) -> ticks.merge(group(name), n, Long::sum));
    double seconds = java.time.Duration.between(r.measuredFrom(), r.measuredUntil()).toNanos() / 1e9;
    List<String> cells = new ArrayList<>();
    ticks.forEach((g, n) -> {
      double pct = n * TICK_SECONDS / seconds * 100;
      report.figure(key + "cpu." + FanOutFigures.lowerCamel(g.toLowerCase(Locale.ROOT)) + "Pct" + suffix, pct);
      cells.add(String.format(Locale.ROOT, "%s %.0f%%", g, pct));
    });
    return String.join(", ", cells);
  }

  private static String group(String thread) {
    if (JvmThreadCpu.isGc(thread)) {
      return "GC";
    }
    for (Map.Entry<String, List<String>> g : THREAD_GROUPS.entrySet()) {
      if (g.getValue().stream().anyMatch(thread::startsWith)) {
        return g.getKey();
      }
    }
    return JfrProfile.OTHER;
  }

  private void tables() {
    if (cpu != null) {
      return;
    }
    List<String> c = new ArrayList<>(leadColumns);
    c.addAll(List.of("watchers", "writes/s asked", "run", "samples"));
    KINDS.forEach(k -> c.add(k.name()));
    c.addAll(List.of(JfrProfile.OTHER, "server CPU by thread group (/proc)", "top threads", "top self methods"));
    cpu = report.table(new ResultTable("Where the server's time goes (JFR, --profile): the server JVM's samples in "
        + "each measured window (CPU-time samples, one per " + PERIOD_MS + " ms of a thread's CPU, Java and native "
        + "code, when the JDK has them; else execution samples and native samples of threads not waiting, every "
        + PERIOD_MS + " ms), by kind of work (the first kind whose code is on the stack: " + String.join(" > ",
        KINDS.stream().map(JfrProfile.Kind::name).toList()) + "), by thread (digits as N) and by self method; JIT and "
        + "GC threads are not sampled, so the servers' CPU by thread group (percent of one core, from /proc, every "
        + "thread: " + String.join(", ", THREAD_GROUPS.keySet()) + ", other; virtual threads run on the "
        + "ForkJoinPool carriers) shows theirs", c.toArray(String[]::new)));
    List<String> a = new ArrayList<>(leadColumns);
    a.addAll(List.of("watchers", "writes/s asked", "run", "MiB/s allocated", "KiB per write", "bytes per delivery",
        "top allocation sites"));
    allocation = report.table(new ResultTable("Server allocation by site (JFR jdk.ObjectAllocationSample, 100 "
        + "samples/s, each weighted by the bytes it stands for; the site is the allocating method); per write and "
        + "per delivered event: all of the server's allocation in the window over the writes done, and over the "
        + "events delivered (each an upper bound: the writes and the deliveries share it)",
        a.toArray(String[]::new)));
  }
}
