package io.listwatch.storage.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.storage.KeyValue;
import io.listwatch.storage.WatchEvent;
import org.junit.jupiter.api.Test;

/** The ring buffer under the change log: indexing by revision across wrap, growth and shrink. */
class RevisionLogTest {

  @Test
  void get_findsEveryRetainedRevision_acrossWrapGrowthAndShrink() {
    RevisionLog log = new RevisionLog(1);
    for (long r = 1; r <= 100; r++) {
      log.append(event(r), r);
    }
    log.dropThrough(90);
    for (long r = 101; r <= 400; r++) {
      log.append(event(r), r);
    }
    log.dropThrough(390);

    assertThat(log.size()).isEqualTo(10);
    for (long r = 391; r <= 400; r++) {
      assertThat(log.get(r).revision()).isEqualTo(r);
    }
    assertThatThrownBy(() -> log.get(390)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> log.append(event(402), 402)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void newestCommittedAtOrBefore_treatsAClockSetBackAsStandingStill() {
    RevisionLog log = new RevisionLog(1);
    log.append(event(1), 1_000);
    log.append(event(2), 2_000);
    log.append(event(3), 500); // the clock went back: dated 2_000
    log.append(event(4), 3_000);

    assertThat(log.newestCommittedAtOrBefore(999)).isZero();
    assertThat(log.newestCommittedAtOrBefore(1_000)).isEqualTo(1);
    assertThat(log.newestCommittedAtOrBefore(2_000)).isEqualTo(3);
    assertThat(log.newestCommittedAtOrBefore(10_000)).isEqualTo(4);
  }

  private static WatchEvent event(long revision) {
    return new WatchEvent(WatchEvent.Type.PUT, new KeyValue("/k", null, revision, revision, 1), null);
  }
}
