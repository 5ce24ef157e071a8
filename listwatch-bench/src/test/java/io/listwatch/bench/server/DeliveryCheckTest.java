package io.listwatch.bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeliveryCheckTest {

  /**
   * Five writes, acknowledged with resourceVersions that order them 1, 0, 2, 4, 3 (writers
   * race: a later sequence number may commit first).
   */
  private static AckedWrites acked() {
    AckedWrites a = new AckedWrites();
    a.add(0, 102);
    a.add(1, 101);
    a.add(2, 103);
    a.add(3, 105);
    a.add(4, 104);
    return a;
  }

  private static SeenWrites watch(int... seqs) {
    SeenWrites w = new SeenWrites();
    for (int seq : seqs) {
      w.saw(seq);
    }
    return w;
  }

  @Test
  void passes_whenEveryWatchGotEveryWrite_once_inResourceVersionOrder() {
    DeliveryCheck.Result r = DeliveryCheck.check(acked(), List.of(watch(1, 0, 2, 4, 3), watch(1, 0, 2, 4, 3)));

    assertThat(r.passed()).isTrue();
    assertThat(r.watchers()).isEqualTo(2);
    assertThat(r.acknowledged()).isEqualTo(5);
    assertThat(r.complete()).isEqualTo(2);
    assertThat(r.inOrder()).isEqualTo(2);
    assertThat(r.duplicates()).isZero();
    assertThat(r.firstProblem()).isNull();
  }

  @Test
  void fails_whenOneWatchMissedOneWrite_namingTheWatchAndTheWrite() {
    DeliveryCheck.Result r = DeliveryCheck.check(acked(), List.of(watch(1, 0, 2, 4, 3), watch(1, 0, 4, 3)));

    assertThat(r.passed()).isFalse();
    assertThat(r.complete()).isEqualTo(1);
    assertThat(r.inOrder()).as("what it got came in order").isEqualTo(2);
    assertThat(r.failed()).isEqualTo(1);
    assertThat(r.firstProblem()).isEqualTo("watch 1 missed 1 of 5 writes (first: write 2)");
  }

  @Test
  void fails_onADuplicateEvent() {
    DeliveryCheck.Result r = DeliveryCheck.check(acked(), List.of(watch(1, 0, 2, 2, 4, 3)));

    assertThat(r.passed()).isFalse();
    assertThat(r.complete()).isEqualTo(1);
    assertThat(r.duplicates()).isEqualTo(1);
    assertThat(r.firstProblem()).isEqualTo("watch 0 received 1 events twice (first: write 2)");
  }

  @Test
  void fails_whenAWatchGotEveryWrite_butOutOfResourceVersionOrder() {
    // in sequence-number order, which is not the order the server committed them in
    DeliveryCheck.Result r = DeliveryCheck.check(acked(), List.of(watch(1, 0, 2, 4, 3), watch(0, 1, 2, 3, 4)));

    assertThat(r.passed()).isFalse();
    assertThat(r.complete()).isEqualTo(2);
    assertThat(r.inOrder()).isEqualTo(1);
    assertThat(r.firstProblem()).isEqualTo("watch 1 received its events out of resourceVersion order");
  }

  @Test
  void fails_whenAWatchGotAWriteNobodySent() {
    DeliveryCheck.Result r = DeliveryCheck.check(acked(), List.of(watch(1, 0, 2, 4, 3, 5)));

    assertThat(r.passed()).isFalse();
    assertThat(r.firstProblem()).isEqualTo("watch 0 received 1 writes nobody sent");
  }

  @Test
  void passes_aWatchTheServerEnded_whenItHoldsEveryWriteUpToItsLast() {
    SeenWrites ended = watch(1, 0, 2); // the first three in resourceVersion order
    ended.endedByServer();

    DeliveryCheck.Result r = DeliveryCheck.check(acked(), List.of(watch(1, 0, 2, 4, 3), ended));

    assertThat(r.passed()).isTrue();
    assertThat(r.complete()).isEqualTo(1);
    assertThat(r.endedGapless()).isEqualTo(1);
    assertThat(r.inOrder()).isEqualTo(2);
  }

  @Test
  void fails_aWatchTheServerEnded_whenItSkippedAWriteBeforeItsLast() {
    SeenWrites ended = watch(1, 2); // write 0 comes between them
    ended.endedByServer();

    DeliveryCheck.Result r = DeliveryCheck.check(acked(), List.of(ended));

    assertThat(r.passed()).isFalse();
    assertThat(r.endedGapless()).isZero();
    assertThat(r.firstProblem()).isEqualTo("watch 0 (ended by the server) has a gap: it missed 3 of 5 writes "
        + "(first: write 0)");
  }

  @Test
  void aWriteWithoutAnswer_mayArriveAnywhere_butNotTwice() {
    AckedWrites acked = acked();
    acked.unanswered(5); // its connection broke: applied or not, nobody knows where

    DeliveryCheck.Result r = DeliveryCheck.check(acked,
        List.of(watch(1, 0, 5, 2, 4, 3), watch(1, 0, 2, 4, 3), watch(1, 0, 2, 4, 3, 5, 5)));

    assertThat(r.unanswered()).isEqualTo(1);
    assertThat(r.unjudged()).as("the two that got it").isEqualTo(2);
    assertThat(r.failed()).as("only the duplicate fails").isEqualTo(1);
    assertThat(r.firstProblem()).isEqualTo("watch 2 received 1 events twice (first: write 5)");
  }

  @Test
  void aStreamTheServerEnds_isMarkedEndedByTheServer_butNotOneTheBenchmarkCloses() {
    WatchTally tally = new WatchTally(Pods.MARKER, 0);
    ChunkedWatchResponse droppedByServer = streaming(tally, 1, 0);
    ChunkedWatchResponse closedByUs = streaming(tally, 1, 0);

    droppedByServer.connectionClosed(null);
    tally.closing();
    closedByUs.connectionClosed(null);

    assertThat(tally.watches()).extracting(SeenWrites::wasEndedByServer).containsExactly(true, false);
    DeliveryCheck.Result r = DeliveryCheck.check(acked(), tally.watches());
    assertThat(r.endedGapless()).isEqualTo(1);
    assertThat(r.firstProblem()).isEqualTo("watch 1 missed 3 of 5 writes (first: write 2)");
  }

  @Test
  void theTally_recordsEachWatchsWrites_fromTheSequenceNumberAfterTheSendTime() {
    WatchTally tally = new WatchTally(Pods.MARKER, 0);
    streaming(tally, 1, 0, 2, 4, 3);
    streaming(tally, 1, 0, 4, 3);

    DeliveryCheck.Result r = DeliveryCheck.check(acked(), tally.watches());

    assertThat(tally.unparsed()).isZero();
    assertThat(r.watchers()).isEqualTo(2);
    assertThat(r.complete()).isEqualTo(1);
    assertThat(r.inOrder()).isEqualTo(2);
    assertThat(r.firstProblem()).isEqualTo("watch 1 missed 1 of 5 writes (first: write 2)");
  }

  @Test
  void resourceVersionOf_readsTheFirstResourceVersionOfAnAnswer() {
    byte[] pod = ("{\"metadata\":{\"annotations\":{\"a\":\"b\"},\"managedFields\":[{\"manager\":\"m\"}],"
        + "\"resourceVersion\":\"4711\"},\"spec\":{}}").getBytes(StandardCharsets.US_ASCII);

    assertThat(AckedWrites.resourceVersionOf(pod)).isEqualTo(4711);
    assertThat(AckedWrites.resourceVersionOf("{}".getBytes(StandardCharsets.US_ASCII))).isEqualTo(-1);
  }

  /** A chunked watch response of {@code tally} that has received its head and the events of writes {@code seqs}. */
  private static ChunkedWatchResponse streaming(WatchTally tally, int... seqs) {
    ChunkedWatchResponse r = new ChunkedWatchResponse(tally, WatchWire.JSON);
    StringBuilder events = new StringBuilder();
    for (int seq : seqs) {
      events.append(event(seq));
    }
    feed(r, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk(events.toString()));
    return r;
  }

  private static String event(int seq) {
    return "{\"type\":\"MODIFIED\",\"object\":{\"metadata\":{\"annotations\":{" + Pods.MARKER + "5000-" + seq
        + "\"}}}}\n";
  }

  private static String chunk(String data) {
    return Integer.toHexString(data.length()) + "\r\n" + data + "\r\n";
  }

  private static void feed(ChunkedWatchResponse r, String wire) {
    byte[] bytes = wire.getBytes(StandardCharsets.US_ASCII);
    ByteBuffer b = ByteBuffer.allocateDirect(bytes.length + 8).order(ByteOrder.LITTLE_ENDIAN);
    b.put(bytes);
    assertThat(r.read(b, 0, bytes.length, 6_000)).isTrue();
  }
}
