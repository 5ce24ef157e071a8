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
 * the seats in use plus its own fit the limit, or when nothing executes (so a request wider
 * than the limit is not starved); it holds them until its {@link Ticket#finish()}. An exempt
 * level never queues: every request executes at once, and is only counted.
 *
 * <h2>Queues and shuffle sharding</h2>
 * A level whose limit response is {@code Queue} has {@code queues} queues; a request's flow
 * (its hash of FlowSchema and distinguisher) is dealt a hand of {@code handSize} of them
 * ({@link Dealer}) and the request joins the one of its hand with the fewest seats waiting and
 * executing. A queue holding {@code queueLengthLimit} requests refuses more ({@code queue-full});
 * a request waiting longer than the queue wait limit leaves with {@code time-out}. A level
 * whose limit response is {@code Reject} has no queues: a request that does not fit is refused
 * at once ({@code concurrency-limit}).
 *
 * <h2>Fair queuing</h2>
 * Which waiting request goes next is fair queuing by virtual finish time, as kube's, simplified
 * (self-clocked): each queue keeps the virtual time its next request starts at; the next
 * request is the head of the queue whose head would finish first (start + its seats); the
 * virtual clock is the start of the request dispatched last, and a queue that was empty starts
 * no earlier than it. A request's work counts as its seats (kube also charges each request for
 * its actual execution time; here every request of the same width costs the same). When the
 * chosen head does not fit, nothing is dispatched until seats free up, so wide requests are not
 * starved by narrow ones, as in kube.
 *
 * <p>Thread-safe: all state is guarded by this object's monitor; futures are completed and the
 * observer told after it is released.
 */
final class QueueSet {

  /** Limits of a level: {@code queues == 0} means the limit response Reject. */
  record Config(boolean exempt, int concurrencyLimit, int queues, int handSize, int queueLengthLimit) {
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
  /** The virtual start time of the request dispatched last. */
  @GuardedBy("this")
  private long virtualNow;
  /** Where the search for the next queue starts, turning, so ties are broken round-robin. */
  @GuardedBy("this")
  private int robin;
  /** Per FlowSchema name: requests waiting, requests executing, seats executing. */
  @GuardedBy("this")
  private final Map<String, int[]> bySchema = new HashMap<>();

  QueueSet(Config config, Clock clock, Duration waitLimit, FlowControlObserver observer) {
    this.clock = clock;
    this.waitLimit = waitLimit;
    this.observer = observer;
    synchronized (this) {
      this.config = config;
      this.queues = newQueues(config);
      this.dealer = config.queues() == 0 ? null : new Dealer(config.queues(), config.handSize());
    }
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

  /**
   * Takes new limits. Waiting requests stay waiting, dealt to the new queues (a level that
   * stops queuing refuses them, {@code concurrency-limit}); a raised limit dispatches at once.
   */
  void reconfigure(Config next) {
    List<Runnable> after = new ArrayList<>();
    synchronized (this) {
      Config previous = config;
      config = next;
      if (previous.queues() != next.queues() || previous.handSize() != next.handSize()) {
        List<Request> waitingNow = new ArrayList<>();
        for (Queue q : queues) {
          waitingNow.addAll(q.requests);
        }
        waitingNow.sort(Comparator.comparingLong(r -> r.arrivedNanos));
        queues = newQueues(next);
        dealer = next.queues() == 0 ? null : new Dealer(next.queues(), next.handSize());
        for (Request r : waitingNow) {
          if (dealer == null || next.exempt()) {
            r.queue = null;
            waiting--;
            schema(r)[0]--;
            if (next.exempt()) {
              execute(r, after);
            } else {
              reject(r, "concurrency-limit", after);
            }
          } else {
            Queue q = shortestOfHand(r.flowHash);
            r.queue = q;
            q.add(r, virtualNow);
          }
        }
      }
      dispatch(after);
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
      if (config.exempt() || (waiting == 0 && fits(c.seats()))) {
        execute(r, after);
      } else if (dealer == null) {
        reject(r, "concurrency-limit", after);
      } else {
        Queue q = shortestOfHand(flowHash);
        if (q.requests.size() >= config.queueLengthLimit()) {
          reject(r, "queue-full", after);
        } else {
          r.queue = q;
          q.add(r, virtualNow);
          waiting++;
          schema(r)[0]++;
          r.timer = clock.schedule(waitLimit, () -> timeOut(r));
          dispatch(after);
        }
      }
    }
    after.forEach(Runnable::run);
    return r;
  }

  @GuardedBy("this")
  private boolean fits(int seats) {
    return seatsInUse + seats <= config.concurrencyLimit() || executing == 0;
  }

  @GuardedBy("this")
  private Queue shortestOfHand(long flowHash) {
    Queue best = null;
    for (int card : dealer.deal(flowHash)) {
      Queue q = queues[card];
      if (best == null || q.seatsWaiting + q.seatsInUse < best.seatsWaiting + best.seatsInUse) {
        best = q;
      }
    }
    return best;
  }

  /** Dispatches waiting requests while the head chosen by fair queuing fits. */
  @GuardedBy("this")
  private void dispatch(List<Runnable> after) {
    while (waiting > 0) {
      Queue best = null;
      long bestFinish = Long.MAX_VALUE;
      for (int i = 0; i < queues.length; i++) {
        Queue q = queues[(robin + i) % queues.length];
        if (!q.requests.isEmpty()) {
          long finish = q.nextStart + q.requests.peekFirst().seats();
          if (finish < bestFinish) {
            best = q;
            bestFinish = finish;
          }
        }
      }
      Request head = best.requests.peekFirst();
      if (!fits(head.seats())) {
        return;
      }
      robin = (robin + 1) % queues.length;
      best.requests.pollFirst();
      best.seatsWaiting -= head.seats();
      virtualNow = Math.max(virtualNow, best.nextStart);
      best.nextStart += head.seats();
      waiting--;
      schema(head)[0]--;
      if (head.timer != null) {
        head.timer.cancel();
      }
      execute(head, after);
    }
  }

  @GuardedBy("this")
  private void execute(Request r, List<Runnable> after) {
    r.state = State.EXECUTING;
    seatsInUse += r.seats();
    executing++;
    if (r.queue != null) {
      r.queue.seatsInUse += r.seats();
    }
    int[] s = schema(r);
    s[1]++;
    s[2] += r.seats();
    double waited = (clock.nanoTime() - r.arrivedNanos) / 1e9;
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

  private void timeOut(Request r) {
    leaveQueue(r, "time-out");
  }

  /** Takes a waiting request out of its queue and refuses it; false if it was not waiting. */
  private boolean leaveQueue(Request r, String reason) {
    List<Runnable> after = new ArrayList<>();
    synchronized (this) {
      if (r.state != State.WAITING || r.queue == null) {
        return false;
      }
      r.queue.requests.remove(r);
      r.queue.seatsWaiting -= r.seats();
      r.queue = null;
      waiting--;
      schema(r)[0]--;
      reject(r, reason, after);
      dispatch(after); // the head may have changed
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
      r.state = State.DONE;
      seatsInUse -= r.seats();
      executing--;
      if (r.queue != null) {
        r.queue.seatsInUse -= r.seats();
      }
      int[] s = schema(r);
      s[1]--;
      s[2] -= r.seats();
      dispatch(after);
    }
    after.forEach(Runnable::run);
  }

  private enum State { WAITING, EXECUTING, DONE }

  /** One queue; guarded by the QueueSet's monitor. */
  private static final class Queue {
    final ArrayDeque<Request> requests = new ArrayDeque<>();
    /** The virtual time the next request of this queue starts at. */
    long nextStart;
    int seatsWaiting;
    /** Seats of executing requests that came through this queue. */
    int seatsInUse;

    void add(Request r, long virtualNow) {
      if (requests.isEmpty()) {
        nextStart = Math.max(nextStart, virtualNow);
      }
      requests.addLast(r);
      seatsWaiting += r.seats();
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

    Request(Classification classification, long flowHash, long arrivedNanos) {
      this.classification = classification;
      this.flowHash = flowHash;
      this.arrivedNanos = arrivedNanos;
    }

    int seats() {
      return classification.seats();
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
