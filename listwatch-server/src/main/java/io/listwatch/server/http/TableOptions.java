package io.listwatch.server.http;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.request.ApiRequest;
import java.util.List;
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
   * The Table version ({@code v1} or {@code v1beta1}) the Accept header prefers over plain
   * JSON; empty when JSON comes first or nothing matches.
   */
  static Optional<String> tableVersion(String accept) {
    return MediaRange.preferredConversion(accept, "Table", "meta.k8s.io", List.of("v1", "v1beta1"));
  }
}
