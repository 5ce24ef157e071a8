package io.listwatch.client.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Reasons;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.api.meta.NameGenerator;
import io.listwatch.api.meta.ObjectMetaRules;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.client.ResourceType;
import java.time.Instant;
import java.util.List;

/**
 * How the tracker applies the server's metadata rules ({@link ObjectMetaRules}): the request's
 * namespace is the object's own (the fake client fills in the default namespace before, as
 * the HTTP client does), and a given name is checked with kube's path-segment rule, the one
 * check the fake needs to keep its keys well-formed (the server checks each type's full name
 * syntax). Stateless; thread-safe.
 */
final class FakeObjectMeta {

  private static final NameGenerator NAMES = new NameGenerator();

  private FakeObjectMeta() {
  }

  /**
   * Makes {@code object} (a fresh tree, modified in place) ready to store as a new object.
   *
   * @throws StatusException as {@link ObjectMetaRules#prepareForCreate}; 422 for a name that
   *     cannot be a URL path segment
   */
  static void prepareForCreate(ResourceType type, ObjectNode object, Instant now) {
    String givenName = Trees.meta(object, "name");
    ObjectMetaRules.prepareForCreate(type, object, Trees.meta(object, "namespace"), now, NAMES);
    if (!givenName.isEmpty()) {
      List<String> problems = NameSyntax.isValidPathSegmentName(givenName);
      if (!problems.isEmpty()) {
        throw StatusException.invalid(type.group(), type.kind(), givenName, problems.stream()
            .map(msg -> new Status.Cause(Reasons.FIELD_VALUE_INVALID,
                "Invalid value: \"" + givenName + "\": " + msg, "metadata.name"))
            .toList());
      }
    }
  }

  /**
   * The object to store for an update of {@code current} to {@code updated} (a fresh tree,
   * which may be modified), as {@link ObjectMetaRules#prepareForUpdate} prepares it.
   *
   * @throws StatusException as {@link ObjectMetaRules#prepareForUpdate}; 422 for a finalizer
   *     added during deletion
   */
  static ObjectNode prepareForUpdate(ResourceType type, ObjectNode updated, ObjectNode current, boolean statusOnly) {
    String name = Trees.meta(current, "name");
    ObjectNode result = ObjectMetaRules.prepareForUpdate(type, updated, current, Trees.meta(current, "namespace"),
        name, statusOnly);
    ObjectMetaRules.checkNoNewFinalizersWhileDeleting(type, current, result, name);
    return result;
  }
}
