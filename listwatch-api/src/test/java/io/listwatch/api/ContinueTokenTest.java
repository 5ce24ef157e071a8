package io.listwatch.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ContinueTokenTest {

  @Test
  void encode_isUnpaddedUrlSafeBase64OfKubesJson() {
    String token = new ContinueToken(12345, "default/web\u0000").encode();
    assertThat(token).doesNotContain("=", "+", "/");
    String json = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
    assertThat(json).isEqualTo("{\"v\":\"meta.k8s.io/v1\",\"rv\":12345,\"start\":\"default/web\\u0000\"}");
  }

  @Test
  void encode_usesTheUrlSafeAlphabet() {
    // Bytes that standard base64 would spell with '+' and '/'.
    String token = new ContinueToken(1, "a/\u00ff\u00fe?>>>").encode();
    assertThat(token).matches("[A-Za-z0-9_-]+");
  }

  @ParameterizedTest
  @ValueSource(strings = {"web", "default/web\u0000", "ns/name.with-dots_and_underscores",
      "ünïcødé/名前", "quote\"back\\slash", "a/b/c/d", "x..y", ".hidden/...", "-"})
  void decode_roundTripsEncode(String startKey) {
    ContinueToken t = new ContinueToken(Long.MAX_VALUE, startKey);
    assertThat(ContinueToken.decode(t.encode())).isEqualTo(t);
  }

  @Test
  void decode_readsATokenWrittenByKube() {
    // What kube-apiserver's EncodeContinue writes for /registry/pods/default/foo at rv 7.
    String kube = rawUrl("{\"v\":\"meta.k8s.io/v1\",\"rv\":7,\"start\":\"default/foo\\u0000\"}");
    assertThat(ContinueToken.decode(kube)).isEqualTo(new ContinueToken(7, "default/foo\u0000"));
  }

  @Test
  void decode_ignoresUnknownFields() {
    String token = rawUrl("{\"v\":\"meta.k8s.io/v1\",\"rv\":7,\"start\":\"a\",\"rc\":3}");
    assertThat(ContinueToken.decode(token)).isEqualTo(new ContinueToken(7, "a"));
  }

  @Test
  void decode_acceptsPaddedBase64() {
    String padded = Base64.getUrlEncoder().encodeToString(
        "{\"v\":\"meta.k8s.io/v1\",\"rv\":7,\"start\":\"a\"}".getBytes(StandardCharsets.UTF_8));
    assertThat(ContinueToken.decode(padded)).isEqualTo(new ContinueToken(7, "a"));
  }

  @Test
  void decode_rejectsInvalidBase64() {
    assertThat(badRequest("not base64!").getMessage())
        .startsWith("invalid continue token: continue key is not valid: ");
    badRequest("a+b/"); // the standard alphabet is not the URL-safe one
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "not json", "[1,2]", "\"str\"", "null", "{\"v\":", 
      "{\"v\":\"meta.k8s.io/v1\",\"rv\":1,\"start\":\"a\"} trailing"})
  void decode_rejectsWhatIsNotAJsonObject(String json) {
    assertThat(badRequest(rawUrl(json)).getMessage())
        .startsWith("invalid continue token: continue key is not valid: ");
  }

  @Test
  void decode_rejectsFieldsOfTheWrongType() {
    badRequest(rawUrl("{\"v\":1,\"rv\":1,\"start\":\"a\"}"));
    badRequest(rawUrl("{\"v\":\"meta.k8s.io/v1\",\"rv\":\"1\",\"start\":\"a\"}"));
    badRequest(rawUrl("{\"v\":\"meta.k8s.io/v1\",\"rv\":1.5,\"start\":\"a\"}"));
    badRequest(rawUrl("{\"v\":\"meta.k8s.io/v1\",\"rv\":1e30,\"start\":\"a\"}"));
    badRequest(rawUrl("{\"v\":\"meta.k8s.io/v1\",\"rv\":99999999999999999999,\"start\":\"a\"}"));
    badRequest(rawUrl("{\"v\":\"meta.k8s.io/v1\",\"rv\":1,\"start\":[\"a\"]}"));
  }

  @Test
  void decode_rejectsAnotherVersion() {
    assertThat(badRequest(rawUrl("{\"v\":\"meta.k8s.io/v2\",\"rv\":1,\"start\":\"a\"}"))
        .getMessage()).isEqualTo("invalid continue token: continue key is not valid: "
            + "server does not recognize this encoded version \"meta.k8s.io/v2\"");
    badRequest(rawUrl("{\"rv\":1,\"start\":\"a\"}"));
  }

  @ParameterizedTest
  @ValueSource(longs = {0, -1, Long.MIN_VALUE})
  void decode_rejectsNonPositiveResourceVersion(long rv) {
    assertThat(badRequest(rawUrl("{\"v\":\"meta.k8s.io/v1\",\"rv\":" + rv + ",\"start\":\"a\"}"))
        .getMessage()).isEqualTo("invalid continue token: continue key is not valid: "
            + "incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
  }

  @Test
  void decode_rejectsMissingOrEmptyStartKey() {
    String expected = "invalid continue token: continue key is not valid: "
        + "encoded start key empty (version meta.k8s.io/v1)";
    assertThat(badRequest(rawUrl("{\"v\":\"meta.k8s.io/v1\",\"rv\":1,\"start\":\"\"}"))
        .getMessage()).isEqualTo(expected);
    assertThat(badRequest(rawUrl("{\"v\":\"meta.k8s.io/v1\",\"rv\":1}")).getMessage())
        .isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {"..", "../kube-system/secret", "a/../../b", "a/..", "./a", "a/./b",
      ".", "/abs", "/", "a//b", "a/", "//a"})
  void decode_rejectsStartKeysThatCouldLeaveThePrefix(String startKey) {
    String json = "{\"v\":\"meta.k8s.io/v1\",\"rv\":1,\"start\":\"" + startKey + "\"}";
    assertThat(badRequest(rawUrl(json)).getMessage())
        .isEqualTo("invalid continue token: continue key is not valid: " + startKey);
  }

  @Test
  void constructor_rejectsWhatDecodeRejects() {
    assertThatThrownBy(() -> new ContinueToken(0, "a"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ContinueToken(1, ""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ContinueToken(1, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ContinueToken(1, "../x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("continue key is not valid: ../x");
  }

  @Test
  void toString_showsTheParts() {
    assertThat(new ContinueToken(3, "ns/a\u0000").toString())
        .isEqualTo("ContinueToken[rv=3, startKey=\"ns/a\\x00\"]");
  }

  private static String rawUrl(String json) {
    return Base64.getUrlEncoder().withoutPadding()
        .encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }

  private static StatusException badRequest(String token) {
    StatusException e =
        catchThrowableOfType(StatusException.class, () -> ContinueToken.decode(token));
    assertThat(e).as("decode(%s) should fail", token).isNotNull();
    assertThat(e.code()).isEqualTo(400);
    assertThat(e.reason()).isEqualTo(Reasons.BAD_REQUEST);
    return e;
  }
}
