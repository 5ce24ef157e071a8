package io.listwatch.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class JsonLimitsTest {

  private static byte[] bytes(String json) {
    return json.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void nameAtTheLimit_isReadable_andOneByteMore_namesTheObjectHoldingIt() {
    String atLimit = "k".repeat(JsonLimits.MAX_NAME_LENGTH);
    assertThat(JsonLimits.violation(bytes("{\"data\":{\"a\":\"1\",\"" + atLimit + "\":\"v\"}}"))).isEmpty();

    Status.Cause cause = JsonLimits.violation(bytes("{\"data\":{\"a\":\"1\",\"" + atLimit + "k\":\"v\"}}")).orElseThrow();
    assertThat(cause.reason()).isEqualTo(Reasons.FIELD_VALUE_TOO_LONG);
    assertThat(cause.field()).isEqualTo("data");
    assertThat(cause.message()).isEqualTo("Too long: a field name may not be more than 50000 bytes");
  }

  @Test
  void nameLength_isCountedInBytesOfUtf8() {
    String twoBytes = "é".repeat(JsonLimits.MAX_NAME_LENGTH / 2);
    assertThat(JsonLimits.violation(bytes("{\"" + twoBytes + "\":1}"))).isEmpty();
    assertThat(JsonLimits.violation(bytes("{\"" + twoBytes + "x\":1}"))).isPresent();
  }

  @Test
  void numberAtTheLimit_isReadable_andOneDigitMore_namesItsField() {
    String atLimit = "9".repeat(JsonLimits.MAX_NUMBER_LENGTH);
    assertThat(JsonLimits.violation(bytes("{\"spec\":{\"n\":" + atLimit + "}}"))).isEmpty();
    Status.Cause cause = JsonLimits.violation(bytes("{\"spec\":{\"l\":[0, " + atLimit + "9]}}")).orElseThrow();
    assertThat(cause.field()).isEqualTo("spec.l[1]");
    assertThat(cause.message()).isEqualTo("Too long: a number may not be more than 1000 characters");
  }

  /**
   * Jackson checks a string's length as its buffer grows, so this edge is not exact to the
   * character; storage's value limit (3 MiB) binds long before it anyway.
   */
  @Test
  void stringAtTheLimit_isReadable_andLongerOnes_areNot() {
    String atLimit = "s".repeat(JsonLimits.MAX_STRING_LENGTH);
    assertThat(JsonLimits.violation(bytes("{\"s\":\"" + atLimit + "\"}"))).isEmpty();
    String over = atLimit + "s".repeat(1_000_000);
    assertThat(JsonLimits.violation(bytes("{\"s\":\"" + over + "\"}")).orElseThrow().field()).isEqualTo("s");
  }

  /** The bytes of a small tree of strings and whole numbers are readable without parsing them again; others are parsed. */
  @Test
  void needsCheck_onlyForLongDocumentsAndBigOrFractionalNumbers() throws Exception {
    var mapper = JsonLimits.mapper();
    var plain = mapper.readTree("{\"a\":[\"x\",1,{\"b\":true}],\"n\":-5}");
    assertThat(JsonLimits.needsCheck(plain, mapper.writeValueAsBytes(plain))).isFalse();
    var infinite = mapper.createObjectNode().put("d", Double.POSITIVE_INFINITY);
    assertThat(JsonLimits.needsCheck(infinite, mapper.writeValueAsBytes(infinite))).isTrue();
    var big = mapper.createObjectNode().put("i", new java.math.BigInteger("9".repeat(1001)));
    assertThat(JsonLimits.needsCheck(big, mapper.writeValueAsBytes(big))).isTrue();
    var longName = mapper.createObjectNode().put("k".repeat(JsonLimits.MAX_NAME_LENGTH + 1), 1);
    assertThat(JsonLimits.needsCheck(longName, mapper.writeValueAsBytes(longName))).isTrue();
  }

  /** An object may nest 998 levels: a list answer holds it two levels down, and a reader takes 1,000. */
  @Test
  void objectDepthAtTheLimit_isReadable_evenInAList_andOneLevelMore_isNot() throws Exception {
    String atLimit = "{\"a\":" + "[".repeat(997) + "]".repeat(997) + "}";
    assertThat(JsonLimits.violation(bytes(atLimit))).isEmpty();
    assertThat(JsonLimits.mapper().readTree("{\"items\":[" + atLimit + "]}").get("items").size()).isEqualTo(1);
    assertThat(JsonLimits.depth(JsonLimits.mapper().createObjectNode(), 5)).isEqualTo(1);
    String over = "{\"a\":" + "[".repeat(998) + "]".repeat(998) + "}";
    Status.Cause cause = JsonLimits.violation(bytes(over)).orElseThrow();
    assertThat(cause.reason()).isEqualTo(Reasons.FIELD_VALUE_INVALID);
    assertThat(cause.message()).contains("may not nest more than 998 levels");
    assertThat(cause.field()).startsWith("a[0][0]");
  }

  @Test
  void bareInfinity_andNonObjects_areNotReadable() {
    assertThat(JsonLimits.violation(bytes("{\"spec\":{\"x\":Infinity}}")).orElseThrow().field()).isEqualTo("spec.x");
    assertThat(JsonLimits.violation(bytes("[1]"))).isPresent();
    assertThat(JsonLimits.violation(bytes("{} {}"))).isPresent();
  }
}
