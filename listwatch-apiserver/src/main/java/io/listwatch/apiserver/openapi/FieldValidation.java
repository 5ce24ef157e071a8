package io.listwatch.apiserver.openapi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * kube's server-side field validation of one built-in kind: the {@code fieldValidation} query
 * parameter of create, update and patch decides what happens to fields of a JSON body that the
 * kind does not have, and to keys an object repeats.
 * <ul>
 *   <li>{@code Strict}: the request fails, 400 BadRequest, with every such field in one message
 *       ({@code Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown
 *       field "spec.foo", duplicate field "metadata.name"}); kubectl asks for this by default.</li>
 *   <li>{@code Warn} (kube's default when the parameter is absent): the request goes on, and each
 *       field becomes a {@code Warning: 299 - "unknown field \"spec.foo\""} header.</li>
 *   <li>{@code Ignore}: the request goes on silently.</li>
 * </ul>
 * Whatever the directive, a value its field cannot hold (a string for an integer) fails the
 * request with kube's decoding error ({@link FieldTypes}), unknown fields are not stored (kube decodes into its typed structs,
 * which drop them), and of repeated keys the last one wins. Protobuf bodies are not checked
 * (protobuf has no such thing as an unknown JSON field).
 *
 * <p>Immutable and thread-safe.
 */
public final class FieldValidation {

  /** The values of the {@code fieldValidation} query parameter. */
  public enum Directive {
    STRICT, WARN, IGNORE;

    /**
     * Reads the parameter: absent or empty is {@link #WARN}, as kube; anything but
     * {@code Strict}, {@code Warn} and {@code Ignore} is refused (422, as kube's validation of
     * {@code optionsKind}, e.g. CreateOptions).
     */
    public static Directive parse(String value, String optionsKind) {
      return switch (value) {
        case "", "Warn" -> WARN;
        case "Strict" -> STRICT;
        case "Ignore" -> IGNORE;
        default -> throw StatusException.invalid("meta.k8s.io", optionsKind, "", List.of(new Status.Cause(
            "FieldValueNotSupported", "Unsupported value: \"" + value
                + "\": supported values: \"Ignore\", \"Strict\", \"Warn\"", "fieldValidation")));
      };
    }
  }

  private final Catalog catalog;
  private final String definition;
  private final String kind;
  private final String version;

  private FieldValidation(Catalog catalog, String definition, String kind, String version) {
    this.catalog = catalog;
    this.definition = definition;
    this.kind = kind;
    this.version = version;
  }

  /**
   * The validations of built-in kinds, sharing one set of schemas, derived on first use (so that
   * a server starts without paying for them). Thread-safe: the schemas are published once
   * through a volatile field.
   */
  public static final class Catalog {
    private final ProtoSchemas schemas;
    private volatile UnknownFields fields;
    private volatile FieldTypes types;

    public Catalog(ProtoSchemas schemas) {
      this.schemas = schemas;
    }

    /**
     * The validation of a kind of a built-in group. A kind no schema describes gets a validation
     * that checks nothing (its bodies are stored as sent); which is which is decided on first
     * use, when the schemas are loaded.
     */
    public FieldValidation forKind(String group, String version, String kind) {
      return new FieldValidation(this, ProtoSchemas.definitionName(group, version, kind), kind, version);
    }

    UnknownFields fields() {
      UnknownFields f = fields;
      if (f == null) {
        synchronized (this) {
          f = fields;
          if (f == null) {
            Map<String, ObjectNode> all = schemas.all(ProtoSchemas.Dialect.OPENAPI_3);
            types = new FieldTypes(all);
            f = new UnknownFields(all);
            fields = f; // published last: a reader that sees it sees types too
          }
        }
      }
      return f;
    }

    FieldTypes types() {
      fields();
      return types;
    }
  }

  /**
   * The keys {@code json} repeats anywhere, in document order, each as kube words it
   * ({@code duplicate field "metadata.name"}); for bodies no built-in schema describes.
   *
   * @throws StatusException 400 when {@code json} is not well-formed JSON
   */
  public static List<String> duplicateFields(byte[] json) {
    try {
      return UnknownFields.duplicates(json);
    } catch (IOException e) {
      throw StatusException.badRequest("the body of the request is not valid JSON: " + e.getMessage());
    }
  }

  /**
   * Fails with kube's decoding error when a value of {@code object} has a type its field cannot
   * hold; then turns its nulls into Go's zero values ({@link FieldTypes#zeroNulls}), as kube's
   * decoding into its types does.
   */
  private void checkTypes(ObjectNode object) {
    catalog.types().firstMismatch(definition, object).ifPresent(m -> {
      throw StatusException.badRequest(kind + " in version \"" + version + "\" cannot be handled as a " + kind
          + ": " + m);
    });
    catalog.types().zeroNulls(definition, object);
  }

  /**
   * Checks a create or update body: {@code json} as received, {@code object} as parsed (the
   * last of repeated keys kept). Prunes unknown fields from {@code object}.
   *
   * @return the warnings to send (empty unless {@link Directive#WARN})
   * @throws StatusException 400 for {@link Directive#STRICT} when a field is unknown or repeated,
   *     and whatever the directive when a value has a type its field cannot hold ({@link FieldTypes})
   */
  public List<String> checkObject(Directive directive, byte[] json, ObjectNode object) {
    if (!catalog.fields().knows(definition)) {
      return List.of();
    }
    checkTypes(object);
    List<String> problems = List.of();
    if (directive != Directive.IGNORE) {
      try {
        problems = catalog.fields().find(definition, json);
      } catch (IOException e) {
        throw StatusException.badRequest("the body of the request is not valid JSON: " + e.getMessage());
      }
    }
    if (directive == Directive.STRICT && !problems.isEmpty()) {
      throw StatusException.badRequest(kind + " in version \"" + version + "\" cannot be handled as a " + kind
          + ": strict decoding error: " + String.join(", ", problems));
    }
    catalog.fields().findInTree(definition, object, true);
    return directive == Directive.WARN ? problems : List.of();
  }

  /**
   * Checks a patch: the keys {@code patch} (its JSON body, or null when it is not JSON) repeats,
   * and the unknown fields of {@code patched}, the object it produced, which are pruned.
   *
   * @return the warnings to send (empty unless {@link Directive#WARN})
   * @throws StatusException 400 for {@link Directive#STRICT} when a field is unknown or repeated,
   *     and whatever the directive when a value has a type its field cannot hold
   */
  public List<String> checkPatched(Directive directive, byte[] patch, ObjectNode patched) {
    if (!catalog.fields().knows(definition)) {
      return List.of();
    }
    checkTypes(patched);
    List<String> problems = new ArrayList<>();
    if (directive != Directive.IGNORE && patch != null) {
      try {
        problems.addAll(UnknownFields.duplicates(patch));
      } catch (IOException e) {
        throw StatusException.badRequest("the body of the request is not valid JSON: " + e.getMessage());
      }
    }
    problems.addAll(catalog.fields().findInTree(definition, patched, directive != Directive.STRICT));
    if (directive == Directive.STRICT && !problems.isEmpty()) {
      throw StatusException.badRequest("strict decoding error: " + String.join(", ", problems));
    }
    return directive == Directive.WARN ? problems : List.of();
  }
}
