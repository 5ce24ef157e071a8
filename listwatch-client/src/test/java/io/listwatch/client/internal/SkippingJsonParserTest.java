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

  @Test
  void otherInputs_getJacksonsOwnParser() throws IOException {
    try (JsonParser p = Json.FACTORY.createParser(new ByteArrayInputStream("{}".getBytes(StandardCharsets.UTF_8)))) {
      assertThat(p).isNotInstanceOf(SkippingJsonParser.class);
    }
  }
}
