package io.listwatch.server.http;

import io.listwatch.apiserver.protobuf.KubeProtobuf;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which encoding answers a request, from its {@code Accept} header, as kube negotiates it: the
 * media ranges by preference (their {@code q}, then their order), and the first one the server
 * can produce wins. kube's protobuf ({@code application/vnd.kubernetes.protobuf}, without an
 * {@code as=} parameter) is chosen only when it comes before every acceptable JSON range
 * ({@code application/json}, {@code application/*}, {@code *}{@code /*}); no header, or nothing
 * the server produces, means JSON. Stateless.
 */
final class Negotiation {

  private Negotiation() {
  }

  /** Whether the answer should be protobuf (for a kind that has a protobuf form). */
  static boolean prefersProtobuf(String accept) {
    if (accept == null || accept.isEmpty()) {
      return false;
    }
    record Range(String type, boolean table, double q, int order) {
    }
    List<Range> ranges = new ArrayList<>();
    String[] parts = accept.split(",");
    for (int i = 0; i < parts.length; i++) {
      String[] fields = parts[i].split(";");
      String type = fields[0].trim().toLowerCase(java.util.Locale.ROOT);
      double q = 1;
      boolean table = false;
      for (int p = 1; p < fields.length; p++) {
        String param = fields[p].trim();
        if (param.startsWith("q=")) {
          try {
            q = Double.parseDouble(param.substring(2));
          } catch (NumberFormatException e) {
            q = 0;
          }
        } else if (param.startsWith("as=")) {
          table = true;
        }
      }
      if (q > 0) {
        ranges.add(new Range(type, table, q, i));
      }
    }
    ranges.sort(Comparator.comparingDouble((Range r) -> -r.q()).thenComparingInt(Range::order));
    for (Range r : ranges) {
      if (r.type().equals(KubeProtobuf.MEDIA_TYPE) && !r.table()) {
        return true;
      }
      if (r.type().equals("application/json") || r.type().equals("application/*") || r.type().equals("*/*")) {
        return false;
      }
    }
    return false;
  }
}
