package io.listwatch.bench.informer;

import static io.listwatch.bench.Format.count;

import io.listwatch.bench.Format;
import io.listwatch.bench.Report;
import io.listwatch.bench.ResultTable;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * What {@code informer-sync} concludes from its runs, written into the {@link Report}: the
 * summary table (medians and spread per client and pod count, with what each cache holds and
 * whether each informer received the watch events written after its sync), the comparison of
 * each listwatch row ({@code listwatch}: {@code DynamicObject}; {@code listwatch-typed}: the
 * peers' typed model) against each peer, the verdicts on the targets, the named figures and a
 * note on what makes the difference.
 *
 * <p>Figure keys ({@code CLIENT} in lower camel case, e.g. {@code listwatchTyped}):
 * {@code informer.CLIENT.podsN.syncMs.median/.min/.max}, {@code .heapBytesPerPod},
 * {@code .cpuSeconds}, {@code .gcMs}, {@code .eventsReceived} (the fewest of any run),
 * {@code .eventsExpected}; {@code informer.speedup.PEER.podsN} ({@code listwatch}'s),
 * {@code informer.speedupTyped.PEER.podsN} ({@code listwatch-typed}'s) and
 * {@code informer.heapRatio.PEER.podsN} (listwatch's heap over the peer's), from medians.
 *
 * <p>Confined to the thread that runs the command.
 */
final class SyncComparison {

  private static final List<String> PEERS = List.of("fabric8", "official");
  private static final List<String> OURS = List.of("listwatch", "listwatch-typed");

  private final Report report;
  private final List<Integer> podCounts;
  private final List<String> clients;
  private final List<SyncResult> results;

  SyncComparison(Report report, List<Integer> podCounts, List<String> clients, List<SyncResult> results) {
    this.report = report;
    this.podCounts = podCounts;
    this.clients = clients;
    this.results = results;
  }

  /** The summary table and every client's figures. */
  void summarize() {
    ResultTable summary = report.table(new ResultTable(
        "Summary: median (min–max) over the runs",
        "pods", "client", "holds", "runs", "sync ms", "heap MiB", "heap bytes per pod", "client CPU s (sync)",
        "events after sync: received/expected"));
    for (int size : podCounts) {
      for (String client : clients) {
        List<SyncResult> rs = of(size, client);
        if (rs.isEmpty()) {
          summary.row(count(size), client, "", 0, "failed", "failed", "failed", "failed", "failed");
          continue;
        }
        summary.row(count(size), client, rs.getFirst().holds(), rs.size(),
            range(rs, s -> s.syncNanos() / 1e6, "%,.0f"),
            range(rs, s -> s.heapBytes() / 1048576.0, "%,.1f"),
            count(median(rs, s -> s.heapBytes() / (double) size)),
            range(rs, s -> s.cpuSyncNanos() / 1e9, "%.2f"),
            events(rs));
        String key = "informer." + key(client) + ".pods" + size + ".";
        report.figure(key + "syncMs.median", median(rs, s -> s.syncNanos() / 1e6));
        report.figure(key + "syncMs.min", min(rs, s -> s.syncNanos() / 1e6));
        report.figure(key + "syncMs.max", -min(rs, s -> -s.syncNanos() / 1e6));
        report.figure(key + "heapBytesPerPod", median(rs, s -> s.heapBytes() / (double) size));
        report.figure(key + "cpuSeconds", median(rs, s -> s.cpuSyncNanos() / 1e9));
        report.figure(key + "gcMs", median(rs, SyncResult::gcMillis));
        report.figure(key + "eventsReceived", min(rs, SyncResult::eventsReceived));
        report.figure(key + "eventsExpected", rs.getFirst().eventsExpected());
      }
    }
  }

  /** Each listwatch row against each peer (table, figures, verdicts), then the events verdicts. */
  void verdicts(double targetSpeedup, double targetHeapFraction) {
    ResultTable compare = report.table(new ResultTable(
        "Each listwatch row against each peer, medians: sync speed-up (peer time / listwatch time), client CPU "
            + "ratio (peer / listwatch) and heap fraction (listwatch heap / peer heap)",
        "pods", "listwatch row", "holds", "peer", "peer holds", "sync speed-up", "CPU ratio", "heap fraction"));
    for (int size : podCounts) {
      for (String ours : OURS) {
        List<SyncResult> us = of(size, ours);
        if (!clients.contains(ours)) {
          continue;
        }
        for (String peer : PEERS) {
          List<SyncResult> them = of(size, peer);
          if (!clients.contains(peer)) {
            continue;
          }
          String what = String.format("target at %s pods, %s (%s) vs %s (%s)", count(size), ours, holds(us),
              peer, holds(them));
          if (us.isEmpty() || them.isEmpty()) {
            compare.row(count(size), ours, holds(us), peer, holds(them), "not measured", "not measured",
                "not measured");
            report.verdict(what + ": NOT MEASURED (" + (us.isEmpty() ? ours : peer) + " has no successful run)");
            continue;
          }
          double speedup = median(them, SyncResult::syncNanos) / median(us, SyncResult::syncNanos);
          double cpu = median(them, SyncResult::cpuSyncNanos) / median(us, SyncResult::cpuSyncNanos);
          double fraction = median(us, SyncResult::heapBytes) / median(them, SyncResult::heapBytes);
          compare.row(count(size), ours, holds(us), peer, holds(them), String.format("%.2fx", speedup),
              String.format("%.2fx", cpu), String.format("%.2f", fraction));
          String suffix = "." + key(peer) + ".pods" + size;
          report.figure((ours.equals("listwatch") ? "informer.speedup" : "informer.speedupTyped") + suffix, speedup);
          report.figure((ours.equals("listwatch") ? "informer.heapRatio" : "informer.heapRatioTyped") + suffix,
              fraction);
          report.verdict(String.format("%s: sync >= %sx faster: %s (%.2fx); heap <= %.2f of theirs: %s (%.2f)", what,
              Format.number(targetSpeedup), speedup >= targetSpeedup ? "MET" : "MISSED", speedup,
              targetHeapFraction, fraction <= targetHeapFraction ? "MET" : "MISSED", fraction));
        }
      }
    }
    for (int size : podCounts) {
      for (String client : clients) {
        List<SyncResult> rs = of(size, client);
        if (rs.isEmpty()) {
          continue;
        }
        boolean all = rs.stream().allMatch(SyncResult::allEventsReceived);
        report.verdict(String.format("events after sync at %s pods, %s: %s (received/expected %s; %s)", count(size),
            client, all ? "ALL RECEIVED" : "SHORT (FAILED)", events(rs), rs.size() == 1 ? "one run" : "fewest of "
                + rs.size() + " runs"));
      }
    }
  }

  /** A note per pod count on what makes the difference, from this run's medians. */
  void explain() {
    for (int size : podCounts) {
      StringBuilder line = new StringBuilder("what makes the difference at " + count(size) + " pods (medians): ");
      String sep = "";
      for (String client : clients) {
        List<SyncResult> rs = of(size, client);
        if (rs.isEmpty()) {
          continue;
        }
        line.append(sep).append(String.format(Locale.ROOT, "%s holding %s: %,.0f ms, %.2f s client CPU, %s GCs "
                + "(%,.0f ms), %s heap bytes per pod", client, rs.getFirst().holds(),
            median(rs, s -> s.syncNanos() / 1e6), median(rs, s -> s.cpuSyncNanos() / 1e9),
            Format.number(median(rs, SyncResult::gcCount)), median(rs, SyncResult::gcMillis),
            count(median(rs, s -> s.heapBytes() / (double) size))));
        sep = "; ";
      }
      report.note(line.toString());
    }
    report.note("what makes the difference, in words: the decode. listwatch's DynamicObject keeps each pod's JSON "
        + "bytes as received and parses only apiVersion, kind and the metadata the cache needs (name, namespace, "
        + "resourceVersion, uid, labels), skipping spec and status; fabric8 and the official client bind every field of every pod into "
        + "a typed model (Pod, V1Pod: hundreds of small objects per pod), which costs CPU to decode, allocation, "
        + "and the GC work to collect and copy it, on a 2-core machine that also runs the server (compare "
        + "the sync speed-up with the client CPU ratio and the GCs above). listwatch-typed is the same informer "
        + "(Reflector, DeltaFIFO, Indexer) decoding into fabric8's Pod through Jackson: its distance from fabric8 "
        + "is what the informer machinery and HTTP path are worth with the representation held equal; its "
        + "distance from listwatch is what the representation is worth.");
  }

  private List<SyncResult> of(int size, String client) {
    return results.stream().filter(r -> r.pods() == size && r.client().equals(client)).toList();
  }

  private static String holds(List<SyncResult> rs) {
    return rs.isEmpty() ? "?" : rs.getFirst().holds();
  }

  /** The fewest events any run received, over the expected count; "(SHORT)" if any run was short. */
  private static String events(List<SyncResult> rs) {
    long fewest = (long) min(rs, SyncResult::eventsReceived);
    long expected = rs.getFirst().eventsExpected();
    Optional<SyncResult> slowest = rs.stream().max(java.util.Comparator.comparingLong(SyncResult::eventsNanos));
    return fewest + "/" + expected + (fewest < expected ? " (SHORT)" : "")
        + slowest.map(s -> String.format(" in %,.0f ms", s.eventsNanos() / 1e6)).orElse("");
  }

  /** {@code listwatch-typed} as {@code listwatchTyped}, for a figure key. */
  static String key(String client) {
    StringBuilder b = new StringBuilder();
    boolean upper = false;
    for (char c : client.toCharArray()) {
      if (c == '-') {
        upper = true;
      } else {
        b.append(upper ? Character.toUpperCase(c) : c);
        upper = false;
      }
    }
    return b.toString();
  }

  static double median(List<SyncResult> rs, ToDoubleFunction<SyncResult> f) {
    return io.listwatch.bench.Spread.of(rs.stream().mapToDouble(f).toArray()).median();
  }

  private static double min(List<SyncResult> rs, ToDoubleFunction<SyncResult> f) {
    return rs.stream().mapToDouble(f).min().orElse(Double.NaN);
  }

  private static String range(List<SyncResult> rs, ToDoubleFunction<SyncResult> f, String format) {
    double[] v = rs.stream().mapToDouble(f).sorted().toArray();
    String med = String.format(format, median(rs, f));
    return v.length == 1 ? med : med + " (" + String.format(format, v[0]) + "–" + String.format(format, v[v.length - 1]) + ")";
  }
}
