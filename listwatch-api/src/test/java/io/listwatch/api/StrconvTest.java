package io.listwatch.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class StrconvTest {

  @Test
  void quote_escapesLikeGo() {
    assertThat(Strconv.quote("")).isEqualTo("\"\"");
    assertThat(Strconv.quote("a\"b\\c")).isEqualTo("\"a\\\"b\\\\c\"");
    assertThat(Strconv.quote("\n\r\t\u0000\u007f")).isEqualTo("\"\\n\\r\\t\\x00\\x7f\"");
    assertThat(Strconv.quote("ünï")).isEqualTo("\"ünï\"");
  }

  @Test
  void parseInt_acceptsSignedDecimal() {
    assertThat(Strconv.parseInt("42")).isEqualTo(42);
    assertThat(Strconv.parseInt("+42")).isEqualTo(42);
    assertThat(Strconv.parseInt("-42")).isEqualTo(-42);
    assertThat(Strconv.parseInt("007")).isEqualTo(7);
    assertThat(Strconv.parseInt("-9223372036854775808")).isEqualTo(Long.MIN_VALUE);
  }

  @Test
  void parseInt_rejectsWithGosMessage() {
    assertThatThrownBy(() -> Strconv.parseInt("abc"))
        .isInstanceOf(NumberFormatException.class)
        .hasMessage("strconv.ParseInt: parsing \"abc\": invalid syntax");
    assertThatThrownBy(() -> Strconv.parseInt("")).hasMessageEndingWith("invalid syntax");
    assertThatThrownBy(() -> Strconv.parseInt("-")).hasMessageEndingWith("invalid syntax");
    assertThatThrownBy(() -> Strconv.parseInt("١٢")).hasMessageEndingWith("invalid syntax");
    assertThatThrownBy(() -> Strconv.parseInt("9223372036854775808"))
        .hasMessage("strconv.ParseInt: parsing \"9223372036854775808\": value out of range");
  }

  @Test
  void parseUint_rejectsSigns() {
    assertThat(Strconv.parseUint("0")).isZero();
    assertThatThrownBy(() -> Strconv.parseUint("-1"))
        .hasMessage("strconv.ParseUint: parsing \"-1\": invalid syntax");
    assertThatThrownBy(() -> Strconv.parseUint("+1")).hasMessageEndingWith("invalid syntax");
  }

  @Test
  void parseBool_takesGosSpellingsOnly() {
    for (String t : new String[] {"1", "t", "T", "TRUE", "true", "True"}) {
      assertThat(Strconv.parseBool(t)).as(t).isTrue();
    }
    for (String f : new String[] {"0", "f", "F", "FALSE", "false", "False"}) {
      assertThat(Strconv.parseBool(f)).as(f).isFalse();
    }
    assertThatThrownBy(() -> Strconv.parseBool("tRuE")).hasMessage("strconv.ParseBool: parsing \"tRuE\": invalid syntax");
    assertThatThrownBy(() -> Strconv.parseBool("")).hasMessage("strconv.ParseBool: parsing \"\": invalid syntax");
  }
}
