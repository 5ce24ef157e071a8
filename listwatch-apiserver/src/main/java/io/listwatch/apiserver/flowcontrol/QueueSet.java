package io.listwatch.apiserver.flowcontrol;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.api.clock.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The queues and seats of one priority level (kube's {@code fairqueuing/queueset}).
 *
 * <h2>Seats</h2>
 * The level has {@code concurrencyLimit} seats. A request of width {@code seats} executes when
 * the seats in use plus its own fit the limit; one wider than the limit executes alone, when
 * nothing else does (so it is not starved). It holds its seats until its
 * {@link Ticket#finish()}. An exempt
 * level never queues: every request executes at once, and is only counted.
 *
 * <h2>Queues and shuffle sharding</h2>
 * A level whose limit response is {@code Queue} has {@code queues} queues; every request of
 * such a level, even one that executes at once, passes through a queue: its flow (its hash of
 * FlowSchema and distinguisher) is dealt a hand of {@code handSize} of them ({@link Dealer}) and
 * the request joins the one of its hand with the fewest seats waiting (ties go round the hand).
 * A request that cannot execute at once and finds its queue holding {@code queueLengthLimit}
 * requests is refused ({@code queue-full}; kube refuses only while every seat is in use, so
 * there a flood of wide requests that leaves a seat or two free is never refused, only timed
 * out); a request waiting longer than the queue wait limit leaves
 * with {@code time-out}. A level whose limit response is {@code Reject} has no queues: a request
 * that does not fit is refused at once ({@code concurrency-limit}).
 *
 * <h2>Fair queuing</h2>
 * Which waiting request goes next is kube's fair queuing for server requests. A virtual clock
 * {@code R} counts the seat-seconds each active queue (one with requests waiting or executing)
 * has been given: it advances at {@code min(seats asked for, limit) / active queues} per real
 * second, where the seats asked for are those executing and waiting in the queues. Each queue
 * keeps the {@code R} its next request starts at; a queue that was idle starts at the current
 * {@code R}. A request is charged its seats times an estimated service time (3 ms) when it
 * starts, then its seats times the time it has held them as the clock advances, and the
 * estimate is taken back when it finishes: in the end it has paid its seats times its service
 * time, as in kube, so a flow of long lists pays for how long it held its seats. kube charges
 * the time held only at the finish, so until then a flow of long requests counts as served
 * 3 ms of each, and its queue's next request beats a flow that arrived since for as long as
 * they run (seconds, for a list on a busy core); here it pays as it goes. The next request is
 * the head of the queue whose head would finish first in {@code R} (ties round-robin); a queue
 * is never allowed to start before its head arrived (kube's anti-windup bound).
 *
 * <h2>A head that does not fit</h2>
 * When the chosen head does not fit, kube dispatches nothing until enough seats free up, so a
 * wide request is not starved by narrow ones; the seats free meanwhile stay idle. Here that head
 * keeps every seat freed from then on, as in kube, but the seats that were already free when it
 * stopped dispatching (at most the limit less its own width) may go to narrower heads of other
 * queues, earliest virtual finish first (backfilling): a one-seat GET does not wait behind a
 * flow of 8-seat lists for the seat those lists leave over. The head is then dispatched at the
 * first finish that frees its seats, unless a backfilled request still holds some, and at the
 * latest once every request that was executing when it stopped has finished: the seats lent
 * never exceed what it leaves over of the limit. A head wider than the limit (which runs alone)
 * lends none. When another head that does not fit comes first meanwhile, its own wait starts:
 * the seats free then may be lent, no more than it leaves over, and what is executing then,
 * what was lent before included, is what it waits for.
 *
 * <p>Not ported: kube's "additional latency" of a request's final seats (a mutating request's
 * width for the watch notifications it causes) and its epoch advance of {@code R} (here a double
 * of seat-seconds, precise to microseconds for years of uptime); on a change of queues or hand
 * size the waiting requests are dealt anew and the virtual clock of each new queue starts at
 * the current {@code R}.
 *
 * <p>Thread-safe: all state is guarded by this object's monitor; futures are completed and the
 * observer told after it is released.
 */
final class QueueSet {

  /** kube's estimated service time G: what a request is charged, per seat, when it starts. */
  static final double ESTIMATED_SERVICE_SECONDS = 0.003;

  /** Limits of a level: {@code queues == 0} means the limit response Reject. */
  record Config(boolean exempt, int concurrencyLimit, int queues, int handSize, int queueLengthLimit) {

    /** The same limits with {@code seats} to execute at once (a level's current limit, as borrowing sets it). */
    Config withLimit(int seats) {
      return new Config(exempt, seats, queues, handSize, queueLengthLimit);
    }
  }

  private final Clock clock;
  private final Duration waitLimit;
  private final FlowControlObserver observer;
  @GuardedBy("this")
  private Config config;
  @GuardedBy("this")
  private Queue[] queues;
  @GuardedBy("this")
  private Dealer dealer;
  @GuardedBy("this")
  private int seatsInUse;
  @GuardedBy("this")
  private int executing;
  @GuardedBy("this")
  private int waiting;
  /** The seats the waiting requests ask for: the sum of the queues' {@code seatsWaiting}. */
  @GuardedBy("this")
  private int seatsWaiting;
  /** The virtual clock R, in seat-seconds given to each active queue. */
  @GuardedBy("this")
  private double virtualNow;
  /** The real time R was last brought up to date at. */
  @GuardedBy("this")
  private long lastSyncNanos;
  /** The queue dispatched from last: the search for the next starts after it. */
  @GuardedBy("this")
  private int robin;
  /** Requests ever enqueued: where the search of a hand starts, turning. */
  @GuardedBy("this")
  private long enqueues;
  /** The head fair queuing chose last that did not fit, or null. */
  @GuardedBy("this")
  private Request reservedFor;
  /** Counts the waits of {@link #reservedFor}: a request backfilled during one carries its number. */
  @GuardedBy("this")
  private long reservation = 1;
  /** The seats narrower heads may take while {@link #reservedFor} waits, and how many of them they hold. */
  @GuardedBy("this")
  private int backfillSeats;
  @GuardedBy("this")
  private int backfillInUse;
  /** Per FlowSchema name: requests waiting, requests executing, seats executing. */
  @GuardedBy("this")
  private final Map<String, int[]> bySchema = new HashMap<>();
  /** Seats executing plus seats waiting, over time, for borrowing. */
  @GuardedBy("this")
  private final SeatDemand demand;

  QueueSet(Config config, Clock clock, Duration waitLimit, FlowControlObserver observer) {
    this.clock = clock;
    this.waitLimit = waitLimit;
    this.observer = observer;
    synchronized (this) {
      this.config = config;
      this.queues = newQueues(config);
      this.dealer = config.queues() == 0 ? null : new Dealer(config.queues(), config.handSize());
      this.lastSyncNanos = clock.nanoTime();
      this.demand = new SeatDemand(lastSyncNanos);
    }
  }

  /** The seat demand since the last call (kube's seat demand integrator, reset each borrowing period). */
  synchronized SeatDemand.Period resetDemand() {
    return demand.reset(clock.nanoTime());
  }

  /** Notes the seat demand as it is now; called after each change of the seats executing or waiting. */
  @GuardedBy("this")
  private void noteDemand() {
    demand.set(seatsInUse + seatsWaiting, clock.nanoTime());
  }

  /** Counts of one FlowSchema's requests in this level. */
  record SchemaCounts(String flowSchema, int waiting, int executing, int seats) {
  }

  /** Counts of the level, for metrics. */
  record Counts(int concurrencyLimit, int waiting, int executing, int seatsInUse, List<SchemaCounts> bySchema) {
  }

  synchronized Counts counts() {
    List<SchemaCounts> schemas = new ArrayList<>();
    bySchema.forEach((fs, c) -> schemas.add(new SchemaCounts(fs, c[0], c[1], c[2])));
    schemas.sort(Comparator.comparing(SchemaCounts::flowSchema));
    return new Counts(config.concurrencyLimit(), waiting, executing, seatsInUse, schemas);
  }

  /** The virtual clock R now, in seat-seconds (for tests). */
  synchronized double virtualTime() {
    syncTime();
    return virtualNow;
  }

  /**
   * Takes new limits. Waiting requests stay waiting, dealt to the new queues (a level that
   * stops queuing refuses them, {@code concurrency-limit}); a raised limit dispatches at once.
   */
  void reconfigure(Config next) {
    List<Runnable> after = new ArrayList<>();
    synchronized (this) {
      syncTime();
      Config previous = config;
      config = next;
      endReservation();
      if (previous.queues() != next.queues() || previous.handSize() != next.handSize()
          || previous.exempt() != next.exempt()) {
        List<Request> waitingNow = new ArrayList<>();
        for (Queue q : queues) {
          waitingNow.addAll(q.requests);
        }
        waitingNow.sort(Comparator.comparingLong(r -> r.arrivedNanos));
        queues = newQueues(next);
        seatsWaiting = 0; // the waiting requests are queued again below, or leave
        dealer = next.queues() == 0 || next.exempt() ? null : new Dealer(next.queues(), next.handSize());
        for (Request r : waitingNow) {
          r.queue = null;
          waiting--;
          schema(r)[0]--;
          if (next.exempt()) {
            cancelTimer(r);
            execute(r, after);
          } else if (dealer == null) {
            cancelTimer(r);
            reject(r, "concurrency-limit", after);
          } else {
            enqueue(r, chooseQueue(r.flowHash));
          }
        }
      }
      dispatchAsMuchAsPossible(after);
      noteDemand();
    }
    after.forEach(Runnable::run);
  }

  private static Queue[] newQueues(Config c) {
    Queue[] qs = new Queue[c.exempt() ? 0 : c.queues()];
    for (int i = 0; i < qs.length; i++) {
      qs[i] = new Queue();
    }
    return qs;
  }

  /** A new request of {@code c}'s flow ({@code flowHash}): executes, waits or is refused. */
  Ticket start(Classification c, long flowHash) {
    Request r = new Request(c, flowHash, clock.nanoTime());
    List<Runnable> after = new ArrayList<>();
    synchronized (this) {
      syncTime();
      if (config.exempt()) {
        execute(r, after);
      } else if (dealer == null) {
        if (fits(c.seats())) {
          execute(r, after);
        } else {
          reject(r, "concurrency-limit", after);
        }
      } else {
        Queue q = chooseQueue(flowHash);
        if (q.requests.size() >= config.queueLengthLimit() && !(waiting == 0 && fits(c.seats()))) {
          reject(r, "queue-full", after);
        } else {
          enqueue(r, q);
          dispatchAsMuchAsPossible(after);
          if (r.state == State.WAITING) {
            r.timer = clock.schedule(waitLimit, () -> leaveQueue(r, "time-out"));
          }
        }
      }
      noteDemand();
    }
    after.forEach(Runnable::run);
    return r;
  }

  /**
   * Brings the virtual clock up to now, on the assumption that the queues have been as they
   * are since it was last brought up to date, and charges each queue the seat-seconds its
   * executing requests held meanwhile; so called before any change to them.
   */
  @GuardedBy("this")
  private void syncTime() {
    long now = clock.nanoTime();
    long elapsed = now - lastSyncNanos;
    lastSyncNanos = now;
    if (elapsed <= 0) {
      return;
    }
    int active = 0;
    long seatsAsked = 0;
    double seconds = elapsed / 1e9;
    for (Queue q : queues) {
      if (q.isActive()) {
        active++;
        seatsAsked += q.seatsInUse + q.seatsWaiting;
        q.nextDispatch += q.seatsInUse * seconds;
      }
    }
    if (active > 0) {
      virtualNow += Math.min(seatsAsked, config.concurrencyLimit()) / (double) active * (elapsed / 1e9);
    }
  }

  /** Whether {@code seats} more can execute now: a request wider than the limit only alone. */
  @GuardedBy("this")
  private boolean fits(int seats) {
    if (seats > config.concurrencyLimit()) {
      return executing == 0;
    }
    return seatsInUse + seats <= config.concurrencyLimit();
  }

  /** The queue of {@code flowHash}'s hand with the fewest seats waiting, the search starting round the hand. */
  @GuardedBy("this")
  private Queue chooseQueue(long flowHash) {
    int[] hand = dealer.deal(flowHash);
    int offset = (int) (enqueues++ % hand.length);
    Queue best = null;
    for (int i = 0; i < hand.length; i++) {
      Queue q = queues[hand[(offset + i) % hand.length]];
      if (best == null || q.seatsWaiting < best.seatsWaiting) {
        best = q;
      }
    }
    return best;
  }

  @GuardedBy("this")
  private void enqueue(Request r, Queue q) {
    if (!q.isActive()) {
      q.nextDispatch = virtualNow;
    }
    r.arrivedVirtual = virtualNow;
    r.queue = q;
    q.requests.addLast(r);
    q.seatsWaiting += r.seats();
    seatsWaiting += r.seats();
    waiting++;
    schema(r)[0]++;
    bound(q);
  }

  /** kube's anti-windup: a queue's next request never starts, in R, before it arrived. */
  @GuardedBy("this")
  private void bound(Queue q) {
    Request head = q.requests.peekFirst();
    if (head != null && q.nextDispatch < head.arrivedVirtual) {
      q.nextDispatch = head.arrivedVirtual;
    }
  }

  /** Dispatches waiting requests while seats are free and the head chosen by fair queuing fits. */
  @GuardedBy("this")
  private void dispatchAsMuchAsPossible(List<Runnable> after) {
    while (waiting > 0 && seatsInUse < config.concurrencyLimit() && dispatchOne(after)) {
      // each turn dispatched one
    }
  }

  @GuardedBy("this")
  private boolean dispatchOne(List<Runnable> after) {
    Queue best = null;
    int bestIndex = -1;
    double bestFinish = Double.POSITIVE_INFINITY;
    for (int i = 1; i <= queues.length; i++) {
      int index = (robin + i) % queues.length;
      Queue q = queues[index];
      Request head = q.requests.peekFirst();
      if (head != null && q.nextDispatch + head.work() < bestFinish) {
        best = q;
        bestIndex = index;
        bestFinish = q.nextDispatch + head.work();
      }
    }
    if (best == null) {
      return false;
    }
    Request head = best.requests.peekFirst();
    if (fits(head.seats())) {
      if (head == reservedFor) {
        endReservation();
      }
      robin = bestIndex;
      dispatch(best, head, after);
      return true;
    }
    if (head != reservedFor) {
      endReservation();
      reservedFor = head;
      int limit = config.concurrencyLimit();
      backfillSeats = head.seats() > limit ? 0 : Math.min(limit - seatsInUse, limit - head.seats());
    }
    Queue fill = null;
    double fillFinish = Double.POSITIVE_INFINITY;
    for (Queue q : queues) {
      Request h = q.requests.peekFirst();
      if (h != null && q != best && h.seats() <= backfillSeats - backfillInUse && fits(h.seats())
          && q.nextDispatch + h.work() < fillFinish) {
        fill = q;
        fillFinish = q.nextDispatch + h.work();
      }
    }
    if (fill == null) {
      return false;
    }
    Request filler = fill.requests.peekFirst();
    filler.backfilled = reservation;
    backfillInUse += filler.seats();
    dispatch(fill, filler, after);
    return true;
  }

  /** Ends the wait of the head that did not fit: its seats are no longer kept, nor any lent. */
  @GuardedBy("this")
  private void endReservation() {
    reservedFor = null;
    reservation++;
    backfillSeats = 0;
    backfillInUse = 0;
  }

  @GuardedBy("this")
  private void dispatch(Queue q, Request head, List<Runnable> after) {
    q.requests.pollFirst();
    q.seatsWaiting -= head.seats();
    seatsWaiting -= head.seats();
    waiting--;
    schema(head)[0]--;
    cancelTimer(head);
    execute(head, after);
    q.nextDispatch += head.work();
    bound(q);
  }

  @GuardedBy("this")
  private void cancelTimer(Request r) {
    if (r.timer != null) {
      r.timer.cancel();
      r.timer = null;
    }
  }

  @GuardedBy("this")
  private void execute(Request r, List<Runnable> after) {
    r.state = State.EXECUTING;
    r.startedNanos = clock.nanoTime();
    seatsInUse += r.seats();
    executing++;
    if (r.queue != null) {
      r.queue.seatsInUse += r.seats();
      r.queue.executing++;
    }
    int[] s = schema(r);
    s[1]++;
    s[2] += r.seats();
    double waited = (r.startedNanos - r.arrivedNanos) / 1e9;
    after.add(() -> {
      observer.dispatched(r.classification, waited);
      r.dispatched.complete(null);
    });
  }

  @GuardedBy("this")
  private void reject(Request r, String reason, List<Runnable> after) {
    r.state = State.DONE;
    double waited = (clock.nanoTime() - r.arrivedNanos) / 1e9;
    after.add(() -> {
      observer.rejected(r.classification, reason, waited);
      r.dispatched.completeExceptionally(new Rejection(r.classification, reason));
    });
  }

  @GuardedBy("this")
  private int[] schema(Request r) {
    return bySchema.computeIfAbsent(r.classification.flowSchema(), k -> new int[3]);
  }

  /** Takes a waiting request out of its queue and refuses it; false if it was not waiting. */
  private boolean leaveQueue(Request r, String reason) {
    List<Runnable> after = new ArrayList<>();
    synchronized (this) {
      if (r.state != State.WAITING || r.queue == null) {
        return false;
      }
      syncTime();
      Queue q = r.queue;
      if (r == reservedFor) {
        endReservation();
      }
      q.requests.remove(r);
      q.seatsWaiting -= r.seats();
      seatsWaiting -= r.seats();
      r.queue = null;
      waiting--;
      schema(r)[0]--;
      cancelTimer(r);
      reject(r, reason, after);
      bound(q);
      dispatchAsMuchAsPossible(after); // the head may have changed
      noteDemand();
    }
    after.forEach(Runnable::run);
    return true;
  }

  private void finish(Request r) {
    List<Runnable> after = new ArrayList<>();
    synchronized (this) {
      if (r.state != State.EXECUTING) {
        return;
      }
      syncTime();
      r.state = State.DONE;
      seatsInUse -= r.seats();
      executing--;
      if (r.backfilled == reservation) {
        backfillInUse -= r.seats();
      }
      Queue q = r.queue;
      if (q != null) {
        q.seatsInUse -= r.seats();
        q.executing--;
        // charged G per seat when it started and then the time it held its seats: take G back
        q.nextDispatch -= r.work();
        bound(q);
      }
      int[] s = schema(r);
      s[1]--;
      s[2] -= r.seats();
      dispatchAsMuchAsPossible(after);
      noteDemand();
    }
    after.forEach(Runnable::run);
  }

  private enum State { WAITING, EXECUTING, DONE }

  /** One queue; guarded by the QueueSet's monitor. */
  private static final class Queue {
    final ArrayDeque<Request> requests = new ArrayDeque<>();
    /** The virtual time R the next request of this queue starts at. */
    double nextDispatch;
    int seatsWaiting;
    /** Requests and seats executing that came through this queue. */
    int executing;
    int seatsInUse;

    boolean isActive() {
      return !requests.isEmpty() || executing > 0;
    }
  }

  /** A request in this level; its mutable fields are guarded by the QueueSet's monitor. */
  private final class Request implements Ticket {
    final Classification classification;
    final long flowHash;
    final long arrivedNanos;
    final CompletableFuture<Void> dispatched = new CompletableFuture<>();
    State state = State.WAITING;
    Queue queue;
    Clock.Cancellable timer;
    double arrivedVirtual;
    long startedNanos;
    /** The reservation this request was backfilled in, or 0. */
    long backfilled;

    Request(Classification classification, long flowHash, long arrivedNanos) {
      this.classification = classification;
      this.flowHash = flowHash;
      this.arrivedNanos = arrivedNanos;
    }

    int seats() {
      return classification.seats();
    }

    /** What the request is charged when it starts: its seats times G, in seat-seconds. */
    double work() {
      return seats() * ESTIMATED_SERVICE_SECONDS;
    }

    @Override
    public Optional<Classification> classification() {
      return Optional.of(classification);
    }

    @Override
    public CompletableFuture<Void> dispatched() {
      return dispatched;
    }

    @Override
    public void finish() {
      QueueSet.this.finish(this);
    }

    @Override
    public void cancel() {
      if (!leaveQueue(this, "cancelled")) {
        finish();
      }
    }
  }
}
