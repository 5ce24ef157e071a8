package io.listwatch.api.apply;

import static io.listwatch.api.apply.FieldsV1Test.json;
import static org.assertj.core.api.Assertions.assertThat;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ManagedFieldsEntryTest {

  @Test
  void anEmptyManager_isLeftOut_andAMissingOneReadsAsEmpty_asGoEncodesAndDecodesIt() {
    ManagedFieldsEntry entry = ManagedFieldsEntry.fromJson(json(
        "{'operation':'Update','apiVersion':'v1','fieldsType':'FieldsV1','fieldsV1':{'f:data':{}}}"));

    assertThat(entry.manager()).isEmpty();
    assertThat(entry.toJson().has("manager")).isFalse();
    assertThat(ManagedFieldsEntry.fromJson(entry.toJson())).isEqualTo(entry);
  }

  @Test
  void times_readAndWriteAsInstantDoes_inEveryForm() {
    SplittableRandom random = new SplittableRandom(11);
    List<Long> seconds = new java.util.ArrayList<>(List.of(0L, -1L, 951_782_400L /* 2000-02-29 */,
        -62_167_219_200L /* year 0 */, 253_402_300_799L /* 9999-12-31T23:59:59 */, 253_402_300_800L /* 10000 */));
    for (int i = 0; i < 10_000; i++) {
      seconds.add(random.nextLong(-70_000_000_000L, 260_000_000_000L));
    }
    for (long s : seconds) {
      Instant t = Instant.ofEpochSecond(s);
      assertThat(ManagedFieldsEntry.formatTime(t)).isEqualTo(t.toString());
      assertThat(ManagedFieldsEntry.parseTime(t.toString())).isEqualTo(t);
    }
    assertThat(ManagedFieldsEntry.parseTime("2026-01-02T03:04:05.678Z")).isEqualTo(
        Instant.parse("2026-01-02T03:04:05.678Z"));
    for (String odd : List.of("2024-02-29T00:00:00Z", "2026-01-31T00:00:00Z", "2026-01-01T24:00:00Z")) {
      assertThat(ManagedFieldsEntry.parseTime(odd)).isEqualTo(Instant.parse(odd));
    }
    for (String bad : List.of("2025-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-04-31T00:00:00Z",
        "2026-01-0xT00:00:00Z", "2026-01-01 00:00:00Z", "yesterday")) {
      assertThatThrownBy(() -> ManagedFieldsEntry.parseTime(bad)).isInstanceOf(DateTimeParseException.class);
    }
  }
}
