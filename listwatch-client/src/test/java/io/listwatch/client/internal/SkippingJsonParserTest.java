package io.listwatch.client.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SkippingJsonParserTest {

  private static JsonParser parser(String json) throws IOException {
    return Json.FACTORY.createParser(new RecordingInputStream(
        new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8))));
  }

  @Test
  void skipValue_movesPastNestedValues_stringsWithBracketsQuotesAndEscapes_toTheNextField() throws IOException {
    try (JsonParser p = parser("{\"spec\":{\"a\":[1,{\"b\":\"}]\\\"\\\\\"},[],\"\\u005d\"],\"c\":null,\"é\":\"ü\"},"
        + "\n\"list\":[[{}],{\"x\":[true]}],\"name\":\"n\"}")) {
      assertThat(p).isInstanceOf(SkippingJsonParser.class);
      assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
      assertThat(p.nextToken()).isEqualTo(JsonToken.FIELD_NAME);
      assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
      ((SkippingJsonParser) p).skipValue();
      assertThat(p.currentToken()).isEqualTo(JsonToken.END_OBJECT);
      assertThat(p.nextToken()).isEqualTo(JsonToken.FIELD_NAME);
      assertThat(p.currentName()).isEqualTo("list");
      assertThat(p.nextToken()).isEqualTo(JsonToken.START_ARRAY);
      ((SkippingJsonParser) p).skipValue();
      assertThat(p.currentToken()).isEqualTo(JsonToken.END_ARRAY);
      assertThat(p.nextToken()).isEqualTo(JsonToken.FIELD_NAME);
      assertThat(p.currentName()).isEqualTo("name");
      assertThat(p.nextTextValue()).isEqualTo("n");
      assertThat(p.nextToken()).isEqualTo(JsonToken.END_OBJECT);
      assertThat(p.nextToken()).isNull();
    }
  }

  @Test
  void skipValue_onAScalar_doesNothing() throws IOException {
    try (JsonParser p = parser("{\"a\":\"x\",\"b\":1}")) {
      p.nextToken();
      p.nextToken();
      p.nextToken();
      ((SkippingJsonParser) p).skipValue();
      assertThat(p.currentToken()).isEqualTo(JsonToken.VALUE_STRING);
      assertThat(p.nextFieldName()).isEqualTo("b");
    }
  }

  @Test
  void skipValue_rejectsMismatchedBrackets_andATruncatedValue() throws IOException {
    try (JsonParser p = parser("{\"a\":{\"b\":[1}}")) {
      p.nextToken();
      p.nextToken();
      p.nextToken();
      assertThatThrownBy(((SkippingJsonParser) p)::skipValue).isInstanceOf(JsonParseException.class);
    }
    try (JsonParser p = parser("{\"a\":{\"b\":\"}")) {
      p.nextToken();
      p.nextToken();
      p.nextToken();
      assertThatThrownBy(((SkippingJsonParser) p)::skipValue).isInstanceOf(JsonParseException.class);
    }
  }

  /** {@code {"skip":VALUE,"after":1}} with the parser on the skipped value's first token. */
  private static JsonParser atSkippedValue(byte[] value) throws IOException {
    JsonParser p = Json.FACTORY.createParser(new RecordingInputStream(new ByteArrayInputStream(wrapped(value))));
    p.nextToken();
    p.nextToken();
    p.nextToken();
    return p;
  }

  /** {@code {"skip":VALUE,"after":1}}. */
  private static byte[] wrapped(byte[] value) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    out.writeBytes("{\"skip\":".getBytes(StandardCharsets.UTF_8));
    out.writeBytes(value);
    out.writeBytes(",\"after\":1}".getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  /** Whether Jackson's own parser reads {@code {"skip":VALUE,"after":1}} as JSON. */
  private static boolean jacksonReads(byte[] value) {
    try {
      Json.MAPPER.readTree(wrapped(value));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {
      "{}", "[ ]", "[1,-0.5e+10,0,1E2,-0,0.25E-3,true,false,null]", "{\"a\" : {\"b\":[[],{}]} ,\"c\":\"\\u00e9\\n\\/\"}",
      "[\"é\",\"日本\",\"😀\"]", "{\"\":\"\"}", "[\r\n\t{ }\n]"})
  void skipValue_movesPastWellFormedValues_asJacksonReadsThem(String value) throws IOException {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    assertThat(jacksonReads(bytes)).as("a well-formed value").isTrue();
    try (JsonParser p = atSkippedValue(bytes)) {
      ((SkippingJsonParser) p).skipValue();
      assertThat(p.nextFieldName()).isEqualTo("after");
    }
  }

  /** Found by fuzzing: the skip checked only brackets and strings, and let all of these through. */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {
      "{\"a\" 1}", "{\"a\":1 \"b\":2}", "{\"a\":1,}", "[1,]", "[,1]", "{1:2}", "{\"a\"}", "{\"a\":}", "[1 2]",
      "[01]", "[1.]", "[.5]", "[-]", "[1e]", "[1e+]", "[+1]", "[NaN]", "[tru]", "[nul]", "[trueish]", "[\"\\x\"]",
      "[\"\\u12G4\"]", "[\"raw\nnewline\"]", "[\"tab\there\"]", "{\"a\":[}", "[{]}", "{,}", "[:]", "{\"a\"::1}"})
  void skipValue_refusesWhatJacksonRefuses(String value) throws IOException {
    assertRefused(value.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void skipValue_refusesMalformedUtf8_inAString() throws IOException {
    assertRefused(new byte[] {'[', '"', (byte) 0xff, '"', ']'}); // not a start byte
    assertRefused(new byte[] {'[', '"', (byte) 0xc3, '(', '"', ']'}); // a start byte without its continuation
    assertRefused(new byte[] {'[', '"', (byte) 0x80, '"', ']'}); // a lone continuation byte
    assertRefused(new byte[] {'[', '"', (byte) 0xe6, (byte) 0x97, '"', ']'}); // a 3-byte sequence cut short
  }

  private static void assertRefused(byte[] value) throws IOException {
    assertThat(jacksonReads(value)).as("Jackson refuses %s", new String(value, StandardCharsets.UTF_8)).isFalse();
    try (JsonParser p = atSkippedValue(value)) {
      assertThatThrownBy(((SkippingJsonParser) p)::skipValue).isInstanceOf(JsonParseException.class);
    }
  }

  @Test
  void otherInputs_getJacksonsOwnParser() throws IOException {
    try (JsonParser p = Json.FACTORY.createParser(new ByteArrayInputStream("{}".getBytes(StandardCharsets.UTF_8)))) {
      assertThat(p).isNotInstanceOf(SkippingJsonParser.class);
    }
  }
}
