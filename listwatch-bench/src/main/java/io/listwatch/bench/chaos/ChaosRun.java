package io.listwatch.bench.chaos;

import io.listwatch.bench.chaos.Operation.Outcome;
import io.listwatch.bench.chaos.Operation.Type;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * One chaos run: starts a {@link Topology}, runs {@value #CLIENTS} {@link ChaosClient}s and
 * {@value #WATCHERS} {@link ChaosWatcher}s against its servers while the {@link Nemesis} faults
 * its processes, then heals everything, takes a final list from every server, lets the watchers
 * catch up, writes the {@link History} to a file (JSON lines) and checks
 * it with the {@link HistoryChecker}.
 *
 * <p>Besides the checker's properties, a run checks that it tested something (faults injected,
 * writes acknowledged, updates refused and acknowledged, watch events delivered) and that every
 * watcher caught up once the faults were healed.
 *
 * <p>Not thread-safe: one run at a time, on the caller's thread.
 */
final class ChaosRun {

  static final int CLIENTS = 4;
  static final int WATCHERS = 2;
  static final int KEYS = 10;
  private static final long CATCH_UP_SECONDS = 30;
  private static final long FINAL_LIST_SECONDS = 60;

  /** What a run recorded and what the checks found. */
  record Result(Topology.Kind kind, String partitions, History history, List<Check> checks) {
    boolean passed() {
      return checks.stream().allMatch(Check::passed);
    }

    /** Operations by type and outcome, faults by kind, indeterminate writes, then each check. */
    String summary() {
      StringBuilder b = new StringBuilder("chaos run on topology " + kind.name().toLowerCase(java.util.Locale.ROOT)
          + "\noperations (ok / failed / indeterminate):\n");
      Map<Type, long[]> counts = new EnumMap<>(Type.class);
      for (Operation op : history.operations()) {
        counts.computeIfAbsent(op.type(), t -> new long[3])[op.outcome().ordinal()]++;
      }
      counts.forEach((t, c) -> b.append(String.format("  %-7s %6d / %6d / %6d%n", t, c[0], c[1], c[2])));
      long events = history.segments().stream().mapToLong(s -> s.events().size()).sum();
      b.append("  watch   ").append(history.segments().size()).append(" connections, ").append(events)
          .append(" events, ").append(history.segments().stream().filter(s -> s.end() == WatchSegment.End.GONE).count())
          .append(" ended by 410\n");
      long[] info = HistoryChecker.indeterminateWrites(history);
      b.append("  indeterminate writes: ").append(info[0]).append(" applied, ").append(info[1])
          .append(" not seen applied\n");
      Map<String, Integer> faults = new TreeMap<>();
      history.faults().forEach(f -> faults.merge(f.kind() + " " + f.target(), 1, Integer::sum));
      b.append("faults injected (").append(history.faults().size()).append("): ").append(faults).append('\n');
      history.faults().stream().filter(f -> !f.effect().isEmpty())
          .forEach(f -> b.append("  ").append(f).append('\n'));
      b.append("partitions: ").append(partitions).append("; delay, dropped connections and servers cut off from etcd: "
          + (history.faults().stream().anyMatch(f -> f.kind().equals("cut") || f.target().startsWith("link"))
              ? "by a TCP proxy per server and member" : "none")
          + "; packet loss: tc tbf's queue on a member's link (this kernel has no tc netem)\n");
      b.append("checks:\n");
      checks.forEach(c -> b.append("  ").append(c).append('\n'));
      b.append(passed() ? "all checks passed" : "CHECKS FAILED").append('\n');
      return b.toString();
    }
  }

  private ChaosRun() {
  }

  /**
   * Runs {@code kind} for {@code length} with data and logs under {@code dir}, writes the history to
   * {@code historyFile}; progress to {@code log}.
   */
  static Result run(Topology.Kind kind, Duration length, Path dir, Path historyFile, long seed, PrintStream log)
      throws IOException, InterruptedException {
    History history = new History();
    List<Check> runChecks = new ArrayList<>();
    Check caughtUp = new Check("every watcher caught up after the faults were healed");
    String partitions;
    log.println("chaos: starting " + kind + " under " + dir);
    try (Topology topology = Topology.start(kind, dir)) {
      List<URI> urls = topology.serverUrls();
      partitions = topology.partitions();
      ConfigMapCalls admin = new ConfigMapCalls(-1, urls, history);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!admin.createNamespace(0)) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("could not create the namespace " + ConfigMapCalls.NAMESPACE);
        }
        Thread.sleep(200); // the server is still starting: retry shortly, bounded by the deadline
      }
      List<ChaosWatcher> watchers = new ArrayList<>();
      List<Thread> watcherThreads = new ArrayList<>();
      for (int i = 0; i < WATCHERS; i++) {
        ChaosWatcher w = new ChaosWatcher(100 + i, i % urls.size(), urls, history);
        watchers.add(w);
        watcherThreads.add(Thread.ofPlatform().name("chaos-watcher-" + i).start(w));
      }
      List<ChaosClient> clients = new ArrayList<>();
      List<Thread> clientThreads = new ArrayList<>();
      for (int i = 0; i < CLIENTS; i++) {
        ChaosClient c = new ChaosClient(i, urls, KEYS, history, seed + i);
        clients.add(c);
        clientThreads.add(Thread.ofPlatform().name("chaos-client-" + i).start(c));
      }
      Nemesis nemesis = new Nemesis(topology.nodes(), topology.links(), history, 5_000, seed);
      Thread nemesisThread = Thread.ofPlatform().name("chaos-nemesis").start(nemesis);
      log.println("chaos: " + CLIENTS + " clients, " + WATCHERS + " watchers and the nemesis run for " + length);
      Thread.sleep(length.toMillis()); // the run's length: the clients and the nemesis work meanwhile
      nemesis.stop();
      nemesisThread.join(TimeUnit.MINUTES.toMillis(2));
      heal(topology, nemesis, log);
      awaitWriteAfterFaults(history);
      for (ChaosClient c : clients) {
        c.stop();
      }
      for (Thread t : clientThreads) {
        t.join(TimeUnit.SECONDS.toMillis(20));
      }
      log.println("chaos: faults healed, clients stopped at " + Operation.ms(history.now()) + " ms; taking the final lists");
      long target = finalLists(admin, urls, history);
      for (ChaosWatcher w : watchers) {
        target = Math.max(target, w.lastRv());
      }
      for (ChaosWatcher w : watchers) {
        w.drain(target);
      }
      for (int i = 0; i < watchers.size(); i++) {
        watcherThreads.get(i).join(TimeUnit.SECONDS.toMillis(CATCH_UP_SECONDS));
        caughtUp.checked();
        if (watcherThreads.get(i).isAlive()) {
          caughtUp.violated("watcher " + (100 + i) + " saw up to rv " + watchers.get(i).lastRv() + " of " + target
              + " " + CATCH_UP_SECONDS + " s after the faults were healed");
          watchers.get(i).stop();
          watcherThreads.get(i).join(TimeUnit.SECONDS.toMillis(10));
        }
      }
      runChecks.add(exercised(history, nemesis));
      runChecks.add(caughtUp);
      log.println("chaos: watchers caught up at " + Operation.ms(history.now()) + " ms; stopping the processes");
    } finally {
      history.write(historyFile);
    }
    log.println("chaos: stopped at " + Operation.ms(history.now()) + " ms; checking the history");
    List<Check> checks = new ArrayList<>(new HistoryChecker(history).check());
    checks.addAll(runChecks);
    return new Result(kind, partitions, history, checks);
  }

  /** Resumes and starts again every node, whatever the nemesis left. */
  private static void heal(Topology topology, Nemesis nemesis, PrintStream log)
      throws IOException, InterruptedException {
    for (List<DelayProxy> own : topology.links()) {
      for (DelayProxy l : own) {
        l.delay(0);
        l.release();
      }
    }
    if (nemesis.failure() != null) {
      log.println("chaos: the nemesis failed: " + nemesis.failure());
    }
    for (Node n : topology.nodes()) {
      n.signal("CONT");
      if (n.partitionable()) {
        n.healNetwork();
      }
      if (n.pid() < 0) {
        n.start();
      }
    }
  }

  /** Lets the clients go on until one write is acknowledged after the last fault was healed (at most 30 s). */
  private static void awaitWriteAfterFaults(History history) throws InterruptedException {
    long healed = history.now();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline && history.operations().stream()
        .noneMatch(o -> o.ok() && o.type().writesValue() && o.invoke() > healed)) {
      Thread.sleep(200); // the servers recover from the last fault: look again shortly, bounded
    }
  }

  /** A consistent list from every server once all is healed (each retried until it answers); the highest item rv. */
  private static long finalLists(ConfigMapCalls admin, List<URI> urls, History history) throws InterruptedException {
    long highest = 0;
    for (int i = 0; i < urls.size(); i++) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(FINAL_LIST_SECONDS);
      Operation list = admin.list(i);
      while (!list.ok() && System.nanoTime() < deadline) {
        Thread.sleep(500); // the server is catching up after the faults: ask again shortly
        list = admin.list(i);
      }
      history.addFinal(list);
      for (Version v : list.seen()) {
        highest = Math.max(highest, v.rv());
      }
    }
    return highest;
  }

  /** Whether the run tested anything: faults injected and healed, writes acknowledged and refused, events delivered. */
  private static Check exercised(History history, Nemesis nemesis) {
    Check c = new Check("the run injected faults and completed operations");
    c.checked();
    if (nemesis.failure() != null) {
      c.violated("a fault could not be healed: " + nemesis.failure());
    }
    if (history.faults().size() < 2) {
      c.violated("only " + history.faults().size() + " faults were injected");
    }
    long ackedUpdates = history.operations().stream().filter(o -> o.ok() && o.type() == Type.UPDATE).count();
    long ackedCreates = history.operations().stream().filter(o -> o.ok() && o.type() == Type.CREATE).count();
    long refused = history.operations().stream().filter(o -> o.outcome() == Outcome.FAIL).count();
    if (ackedUpdates < 10 || ackedCreates < 1 || refused < 1) {
      c.violated("too little done: " + ackedCreates + " creates and " + ackedUpdates + " updates acknowledged, "
          + refused + " operations refused");
    }
    long lastFaultEnd = history.faults().stream().mapToLong(Fault::end).max().orElse(Long.MAX_VALUE);
    if (history.operations().stream().noneMatch(o -> o.ok() && o.type().writesValue() && o.invoke() > lastFaultEnd)) {
      c.violated("no write was acknowledged after the last fault was healed");
    }
    if (history.segments().stream().allMatch(s -> s.events().isEmpty())) {
      c.violated("no watch event was delivered");
    }
    return c;
  }
}
