package io.listwatch.server.http;

import io.listwatch.api.StatusException;
import io.listwatch.server.request.ApiRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A client's request for a Table (what {@code kubectl get} sends): the {@code Accept} header's
 * most preferred media type that this server serves is
 * {@code application/json;as=Table;v=v1;g=meta.k8s.io} (or {@code v1beta1}), and the
 * {@code includeObject} parameter says what each row carries: {@code Metadata} (the default,
 * the object's metadata as a PartialObjectMetadata), {@code Object} (the whole object) or
 * {@code None}. Immutable.
 *
 * @param groupVersion {@code meta.k8s.io/v1} or {@code meta.k8s.io/v1beta1}: the Table's apiVersion
 */
record TableOptions(String groupVersion, IncludeObject includeObject) {

  /** What each row of a Table carries. */
  enum IncludeObject { NONE, METADATA, OBJECT }

  /**
   * The Table the request asks for, or empty when its most preferred media type this server
   * serves is plain JSON (or there is no Accept header).
   *
   * @throws StatusException 400 when a Table is asked for with an unknown {@code includeObject}
   */
  static Optional<TableOptions> negotiate(ApiRequest request) {
    Optional<String> version = tableVersion(request.accept());
    if (version.isEmpty()) {
      return Optional.empty();
    }
    String include = request.param("includeObject");
    IncludeObject mode = switch (include) {
      case "", "Metadata" -> IncludeObject.METADATA;
      case "Object" -> IncludeObject.OBJECT;
      case "None" -> IncludeObject.NONE;
      default -> throw StatusException.badRequest("Unable to convert to Table as requested: includeObject: "
          + "Invalid value: \"" + include + "\": must be 'Metadata', 'Object', 'None', or empty");
    };
    return Optional.of(new TableOptions("meta.k8s.io/" + version.get(), mode));
  }

  /**
   * The Table version ({@code v1} or {@code v1beta1}) of the first media range in
   * {@code accept}, by quality then order, that is either a Table of this server's or plain
   * JSON ({@code application/json}, {@code application/*}, {@code *}{@code /*}); empty when it
   * is JSON or nothing matches. Ranges this server does not serve (other types, other
   * {@code as=} conversions) are passed over, as kube's negotiation passes them over.
   */
  static Optional<String> tableVersion(String accept) {
    List<String[]> ranges = new ArrayList<>(); // {q, index, clause}
    String[] clauses = accept.split(",");
    for (int i = 0; i < clauses.length; i++) {
      ranges.add(new String[] {Double.toString(quality(clauses[i])), Integer.toString(i), clauses[i]});
    }
    ranges.sort((a, b) -> {
      int byQ = Double.compare(Double.parseDouble(b[0]), Double.parseDouble(a[0]));
      return byQ != 0 ? byQ : Integer.compare(Integer.parseInt(a[1]), Integer.parseInt(b[1]));
    });
    for (String[] range : ranges) {
      if (Double.parseDouble(range[0]) <= 0) {
        continue;
      }
      String[] parts = range[2].split(";");
      String type = parts[0].trim().toLowerCase(Locale.ROOT);
      String as = "";
      String g = "";
      String v = "";
      for (int i = 1; i < parts.length; i++) {
        String[] kv = parts[i].split("=", 2);
        String key = kv[0].trim().toLowerCase(Locale.ROOT);
        String value = kv.length > 1 ? kv[1].trim() : "";
        switch (key) {
          case "as" -> as = value;
          case "g" -> g = value;
          case "v" -> v = value;
          default -> { }
        }
      }
      boolean json = type.equals("application/json") || type.equals("application/*") || type.equals("*/*");
      if (!json) {
        continue;
      }
      if (as.isEmpty()) {
        return Optional.empty();
      }
      if (as.equals("Table") && g.equals("meta.k8s.io") && (v.equals("v1") || v.equals("v1beta1"))) {
        return Optional.of(v);
      }
    }
    return Optional.empty();
  }

  private static double quality(String clause) {
    for (String p : clause.split(";")) {
      String[] kv = p.split("=", 2);
      if (kv.length == 2 && kv[0].trim().equalsIgnoreCase("q")) {
        try {
          return Double.parseDouble(kv[1].trim());
        } catch (NumberFormatException e) {
          return 0;
        }
      }
    }
    return 1;
  }
}
