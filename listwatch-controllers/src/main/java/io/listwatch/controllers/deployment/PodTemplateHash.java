package io.listwatch.controllers.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code pod-template-hash} of a pod template, as kube computes it in shape: FNV-32a over
 * the template, then over the collision count (4 bytes, little-endian) when there is one; the
 * 32-bit sum written in decimal and each digit mapped through kube's {@code SafeEncodeString}
 * alphabet (consonants and digits that cannot spell words), so names look like kube's
 * ({@code web-7d9f8c6b5}).
 *
 * <p>The template is hashed as {@link Trees#normalized} leaves it, so the templates the
 * controller takes for equal hash alike. kube hashes a debug print of its Go structure, which no other program can reproduce; this
 * hashes the template's JSON with object keys sorted, so equal templates give equal hashes and
 * the hash is stable across restarts, but the values differ from kube's for the same template.
 * Only the hash's stability matters to the controller: it finds a deployment's ReplicaSet by
 * comparing templates, never by recomputing a hash.
 *
 * <p>Stateless, thread-safe.
 */
final class PodTemplateHash {

  /** The label and selector key the controller adds to its ReplicaSets and their pods. */
  static final String LABEL = "pod-template-hash";

  /** kube's {@code rand.SafeEncodeString} alphabet: no vowels, no 0, 1 and 3. */
  private static final String ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789";

  private static final int FNV_OFFSET = 0x811c9dc5;
  private static final int FNV_PRIME = 0x01000193;

  private PodTemplateHash() {}

  /** The hash label value of {@code template} with {@code collisionCount} (null when none). */
  static String compute(JsonNode template, Integer collisionCount) {
    StringBuilder canonical = new StringBuilder();
    write(Trees.normalized(template), canonical);
    int h = FNV_OFFSET;
    for (byte b : canonical.toString().getBytes(StandardCharsets.UTF_8)) {
      h = (h ^ (b & 0xff)) * FNV_PRIME;
    }
    if (collisionCount != null) {
      int c = collisionCount;
      for (int i = 0; i < 4; i++) {
        h = (h ^ ((c >>> (8 * i)) & 0xff)) * FNV_PRIME;
      }
    }
    return safeEncode(Integer.toUnsignedString(h));
  }

  /** kube's {@code SafeEncodeString}: each character mapped by its code modulo the alphabet. */
  static String safeEncode(String s) {
    StringBuilder out = new StringBuilder(s.length());
    s.codePoints().forEach(c -> out.append(ALPHANUMS.charAt(c % ALPHANUMS.length())));
    return out.toString();
  }

  /** JSON with object keys sorted: one text per value, whatever order the fields arrived in. */
  private static void write(JsonNode node, StringBuilder out) {
    if (node == null || node.isMissingNode()) {
      out.append("null");
    } else if (node.isObject()) {
      List<Map.Entry<String, JsonNode>> fields = new ArrayList<>(node.properties());
      fields.sort(Map.Entry.comparingByKey());
      out.append('{');
      for (int i = 0; i < fields.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        out.append(quote(fields.get(i).getKey())).append(':');
        write(fields.get(i).getValue(), out);
      }
      out.append('}');
    } else if (node.isArray()) {
      out.append('[');
      for (int i = 0; i < node.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        write(node.get(i), out);
      }
      out.append(']');
    } else {
      out.append(node.toString());
    }
  }

  private static String quote(String s) {
    return TextNode.valueOf(s).toString();
  }
}
