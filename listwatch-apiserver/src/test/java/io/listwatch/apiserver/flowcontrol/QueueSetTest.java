package io.listwatch.apiserver.flowcontrol;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.clock.FakeClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * One priority level's seats, queues and fair queuing, on a fake clock: which requests execute,
 * wait, go first, and are refused with which reason.
 */
class QueueSetTest {

  private final FakeClock clock = new FakeClock();
  private final List<String> outcomes = new ArrayList<>();
  private final FlowControlObserver observer = new FlowControlObserver() {
    @Override
    public void dispatched(Classification c, double waitSeconds) {
      outcomes.add("dispatched " + c.flowDistinguisher() + " after " + waitSeconds);
    }

    @Override
    public void rejected(Classification c, String reason, double waitSeconds) {
      outcomes.add("rejected " + c.flowDistinguisher() + " " + reason);
    }
  };

  private QueueSet level(int limit, int queues, int handSize, int queueLength) {
    return new QueueSet(new QueueSet.Config(false, limit, queues, handSize, queueLength), clock, Duration.ofSeconds(15),
        observer);
  }

  private static Classification request(String flow, int seats) {
    return new Classification("fs", "fs-uid", "pl", "pl-uid", flow, seats);
  }

  private static String rejection(Ticket t) {
    assertThat(t.dispatched()).isCompletedExceptionally();
    try {
      t.dispatched().join();
      throw new AssertionError("not rejected");
    } catch (CompletionException e) {
      Rejection r = (Rejection) e.getCause();
      assertThat(r).hasMessage(Rejection.MESSAGE + " (" + r.reason() + ")");
      return r.reason();
    }
  }

  @Test
  void requestsBeyondTheSeats_wait_andGoWhenSeatsFree() {
    QueueSet qs = level(2, 4, 2, 10);
    Ticket a = qs.start(request("a", 1), 0);
    Ticket b = qs.start(request("a", 1), 0);
    Ticket c = qs.start(request("a", 1), 0);
    assertThat(a.dispatched()).isCompleted();
    assertThat(b.dispatched()).isCompleted();
    assertThat(c.dispatched()).isNotDone();
    assertThat(qs.counts().waiting()).isEqualTo(1);
    clock.advance(Duration.ofMillis(250));
    a.finish();
    a.finish(); // idempotent: frees one seat only
    assertThat(c.dispatched()).isCompleted();
    assertThat(outcomes).last().isEqualTo("dispatched a after 0.25");
    assertThat(qs.counts().seatsInUse()).isEqualTo(2);
    assertThat(qs.counts().bySchema()).containsExactly(new QueueSet.SchemaCounts("fs", 0, 2, 2));
  }

  @Test
  void fullQueues_refuseWithQueueFull() {
    QueueSet qs = level(1, 2, 2, 1); // a hand of both queues, one request each
    qs.start(request("a", 1), 0);
    Ticket w1 = qs.start(request("a", 1), 0);
    Ticket w2 = qs.start(request("a", 1), 0);
    Ticket refused = qs.start(request("a", 1), 0);
    assertThat(w1.dispatched()).isNotDone();
    assertThat(w2.dispatched()).isNotDone();
    assertThat(rejection(refused)).isEqualTo("queue-full");
    assertThat(refused.classification().orElseThrow().priorityLevelUid()).isEqualTo("pl-uid");
  }

  @Test
  void levelWithoutQueues_refusesWhatDoesNotFit_withConcurrencyLimit() {
    QueueSet qs = level(2, 0, 0, 0);
    qs.start(request("a", 1), 0);
    Ticket second = qs.start(request("b", 1), 1);
    assertThat(second.dispatched()).isCompleted();
    assertThat(rejection(qs.start(request("c", 1), 2))).isEqualTo("concurrency-limit");
    second.finish();
    assertThat(qs.start(request("c", 1), 2).dispatched()).isCompleted();
  }

  @Test
  void waitingLongerThanTheLimit_isRefusedWithTimeOut() {
    QueueSet qs = level(1, 1, 1, 10);
    Ticket running = qs.start(request("a", 1), 0);
    Ticket waiting = qs.start(request("a", 1), 0);
    clock.advance(Duration.ofMillis(14_999));
    assertThat(waiting.dispatched()).isNotDone();
    clock.advance(Duration.ofMillis(1));
    assertThat(rejection(waiting)).isEqualTo("time-out");
    assertThat(qs.counts().waiting()).isZero();
    running.finish();
    assertThat(qs.counts().executing()).isZero(); // the timed-out one never ran
  }

  @Test
  void cancelledWhileWaiting_leavesTheQueue() {
    QueueSet qs = level(1, 1, 1, 10);
    Ticket running = qs.start(request("a", 1), 0);
    Ticket gone = qs.start(request("a", 1), 0);
    Ticket next = qs.start(request("a", 1), 0);
    gone.cancel();
    assertThat(rejection(gone)).isEqualTo("cancelled");
    running.finish();
    assertThat(next.dispatched()).isCompleted();
    next.cancel(); // an executing request that is cancelled finishes
    assertThat(qs.counts().executing()).isZero();
  }

  @Test
  void aLightFlow_goesBeforeTheBacklogOfAHeavyOne() {
    QueueSet qs = level(10, 8, 1, 50); // hand of 1: flow hash h goes to queue h % 8
    Ticket running = qs.start(request("heavy", 10), 0);
    List<Ticket> heavy = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      heavy.add(qs.start(request("heavy", 10), 0));
    }
    Ticket light = qs.start(request("light", 1), 1);
    running.finish();
    // fair queuing: the light flow's request finishes first in virtual time
    assertThat(light.dispatched()).isCompleted();
    assertThat(heavy.get(0).dispatched()).isNotDone(); // 10 seats do not fit beside the light one
    light.finish();
    assertThat(heavy.get(0).dispatched()).isCompleted();
    assertThat(heavy.get(1).dispatched()).isNotDone();
  }

  @Test
  void aNarrowHead_takesTheSeatAWideHeadCannotUse() {
    QueueSet qs = level(9, 8, 1, 50); // 9 seats: one 8-seat list executes, one seat is left over
    Ticket running = qs.start(request("heavy", 8), 0);
    Ticket wide = qs.start(request("heavy", 8), 0);
    clock.advance(Duration.ofSeconds(1)); // the light flow arrives later in R: the wide head finishes first
    Ticket light = qs.start(request("light", 1), 1);
    assertThat(light.dispatched()).isCompleted(); // kube would leave the ninth seat idle
    assertThat(wide.dispatched()).isNotDone();
    running.finish(); // eight seats free: the wide head goes, the light request still holding its seat
    assertThat(wide.dispatched()).isCompleted();
    assertThat(qs.counts().seatsInUse()).isEqualTo(9);
  }

  @Test
  void narrowRequests_neverStarveAWideHead_ofTheSeatsFreedAfterItStopped() {
    QueueSet qs = level(10, 8, 1, 50);
    Ticket old1 = qs.start(request("a", 4), 0);
    Ticket old2 = qs.start(request("a", 2), 0);
    Ticket wide = qs.start(request("heavy", 8), 2); // four seats free, eight asked for: it waits
    clock.advance(Duration.ofSeconds(1));
    List<Ticket> light = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      light.add(qs.start(request("light", 1), 3));
    }
    // of the four free, the two the wide head leaves over of the ten go to the light flow
    assertThat(light).extracting(t -> t.dispatched().isDone()).containsExactly(true, true, false);
    old1.finish(); // six free but for the wide head: not lent, not enough
    assertThat(light.get(2).dispatched()).isNotDone();
    light.get(0).finish(); // a lent seat back: lent again
    assertThat(light.get(2).dispatched()).isCompleted();
    assertThat(wide.dispatched()).isNotDone();
    old2.finish(); // every request executing when it stopped is done: its eight seats are free
    assertThat(wide.dispatched()).isCompleted();
    assertThat(qs.counts().seatsInUse()).isEqualTo(10);
  }

  @Test
  void wideRequests_amidAStreamOfNarrowOnes_areNeverStarved() {
    // three flows keeping two 8-seat requests each outstanding (50-500 ms), and narrow requests
    // (1-3 seats, 1-20 ms) of five flows arriving every millisecond, more than the 20 seats
    // hold: seats are lent to the narrow ones while a wide head waits, but never those kept for
    // it, so each wide request goes once what ran when it stopped has finished (lending every
    // free seat, the wide flows got 4 requests through in the 20 s instead of over 50)
    QueueSet qs = level(20, 16, 2, 1000);
    java.util.Random random = new java.util.Random(7);
    List<Double> wideWaits = new ArrayList<>();
    Runnable[][] wide = new Runnable[3][1];
    for (int f = 0; f < 3; f++) {
      int flow = f;
      wide[f][0] = () -> {
        long arrived = clock.nanoTime();
        long serve = 50 + random.nextInt(450);
        Ticket t = qs.start(request("wide" + flow, 8), 100 + flow);
        t.dispatched().thenRun(() -> {
          wideWaits.add((clock.nanoTime() - arrived) / 1e9);
          clock.schedule(Duration.ofMillis(serve), () -> {
            t.finish();
            wide[flow][0].run();
          });
        });
      };
      wide[f][0].run();
      wide[f][0].run();
    }
    Runnable[] narrow = new Runnable[1];
    narrow[0] = () -> {
      int flow = random.nextInt(5);
      long serve = 1 + random.nextInt(20);
      Ticket t = qs.start(request("narrow" + flow, 1 + random.nextInt(3)), 200 + flow);
      t.dispatched().thenRun(() -> clock.schedule(Duration.ofMillis(serve), t::finish));
      clock.schedule(Duration.ofMillis(1), narrow[0]);
    };
    narrow[0].run();
    for (int ms = 0; ms < 20_000; ms++) {
      clock.advance(Duration.ofMillis(1));
    }
    assertThat(wideWaits).hasSizeGreaterThan(50).allSatisfy(w -> assertThat(w).isLessThan(5.0));
  }

  @Test
  void aHeadWiderThanTheLimit_lendsNoSeats() {
    QueueSet qs = level(3, 8, 1, 50);
    Ticket small = qs.start(request("a", 1), 0);
    Ticket wide = qs.start(request("heavy", 10), 2);
    clock.advance(Duration.ofSeconds(1));
    Ticket light = qs.start(request("light", 1), 3);
    assertThat(light.dispatched()).isNotDone(); // else light requests could keep it from running alone
    small.finish();
    assertThat(wide.dispatched()).isCompleted();
    assertThat(light.dispatched()).isNotDone();
  }

  @Test
  void aLightFlow_beside_aFloodOfWideLists_isDispatchedAtOnce() {
    // global-default's shape (49 seats, 128 queues, hands of 6), a flood keeping 32 lists of 8
    // seats outstanding (60 ms each) and a light flow's one-seat GET every 16 ms (1 ms each)
    QueueSet qs = level(49, 128, 6, 50);
    List<Double> waits = new ArrayList<>();
    Runnable[] list = new Runnable[1];
    list[0] = () -> {
      Ticket t = qs.start(request("flood", 8), 0x1234_5678_9abcL);
      t.dispatched().thenRun(() -> clock.schedule(Duration.ofMillis(60), () -> {
        t.finish();
        list[0].run();
      }));
    };
    for (int i = 0; i < 32; i++) {
      list[0].run();
    }
    Runnable[] get = new Runnable[1];
    get[0] = () -> {
      long arrived = clock.nanoTime();
      Ticket t = qs.start(request("light", 1), 0x7777_1111_2222L);
      t.dispatched().thenRun(() -> {
        waits.add((clock.nanoTime() - arrived) / 1e6);
        clock.schedule(Duration.ofMillis(1), t::finish);
      });
      clock.schedule(Duration.ofMillis(16), get[0]);
    };
    get[0].run();
    for (int ms = 0; ms < 10_000; ms++) {
      clock.advance(Duration.ofMillis(1));
    }
    assertThat(qs.counts().waiting()).isGreaterThan(20); // the flood's backlog
    assertThat(waits).hasSizeGreaterThan(600).allSatisfy(w -> assertThat(w).isZero());
  }

  @Test
  void twoBackloggedFlows_shareTheSeatsByTurns() {
    QueueSet qs = level(1, 8, 1, 50);
    Ticket first = qs.start(request("x", 1), 0);
    List<Ticket> a = new ArrayList<>();
    List<Ticket> b = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      a.add(qs.start(request("a", 1), 2));
    }
    for (int i = 0; i < 4; i++) {
      b.add(qs.start(request("b", 1), 3));
    }
    first.finish();
    List<String> order = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      Ticket running = a.stream().filter(t -> t.dispatched().isDone()).findFirst()
          .or(() -> b.stream().filter(t -> t.dispatched().isDone()).findFirst()).orElseThrow();
      order.add(a.contains(running) ? "a" : "b");
      a.remove(running);
      b.remove(running);
      running.finish();
    }
    assertThat(String.join("", order)).isIn("abababab", "babababa");
  }

  @Test
  void aRequestWiderThanTheLimit_runsAlone() {
    QueueSet qs = level(3, 1, 1, 10);
    Ticket small = qs.start(request("a", 1), 0);
    Ticket wide = qs.start(request("a", 10), 0);
    assertThat(wide.dispatched()).isNotDone();
    small.finish();
    assertThat(wide.dispatched()).isCompleted();
    assertThat(qs.counts().seatsInUse()).isEqualTo(10);
  }

  @Test
  void exemptLevel_neverQueues() {
    QueueSet qs = new QueueSet(new QueueSet.Config(true, 0, 0, 0, 0), clock, Duration.ofSeconds(15), observer);
    for (int i = 0; i < 100; i++) {
      assertThat(qs.start(request("a", 1), 0).dispatched()).isCompleted();
    }
    assertThat(qs.counts().executing()).isEqualTo(100);
  }

  @Test
  void raisingTheLimit_dispatchesTheWaiting_andNewQueuesKeepThem() {
    QueueSet qs = level(1, 2, 1, 10);
    qs.start(request("a", 1), 0);
    Ticket w1 = qs.start(request("a", 1), 0);
    Ticket w2 = qs.start(request("b", 1), 1);
    qs.reconfigure(new QueueSet.Config(false, 2, 4, 2, 10));
    assertThat(w1.dispatched()).isCompleted();
    assertThat(w2.dispatched()).isNotDone();
    assertThat(qs.counts().waiting()).isEqualTo(1);
    qs.reconfigure(new QueueSet.Config(false, 2, 0, 0, 0)); // now Reject: the waiting one is refused
    assertThat(rejection(w2)).isEqualTo("concurrency-limit");
  }

  @Test
  void aFlowWhoseRequestsHoldTheirSeatsLonger_isChargedForTheTime() {
    // kube charges a request its seats times how long it held them: two backlogged flows on one
    // seat, one's requests taking 100 ms and the other's 10 ms, share the seat's time, not its turns
    QueueSet qs = level(1, 8, 1, 50);
    List<Ticket> slow = new ArrayList<>();
    List<Ticket> fast = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      slow.add(qs.start(request("slow", 1), 2));
      fast.add(qs.start(request("fast", 1), 3));
    }
    StringBuilder order = new StringBuilder();
    for (int i = 0; i < 22; i++) {
      Ticket running = slow.stream().filter(t -> t.dispatched().isDone()).findFirst()
          .or(() -> fast.stream().filter(t -> t.dispatched().isDone()).findFirst()).orElseThrow();
      boolean isSlow = slow.remove(running);
      fast.remove(running);
      order.append(isSlow ? 's' : 'f');
      clock.advance(Duration.ofMillis(isSlow ? 100 : 10));
      running.finish();
    }
    // by turns it would be sfsfsf...: 11 slow ones in 22
    assertThat(order.chars().filter(ch -> ch == 's').count()).as(order.toString()).isBetween(1L, 3L);
  }

  @Test
  void aFlow_isChargedForTheTimeItsExecutingRequestsHaveHeldTheirSeatsSoFar() {
    QueueSet qs = level(16, 8, 1, 50); // hand of 1: flow hash h goes to queue h % 8
    Ticket first1 = qs.start(request("h1", 8), 1);
    qs.start(request("h2", 8), 2); // runs for the whole test
    Ticket next1 = qs.start(request("h1", 8), 1);
    Ticket next2 = qs.start(request("h2", 8), 2);
    clock.advance(Duration.ofSeconds(1));
    Ticket light = qs.start(request("light", 1), 3);
    first1.finish(); // eight seats free after a second of both flows holding eight
    // h2 has held its eight seats for a second too, not only h1: the light flow goes first
    assertThat(light.dispatched()).isCompleted();
    assertThat(next1.dispatched()).isNotDone();
    assertThat(next2.dispatched()).isNotDone();
  }

  @Test
  void theVirtualClock_advancesBySeatsInUseSharedAmongActiveQueues() {
    QueueSet qs = level(4, 8, 1, 50);
    assertThat(qs.virtualTime()).isZero();
    Ticket a = qs.start(request("a", 1), 2);
    Ticket b = qs.start(request("b", 1), 3);
    clock.advance(Duration.ofSeconds(1));
    // two seats asked for, two active queues: one seat-second each
    assertThat(qs.virtualTime()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
    a.finish();
    b.finish();
    clock.advance(Duration.ofSeconds(1));
    assertThat(qs.virtualTime()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9)); // idle: R stands still
  }
}
