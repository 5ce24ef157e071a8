package io.listwatch.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.bench.chaos.Operation.Outcome;
import io.listwatch.bench.chaos.Operation.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The checker on hand-made histories: a valid one passes, each kind of anomaly is rejected with its counterexample. */
class HistoryCheckerTest {

  private static final String LOST = "no acknowledged write lost";
  private static final String LINEAR = "guarded updates linearizable per key";
  private static final String WATCH = "each watcher sees every change once, in order, or gets 410";
  private static final String MONOTONIC = "resourceVersions never go back";
  private static final String WHOLE = "a timed-out write is applied whole or not at all";

  private final List<Operation> ops = new ArrayList<>();
  private final List<WatchSegment> segments = new ArrayList<>();
  private final List<Operation> finals = new ArrayList<>();

  private Operation op(int process, Type type, String key, String value, long expected, long invoke, long complete,
      Outcome outcome, long rv, Version... seen) {
    Operation op = new Operation(process, type, 0, key, value, expected, invoke, complete, outcome,
        outcome == Outcome.INFO ? -1 : 200, rv, List.of(seen));
    ops.add(op);
    return op;
  }

  private static Version v(String key, long rv, String value) {
    return new Version(key, rv, value, value);
  }

  private static WatchSegment.Event event(String type, Version v, long at) {
    return new WatchSegment.Event(type, v, at);
  }

  private void finalList(long rv, Version... items) {
    finals.add(new Operation(-1, Type.LIST, 0, null, null, 0, 1_000, 1_001, Outcome.OK, 200, rv, List.of(items)));
  }

  /** k0: created at 5 (a), updated 5->6 (b), updated 6->7 (c, timed out but applied), read at 7; k1 created and deleted. */
  private void validHistory() {
    op(0, Type.CREATE, "k0", "a", 0, 10, 20, Outcome.OK, 5);
    op(1, Type.UPDATE, "k0", "b", 5, 30, 40, Outcome.OK, 6);
    op(0, Type.UPDATE, "k0", "c", 6, 50, 60, Outcome.INFO, 0);
    op(1, Type.UPDATE, "k0", "d", 5, 55, 65, Outcome.FAIL, 0);
    op(1, Type.READ, "k0", null, 0, 70, 80, Outcome.OK, 7, v("k0", 7, "c"));
    op(2, Type.CREATE, "k1", "e", 0, 52, 58, Outcome.OK, 8);
    op(2, Type.DELETE, "k1", null, 0, 90, 100, Outcome.OK, 0);
    op(3, Type.LIST, null, null, 0, 110, 120, Outcome.OK, 9, v("k0", 7, "c"));
    segments.add(new WatchSegment(100, 0, 4, List.of(
        event("ADDED", v("k0", 5, "a"), 21),
        event("MODIFIED", v("k0", 6, "b"), 41)), WatchSegment.End.BROKEN));
    segments.add(new WatchSegment(100, 0, 6, List.of(
        event("MODIFIED", v("k0", 7, "c"), 61),
        event("ADDED", v("k1", 8, "e"), 62),
        event("DELETED", v("k1", 9, "e"), 101)), WatchSegment.End.LIVE_AT_END));
    finalList(9, v("k0", 7, "c"));
  }

  private Map<String, Check> check() {
    return new HistoryChecker(History.of(ops, segments, finals)).check().stream()
        .collect(Collectors.toMap(Check::name, Function.identity()));
  }

  @Test
  void validHistory_passesEveryCheck() {
    validHistory();
    Map<String, Check> checks = check();
    assertThat(checks.values()).allSatisfy(c -> assertThat(c.passed()).as(c.toString()).isTrue());
    assertThat(checks.get(LOST).cases()).as("3 acknowledged writes and a delete").isEqualTo(4);
  }

  @Test
  void lostWrite_isRejected() {
    validHistory();
    op(0, Type.UPDATE, "k0", "f", 7, 130, 140, Outcome.OK, 10);
    // the final list still shows c at 7: the acknowledged update to f is gone
    Map<String, Check> checks = check();
    assertThat(checks.get(LOST).passed()).isFalse();
    assertThat(checks.get(LOST).counterexamples().getFirst()).contains("value=f").contains("k0@7=c");
  }

  @Test
  void acknowledgedCreateMissingFromFinalList_withoutDelete_isRejected() {
    op(0, Type.CREATE, "k2", "x", 0, 10, 20, Outcome.OK, 5);
    finalList(5);
    assertThat(check().get(LOST).counterexamples().getFirst()).contains("value=x").contains("no delete");
  }

  @Test
  void twoUpdatesFromTheSameVersion_bothAcknowledged_areNotLinearizable() {
    validHistory();
    // b already went 5 -> 6; a second acknowledged update from 5 cannot follow 5
    op(2, Type.UPDATE, "k0", "g", 5, 42, 48, Outcome.OK, 11);
    op(3, Type.READ, "k0", null, 0, 49, 50, Outcome.OK, 11, v("k0", 11, "g"));
    Check linear = check().get(LINEAR);
    assertThat(linear.passed()).isFalse();
    assertThat(linear.counterexamples()).anySatisfy(c -> assertThat(c).contains("did not follow rv 5"));
  }

  @Test
  void indeterminateWriteAppliedTwice_isRejected() {
    validHistory();
    op(2, Type.READ, "k0", null, 0, 85, 86, Outcome.OK, 12, v("k0", 12, "c"));
    assertThat(check().get(LINEAR).counterexamples())
        .anySatisfy(c -> assertThat(c).contains("value c appears at two resourceVersions"));
  }

  @Test
  void refusedWriteSeen_isRejected() {
    validHistory();
    op(2, Type.READ, "k0", null, 0, 85, 86, Outcome.OK, 12, v("k0", 12, "d"));
    assertThat(check().get(LINEAR).counterexamples()).anySatisfy(c -> assertThat(c).contains("refused"));
  }

  @Test
  void watchThatSkipsAChange_isRejected() {
    validHistory();
    // a second watcher from 4 that jumps from a (5) to c (7): it missed b (6)
    segments.add(new WatchSegment(101, 0, 4, List.of(
        event("ADDED", v("k0", 5, "a"), 21),
        event("MODIFIED", v("k0", 7, "c"), 61)), WatchSegment.End.BROKEN));
    Check watch = check().get(WATCH);
    assertThat(watch.passed()).isFalse();
    assertThat(watch.counterexamples().getFirst()).contains("watcher 101").contains("missed k0@6=b");
  }

  @Test
  void watchThatRepeatsAChange_isRejected() {
    validHistory();
    segments.add(new WatchSegment(101, 0, 4, List.of(
        event("ADDED", v("k0", 5, "a"), 21),
        event("MODIFIED", v("k0", 6, "b"), 41),
        event("MODIFIED", v("k0", 6, "b"), 42)), WatchSegment.End.BROKEN));
    assertThat(check().get(WATCH).counterexamples().getFirst()).contains("out of order or twice");
  }

  @Test
  void watchOpenAtTheEnd_thatStoppedEarly_isRejected() {
    validHistory();
    segments.add(new WatchSegment(101, 0, 6, List.of(event("MODIFIED", v("k0", 7, "c"), 61)),
        WatchSegment.End.LIVE_AT_END));
    assertThat(check().get(WATCH).counterexamples().getFirst()).contains("missed k1@8=e");
  }

  @Test
  void listWhoseResourceVersionGoesBack_isRejected() {
    validHistory();
    // after the list at 9 ended (120), a list begun at 130 answers rv 8 with k1 still there
    op(2, Type.LIST, null, null, 0, 130, 140, Outcome.OK, 8, v("k0", 7, "c"), v("k1", 8, "e"));
    Check monotonic = check().get(MONOTONIC);
    assertThat(monotonic.passed()).isFalse();
    assertThat(monotonic.counterexamples().getFirst()).contains("rv=8").contains("lower resourceVersion");
  }

  @Test
  void staleRead_afterAnAcknowledgedUpdate_isRejected() {
    validHistory();
    // b (6) was acknowledged at 40; a read begun at 45 shows a (5)
    op(3, Type.READ, "k0", null, 0, 45, 47, Outcome.OK, 5, v("k0", 5, "a"));
    assertThat(check().get(MONOTONIC).counterexamples().getFirst()).contains("k0@5=a").contains("older version");
  }

  @Test
  void readOfAbsentKey_afterAcknowledgedCreate_withoutDelete_isRejected() {
    validHistory();
    op(3, Type.READ, "k0", null, 0, 25, 27, Outcome.OK, 0);
    assertThat(check().get(MONOTONIC).counterexamples().getFirst()).contains("k0 absent");
  }

  @Test
  void timedOutDelete_appliedAfterItsTimeout_isAccepted() {
    op(0, Type.CREATE, "k5", "x", 0, 10, 20, Outcome.OK, 5);
    op(1, Type.DELETE, "k5", null, 0, 30, 40, Outcome.INFO, 0);
    // still there after the delete timed out; gone later: the delete was applied late
    op(2, Type.READ, "k5", null, 0, 50, 60, Outcome.OK, 5, v("k5", 5, "x"));
    op(2, Type.READ, "k5", null, 0, 70, 80, Outcome.OK, 0);
    finalList(6);
    assertThat(check().values()).allSatisfy(c -> assertThat(c.passed()).as(c.toString()).isTrue());
  }

  @Test
  void versionAppliedByHalves_isRejected() {
    validHistory();
    op(3, Type.READ, "k0", null, 0, 62, 64, Outcome.OK, 7, new Version("k0", 7, "c", "b"));
    Check whole = check().get(WHOLE);
    assertThat(whole.passed()).isFalse();
    assertThat(whole.counterexamples().getFirst()).contains("different writes");
  }
}
