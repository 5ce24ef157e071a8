package io.listwatch.bench.chaos;

import io.listwatch.bench.chaos.Operation.Outcome;
import io.listwatch.bench.chaos.Operation.Type;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checks a {@link History} against what kube's storage promises, the way Jepsen's checkers do:
 * from the recorded operations alone, without asking the servers anything.
 *
 * <p>Every write puts a value no other write puts, and etcd (or the embedded store) gives every
 * change a resourceVersion higher than any before it, across all keys. So everything anyone saw
 * (an acknowledged write's answer, a read, a list, a watch event) tells the checker one
 * modification: "at resourceVersion r, key k took value v" or "... was deleted". Gathered, these
 * form each key's chain of versions, ordered by resourceVersion. The checks:
 * <ol>
 *   <li><b>No acknowledged write lost:</b> the final lists (taken from each server after every
 *       fault was healed) show, for each acknowledged create or update, that version or a later
 *       one, unless a delete that was not refused could have come after it; an acknowledged
 *       delete is not undone. The servers' final lists agree.
 *   <li><b>Guarded updates linearizable per key:</b> a resourceVersion carries one version, a
 *       value appears at one resourceVersion at most (an indeterminate write was applied once
 *       or not at all); every value seen was written, to that key, before it was seen; a refused
 *       write is never seen; an acknowledged update from r to r' directly follows r in the key's
 *       chain (nothing came between: that is compare-and-set); an acknowledged create follows
 *       nothing or a deletion; a write acknowledged before another began has the lower
 *       resourceVersion.
 *   <li><b>Each watcher sees every change once, in order, or gets 410:</b> a watch segment's
 *       events have increasing resourceVersions above its start, each is the modification known
 *       at its resourceVersion (ADDED after nothing or a deletion, MODIFIED after a version), and
 *       it misses none between its start and its last event (and, for a watch open at the end,
 *       the final resourceVersion).
 *   <li><b>ResourceVersions never go back:</b> a consistent read or list begun after an
 *       operation ended shows that operation's version of the key, or a later one (or the key
 *       absent, if a delete could explain it); a list's resourceVersion is not below that of any
 *       write or list that ended before it began.
 *   <li><b>A timed-out write is applied whole or not at all:</b> every version anyone saw carries
 *       the same value in its data and in its label, both set by one request.
 * </ol>
 *
 * <p>Not thread-safe; one checker per history.
 */
final class HistoryChecker {

  /** A modification known from the history: at {@code rv}, {@code key} took {@code value} (null: was deleted). */
  private record Mod(String key, long rv, String value, String source) {
    boolean deletion() {
      return value == null;
    }

    boolean sameChange(Mod o) {
      return key.equals(o.key) && Objects.equals(value, o.value);
    }

    @Override
    public String toString() {
      return key + "@" + rv + (deletion() ? " deleted" : "=" + value) + " (" + source + ")";
    }
  }

  /** An observation of a key's version over a span of time, for the real-time order checks. */
  private record Observation(long invoke, long complete, long rv, Object what) {
  }

  private final History history;
  private final List<Operation> ops;
  private final Map<String, Operation> writes = new HashMap<>();
  private final TreeMap<Long, Mod> byRv = new TreeMap<>();
  private final Map<String, TreeMap<Long, Mod>> chains = new HashMap<>();
  private final Map<String, Long> valueRv = new HashMap<>();
  /** The final lists' resourceVersion: what a watch open at the end must have caught up to. */
  private final long finalRv;
  private final Check lost = new Check("no acknowledged write lost");
  private final Check linear = new Check("guarded updates linearizable per key");
  private final Check watch = new Check("each watcher sees every change once, in order, or gets 410");
  private final Check monotonic = new Check("resourceVersions never go back");
  private final Check whole = new Check("a timed-out write is applied whole or not at all");

  HistoryChecker(History history) {
    this.history = history;
    this.ops = history.operations();
    this.finalRv = history.finalLists().stream().filter(Operation::ok).mapToLong(Operation::rv).max().orElse(0);
  }

  /** Runs every check; the results in the order of the class comment. */
  List<Check> check() {
    for (Operation op : ops) {
      if (op.type().writesValue()) {
        writes.put(op.value(), op);
      }
    }
    learnAll();
    checkLost();
    checkLinear();
    checkWatches();
    checkMonotonic();
    checkWhole();
    return List.of(lost, linear, watch, monotonic, whole);
  }

  // ---- what the history tells about each key's chain of versions

  private void learnAll() {
    for (Operation op : ops) {
      if (op.ok() && op.type().writesValue()) {
        learn(new Mod(op.key(), op.rv(), op.value(), op.toString()), op.complete());
      }
      if (op.ok()) {
        for (Version v : op.seen()) {
          learnSeen(v, op.complete(), op.toString());
        }
      }
    }
    for (WatchSegment s : history.segments()) {
      for (WatchSegment.Event e : s.events()) {
        if (e.deleted()) {
          learn(new Mod(e.version().key(), e.version().rv(), null, e + " of " + s), e.at());
        } else {
          learnSeen(e.version(), e.at(), e + " of " + s);
        }
      }
    }
    for (Operation op : history.finalLists()) {
      for (Version v : op.seen()) {
        learnSeen(v, op.complete(), "final " + op);
      }
    }
  }

  private void learnSeen(Version v, long seenAt, String source) {
    whole.checked();
    if (!v.whole()) {
      whole.violated(v + " has its data and its label from different writes, in " + source);
    }
    Operation w = writes.get(v.value());
    if (w == null) {
      linear.violated(v + " was never written, seen in " + source);
    } else if (!w.key().equals(v.key())) {
      linear.violated(v + " was written to " + w.key() + " by " + w + ", seen in " + source);
    } else if (w.invoke() > seenAt) {
      linear.violated(v + " was seen before its write " + w + " began, in " + source);
    } else if (w.outcome() == Outcome.FAIL) {
      linear.violated(v + " was written by a refused write " + w + ", seen in " + source);
    }
    learn(new Mod(v.key(), v.rv(), v.value(), source), seenAt);
  }

  private void learn(Mod m, long at) {
    Mod known = byRv.putIfAbsent(m.rv(), m);
    if (known != null && !known.sameChange(m)) {
      linear.violated("resourceVersion " + m.rv() + " carries two changes: " + known + " and " + m);
      return;
    }
    chains.computeIfAbsent(m.key(), k -> new TreeMap<>()).putIfAbsent(m.rv(), m);
    if (m.value() != null) {
      Long rv = valueRv.putIfAbsent(m.value(), m.rv());
      if (rv != null && rv != m.rv()) {
        linear.violated("value " + m.value() + " appears at two resourceVersions, " + rv + " and " + m.rv()
            + " (one write applied twice): " + byRv.get(rv) + " and " + m);
      }
    }
  }

  // ---- 1. no acknowledged write lost

  private void checkLost() {
    List<Operation> finals = history.finalLists().stream().filter(Operation::ok).toList();
    if (finals.isEmpty()) {
      lost.violated("no final list was taken: nothing shows what survived");
      return;
    }
    Map<String, Version> first = items(finals.getFirst());
    for (Operation other : finals.subList(1, finals.size())) {
      if (!items(other).equals(first)) {
        lost.violated("the servers' final lists differ: " + finals.getFirst() + " and " + other);
      }
    }
    for (Operation f : finals) {
      Map<String, Version> items = items(f);
      for (Operation w : ops) {
        if (!w.ok()) {
          continue;
        }
        if (w.type().writesValue()) {
          lost.checked();
          Version now = items.get(w.key());
          if (now == null) {
            if (!mayHaveDeletedAfter(w.key(), w)) {
              lost.violated("acknowledged " + w + " is gone from the final list, and no delete came after it: " + f);
            }
          } else if (now.rv() < w.rv() || now.rv() == w.rv() && !now.value().equals(w.value())) {
            lost.violated("acknowledged " + w + " is lost: the final list shows " + now);
          }
        } else if (w.type() == Type.DELETE) {
          lost.checked();
          Version now = items.get(w.key());
          Operation put = now == null ? null : writes.get(now.value());
          if (put != null && put.complete() < w.invoke()) {
            lost.violated("acknowledged " + w + " is undone: the final list still shows " + now + ", written by " + put);
          }
        }
      }
    }
  }

  private static Map<String, Version> items(Operation list) {
    Map<String, Version> items = new HashMap<>();
    for (Version v : list.seen()) {
      items.put(v.key(), v);
    }
    return items;
  }

  /** Whether a delete of {@code key} that was not refused may have come after {@code after} began. */
  private boolean mayHaveDeletedAfter(String key, Operation after) {
    for (Operation d : ops) {
      if (d.type() == Type.DELETE && d.key().equals(key) && d.outcome() != Outcome.FAIL
          && end(d) > after.invoke()) {
        return true;
      }
    }
    return false;
  }

  // ---- 2. guarded updates linearizable per key

  private void checkLinear() {
    Map<String, List<Operation>> acked = new HashMap<>();
    for (Operation w : ops) {
      if (w.type().writesValue()) {
        if (w.outcome() == Outcome.FAIL && valueRv.containsKey(w.value())) {
          linear.violated("refused " + w + " was applied: its value is at rv " + valueRv.get(w.value()));
        }
        if (!w.ok()) {
          continue;
        }
        linear.checked();
        acked.computeIfAbsent(w.key(), k -> new ArrayList<>()).add(w);
        TreeMap<Long, Mod> chain = chains.get(w.key());
        Map.Entry<Long, Mod> before = chain.lowerEntry(w.rv());
        if (w.type() == Type.UPDATE) {
          if (before == null || before.getKey() != w.expectedRv() || before.getValue().deletion()) {
            linear.violated("acknowledged " + w + " did not follow rv " + w.expectedRv() + ": before rv " + w.rv()
                + " the key's chain has " + (before == null ? "nothing" : before.getValue())
                + (chain.get(w.expectedRv()) == null ? "" : "; at " + w.expectedRv() + ": " + chain.get(w.expectedRv())));
          }
        } else if (before != null && !before.getValue().deletion() && watched(before.getKey(), w.rv())) {
          linear.violated("acknowledged " + w + " created a key that existed: before rv " + w.rv()
              + " its chain has " + before.getValue());
        }
      }
    }
    for (List<Operation> writesOfKey : acked.values()) {
      realTimeOrder(writesOfKey.stream().map(w -> new Observation(w.invoke(), w.complete(), w.rv(), w)).toList(),
          linear, "was acknowledged with a lower resourceVersion than an acknowledged write that ended before it began");
    }
  }

  // ---- 3. watches

  private void checkWatches() {
    for (WatchSegment s : history.segments()) {
      watch.checked();
      long prev = s.startRv();
      Set<Long> delivered = new HashSet<>();
      Map<String, WatchSegment.Event> lastOfKey = new HashMap<>();
      for (WatchSegment.Event e : s.events()) {
        long rv = e.version().rv();
        if (rv <= prev) {
          watch.violated(s + " delivered " + e + " after rv " + prev + " (out of order or twice)");
        }
        prev = Math.max(prev, rv);
        delivered.add(rv);
        // the event's type follows the key's previous version: in this segment, or the chain's
        // when a watch covered everything from it (a deletion no watch saw is unknown)
        WatchSegment.Event earlier = lastOfKey.put(e.version().key(), e);
        Map.Entry<Long, Mod> before = chains.get(e.version().key()).lowerEntry(rv);
        Boolean existed = earlier != null ? Boolean.valueOf(!earlier.deleted())
            : before == null ? null : watched(before.getKey(), rv) ? Boolean.valueOf(!before.getValue().deletion()) : null;
        if (existed != null && (e.type().equals("ADDED") && existed || e.type().equals("MODIFIED") && !existed)) {
          watch.violated(s + " delivered " + e + " but before it the key had "
              + (earlier != null ? earlier : before.getValue()));
        }
      }
      long upper = upper(s);
      for (Mod m : byRv.subMap(s.startRv(), false, upper, true).values()) {
        if (!delivered.contains(m.rv())) {
          watch.violated(s + " missed " + m + " (it delivered up to rv " + s.lastRv() + ")");
          break;
        }
      }
    }
  }

  /** How far a segment is held to deliver every change: its last event, or the final lists' rv for one open at the end. */
  private long upper(WatchSegment s) {
    return s.end() == WatchSegment.End.LIVE_AT_END ? Math.max(finalRv, s.lastRv()) : s.lastRv();
  }

  /**
   * Whether one watch segment covered every change from {@code from} to {@code to}: then every
   * change between them is known (the watch check holds it to them), deletions included.
   */
  private boolean watched(long from, long to) {
    for (WatchSegment s : history.segments()) {
      if (s.startRv() <= from && upper(s) >= to) {
        return true;
      }
    }
    return false;
  }

  // ---- 4. resourceVersions never go back

  private void checkMonotonic() {
    Map<String, List<Observation>> perKey = new HashMap<>();
    List<Observation> global = new ArrayList<>();
    List<Operation> absences = new ArrayList<>();
    for (Operation op : ops) {
      if (!op.ok()) {
        continue;
      }
      if (op.type().writesValue()) {
        perKey.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(
            new Observation(op.invoke(), op.complete(), op.rv(), op));
        global.add(new Observation(op.invoke(), op.complete(), op.rv(), op));
      } else if (op.type() == Type.READ || op.type() == Type.LIST) {
        for (Version v : op.seen()) {
          perKey.computeIfAbsent(v.key(), k -> new ArrayList<>()).add(
              new Observation(op.invoke(), op.complete(), v.rv(), v + " in " + op));
        }
        if (op.type() == Type.LIST) {
          global.add(new Observation(op.invoke(), op.complete(), op.rv(), op));
        }
        if (op.type() == Type.READ && op.seen().isEmpty() || op.type() == Type.LIST) {
          absences.add(op);
        }
      }
    }
    for (List<Observation> o : perKey.values()) {
      realTimeOrder(o, monotonic, "shows an older version of the key than an operation that ended before it began");
    }
    realTimeOrder(global, monotonic, "has a lower resourceVersion than an operation that ended before it began");
    for (Operation op : absences) {
      Set<String> present = new HashSet<>();
      op.seen().forEach(v -> present.add(v.key()));
      for (Map.Entry<String, List<Observation>> e : perKey.entrySet()) {
        if ((op.type() == Type.READ && !e.getKey().equals(op.key())) || present.contains(e.getKey())) {
          continue;
        }
        Observation latest = e.getValue().stream().filter(o -> o.complete() < op.invoke())
            .max(Comparator.comparingLong(Observation::rv)).orElse(null);
        if (latest != null && !mayHaveDeleted(e.getKey(), latest.invoke(), op.complete())) {
          monotonic.violated(op + " shows " + e.getKey() + " absent, but " + latest.what()
              + " ended before it began and no delete came between");
        }
      }
    }
  }

  /**
   * When {@code op} may have taken effect at the latest: its completion, or never for an
   * indeterminate one (a timed-out write may still be applied later, as Jepsen's checkers assume).
   */
  private static long end(Operation op) {
    return op.outcome() == Outcome.INFO ? Long.MAX_VALUE : op.complete();
  }

  /** Whether a delete of {@code key} that was not refused overlaps (from, to). */
  private boolean mayHaveDeleted(String key, long from, long to) {
    for (Operation d : ops) {
      if (d.type() == Type.DELETE && d.key().equals(key) && d.outcome() != Outcome.FAIL
          && d.invoke() < to && end(d) > from) {
        return true;
      }
    }
    return false;
  }

  /**
   * Each observation's resourceVersion is at least that of every observation that ended before
   * it began.
   */
  private static void realTimeOrder(List<Observation> observations, Check check, String violation) {
    List<Observation> byInvoke = new ArrayList<>(observations);
    byInvoke.sort(Comparator.comparingLong(Observation::invoke));
    List<Observation> byComplete = new ArrayList<>(observations);
    byComplete.sort(Comparator.comparingLong(Observation::complete));
    int next = 0;
    Observation highest = null;
    for (Observation b : byInvoke) {
      while (next < byComplete.size() && byComplete.get(next).complete() < b.invoke()) {
        Observation a = byComplete.get(next++);
        if (highest == null || a.rv() > highest.rv()) {
          highest = a;
        }
      }
      check.checked();
      if (highest != null && b.rv() < highest.rv()) {
        check.violated(b.what() + " " + violation + ": " + highest.what());
      }
    }
  }

  // ---- 5. timed-out writes whole (each version seen is checked as it is learned)

  private void checkWhole() {
    // the versions were checked while learning; nothing else to look at
  }

  /** How many indeterminate writes were seen applied, and how many were not. */
  static long[] indeterminateWrites(History history) {
    Set<String> seen = new HashSet<>();
    history.operations().forEach(op -> op.seen().forEach(v -> seen.add(v.value())));
    history.finalLists().forEach(op -> op.seen().forEach(v -> seen.add(v.value())));
    history.segments().forEach(s -> s.events().forEach(e -> seen.add(e.version().value())));
    long applied = 0;
    long not = 0;
    for (Operation op : history.operations()) {
      if (op.type().writesValue() && op.outcome() == Outcome.INFO) {
        if (seen.contains(op.value())) {
          applied++;
        } else {
          not++;
        }
      }
    }
    return new long[] {applied, not};
  }
}
