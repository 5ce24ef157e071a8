package io.listwatch.apiserver.request;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class WarningHeadersTest {

  private static List<String> values(String... texts) {
    return java.util.Arrays.stream(texts).map(WarningHeaders::value).toList();
  }

  @Test
  void warningsAreSentWhole_onceEach_whileTheyFitTheTotal() {
    assertThat(WarningHeaders.bounded(values("aaaaaaaaaa", "aaaaaaaaaa", "bb", "ccc", "Iñtërnâtiô"), 25, 5))
        .isEqualTo(values("aaaaaaaaaa", "bb", "ccc", "Iñtërnâtiô"));
  }

  @Test
  void theWarningPastTheTotal_cutsEveryWarning_andOnceCutTextsReachTheTotal_theRestAreDropped() {
    List<String> sent = WarningHeaders.bounded(values("aaaaaaaaaa", "aaaaaaaaaa", "bb", "ccc", "Iñtërnâtiô", "e",
        "ffffffffff", "ffffffffff", "gggggggggg", "h"), 25, 5);

    // as kube's recorder: cut on code points, the order kept, the duplicate and "h" left out
    assertThat(sent).isEqualTo(values("aaaaa", "bb", "ccc", "Iñtër", "e", "fffff", "ggggg"));
  }

  @Test
  void thousandsOfUnknownFields_giveAFewDozenHeaders() {
    List<String> warnings = IntStream.range(0, 3_500)
        .mapToObj(i -> "unknown field \"spec.field" + i + "\"").toList();

    List<String> sent = WarningHeaders.bounded(warnings.stream().map(WarningHeaders::value).toList());

    int runes = sent.stream().mapToInt(v -> WarningHeaders.text(v).length()).sum();
    assertThat(sent).hasSizeLessThan(200).first().isEqualTo(WarningHeaders.value(warnings.get(0)));
    assertThat(runes).isBetween(WarningHeaders.TOTAL_RUNES, WarningHeaders.TOTAL_RUNES + WarningHeaders.ITEM_RUNES);
  }

  @Test
  void aValueReadsBackAsItsText_quotesAndBackslashesIncluded() {
    String text = "field \"a\\b\" is deprecated";

    assertThat(WarningHeaders.value(text)).isEqualTo("299 - \"field \\\"a\\\\b\\\" is deprecated\"");
    assertThat(WarningHeaders.text(WarningHeaders.value(text))).isEqualTo(text);
  }
}
