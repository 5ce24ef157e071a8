package io.listwatch.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Base64;

/**
 * The paging state behind a list's {@code metadata.continue}, in kube's format: unpadded
 * URL-safe base64 ({@code base64.RawURLEncoding}) of
 * {@code {"v":"meta.k8s.io/v1","rv":<rv>,"start":"<startKey>"}}. Clients treat it as opaque
 * (see "Paging" in docs/compatibility.md); kube-apiserver and we can read each other's tokens.
 *
 * <p>A later page is served at {@code rv}, the revision of the first page's snapshot, and
 * covers the keys from {@code startKey} on. {@code startKey} is relative to the resource's
 * key prefix, as in kube: for the prefix {@code /registry/pods/} and the storage key
 * {@code /registry/pods/default/web}, the relative key is {@code default/web}. Like kube, the
 * server should put the smallest key after the last one returned there, i.e. the last key
 * plus {@code "\u0000"}, so that the start is inclusive. Being relative, a token cannot
 * reach outside the prefix it was issued for: the start key must be non-empty, must not
 * start with {@code /}, and must have no empty, {@code .} or {@code ..} segments (kube's
 * {@code path.Clean} defence against traversal).
 *
 * <p>Malformed tokens decode to a 400 {@code BadRequest}, e.g. {@code invalid continue
 * token: continue key is not valid: encoded start key empty (version meta.k8s.io/v1)}.
 * An expired token (its {@code rv} compacted away) is the storage layer's 410, not ours.
 *
 * <p>Immutable and thread-safe.
 *
 * @param rv the resource version of the list snapshot the pages come from; positive
 * @param startKey where the next page starts (inclusive), relative to the resource prefix
 */
public record ContinueToken(long rv, String startKey) {

  /** The token format version kube writes and reads. */
  static final String VERSION = "meta.k8s.io/v1";

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  /**
   * @throws IllegalArgumentException if {@code rv} is not positive or {@code startKey} is
   *     not a clean relative key
   */
  public ContinueToken {
    String problem = problem(rv, startKey);
    if (problem != null) {
      throw new IllegalArgumentException("continue key is not valid: " + problem);
    }
  }

  /** The token as it goes into {@code metadata.continue}. */
  public String encode() {
    ObjectNode node = JSON.createObjectNode();
    node.put("v", VERSION);
    node.put("rv", rv);
    node.put("start", startKey);
    byte[] json;
    try {
      json = JSON.writeValueAsBytes(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a continue token", e); // not for a tree
    }
    return Base64.getUrlEncoder().withoutPadding().encodeToString(json);
  }

  /**
   * Reads a {@code continue} query parameter.
   *
   * @throws StatusException 400 BadRequest when the token is not valid base64 or JSON, has
   *     another version, a non-positive {@code rv}, or an unclean start key
   */
  public static ContinueToken decode(String token) {
    byte[] json;
    try {
      json = Base64.getUrlDecoder().decode(token == null ? "" : token);
    } catch (IllegalArgumentException e) {
      throw invalid(e.getMessage());
    }
    JsonNode node;
    try {
      node = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw invalid(e.getOriginalMessage());
    } catch (IOException e) {
      throw invalid(e.getMessage());
    }
    if (node == null || !node.isObject()) {
      throw invalid("not a JSON object");
    }
    JsonNode v = node.path("v");
    if (!v.isMissingNode() && !v.isTextual()) {
      throw invalid("\"v\" must be a string");
    }
    JsonNode rv = node.path("rv");
    if (!rv.isMissingNode() && !(rv.isIntegralNumber() && rv.canConvertToLong())) {
      throw invalid("\"rv\" must be an integer");
    }
    JsonNode start = node.path("start");
    if (!start.isMissingNode() && !start.isTextual()) {
      throw invalid("\"start\" must be a string");
    }
    if (!VERSION.equals(v.asText(""))) {
      throw invalid("server does not recognize this encoded version "
          + Strconv.quote(v.asText("")));
    }
    String problem = problem(rv.asLong(0), start.asText(""));
    if (problem != null) {
      throw invalid(problem);
    }
    return new ContinueToken(rv.asLong(), start.asText());
  }

  /** Why (rv, startKey) is not a valid token, or null. */
  private static String problem(long rv, String startKey) {
    if (rv <= 0) {
      return "incorrect encoded start resourceVersion (version " + VERSION + ")";
    }
    if (startKey == null || startKey.isEmpty()) {
      return "encoded start key empty (version " + VERSION + ")";
    }
    if (startKey.startsWith("/")) {
      return startKey;
    }
    for (String segment : startKey.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        return startKey;
      }
    }
    return null;
  }

  private static StatusException invalid(String why) {
    return StatusException.badRequest("invalid continue token: continue key is not valid: " + why);
  }

  /** The token itself would be opaque noise in logs; show its parts. */
  @Override
  public String toString() {
    return "ContinueToken[rv=" + rv + ", startKey=" + Strconv.quote(startKey) + "]";
  }
}
