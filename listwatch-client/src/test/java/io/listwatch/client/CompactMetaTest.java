package io.listwatch.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CompactMetaTest {

  @Test
  void resourceVersion_keepsCanonicalDecimals_asTheirValue() {
    assertThat(CompactMeta.resourceVersion("0")).isZero();
    assertThat(CompactMeta.resourceVersion("17")).isEqualTo(17);
    assertThat(CompactMeta.resourceVersion("999999999999999999")).isEqualTo(999_999_999_999_999_999L);
    Random random = new Random(7);
    for (int i = 0; i < 1000; i++) {
      long v = random.nextLong(1_000_000_000_000_000_000L);
      assertThat(CompactMeta.resourceVersion(Long.toString(v))).isEqualTo(v);
    }
  }

  @Test
  void resourceVersion_rejectsWhatWouldNotFormatBackTheSame() {
    for (String s : new String[] {"", "00", "007", "-1", "+1", "1a", " 1", "1 ", "1.0", "١٢",
        "1000000000000000000", "99999999999999999999"}) {
      assertThat(CompactMeta.resourceVersion(s)).as(s).isEqualTo(-1);
    }
  }

  @Test
  void uuid_roundTripsCanonicalLowercaseUuids() {
    Random random = new Random(11);
    for (int i = 0; i < 1000; i++) {
      String s = new UUID(random.nextLong(), random.nextLong()).toString();
      assertThat(CompactMeta.isUuid(s)).as(s).isTrue();
      assertThat(new UUID(CompactMeta.uuidHigh(s), CompactMeta.uuidLow(s)).toString()).isEqualTo(s);
    }
    String edge = "ffffffff-ffff-ffff-ffff-ffffffffffff";
    assertThat(new UUID(CompactMeta.uuidHigh(edge), CompactMeta.uuidLow(edge)).toString()).isEqualTo(edge);
  }

  @Test
  void uuid_rejectsOtherForms() {
    for (String s : new String[] {"", "u-1", "6F1E2B8A-3C4D-4E5F-9A0B-1C2D3E4F5A6B",
        "6f1e2b8a3c4d4e5f9a0b1c2d3e4f5a6b", "6f1e2b8a-3c4d-4e5f-9a0b-1c2d3e4f5a6", "6f1e2b8a-3c4d-4e5f-9a0b-1c2d3e4f5a6bb",
        "6f1e2b8a-3c4d-4e5f-9a0b_1c2d3e4f5a6b", "6f1e2b8a-3c4d-4e5f-9a0g-1c2d3e4f5a6b", "{f1e2b8a-3c4d-4e5f-9a0b-1c2d3e4f5a6}"}) {
      assertThat(CompactMeta.isUuid(s)).as(s).isFalse();
    }
  }
}
