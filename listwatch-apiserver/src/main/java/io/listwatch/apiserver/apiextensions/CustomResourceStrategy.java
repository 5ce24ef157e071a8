package io.listwatch.apiserver.apiextensions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.api.apply.FieldManager;
import io.listwatch.api.apply.StructuralApplySchema;
import io.listwatch.api.meta.ObjectMetaRules;
import io.listwatch.api.schema.Defaulter;
import io.listwatch.api.schema.FieldError;
import io.listwatch.api.schema.Pruner;
import io.listwatch.api.schema.SchemaValidator;
import io.listwatch.apiserver.apiextensions.cel.CelValidator;
import io.listwatch.apiserver.openapi.FieldValidation;
import io.listwatch.apiserver.registry.CustomResourceVersion;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.rest.WriteStrategy;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The writes of one served version of a custom resource, as kube's apiextensions decoder and
 * {@code customResourceStrategy} treat them, by the version's {@code openAPIV3Schema}:
 * <ul>
 *   <li>decoding ({@link #decode}): fields the schema does not specify are pruned (unless
 *       {@code x-kubernetes-preserve-unknown-fields}), then the schema's defaults are set.
 *       Unknown fields of the root's {@code metadata} are pruned too (kube decodes it as ObjectMeta).
 *       {@code fieldValidation=Strict} refuses pruned and repeated fields (400,
 *       {@code CronTab in version "v1" cannot be handled as a CronTab: strict decoding error:
 *       unknown field "spec.foo"}; for a patch, from {@code strict decoding error:} on),
 *       {@code Warn} (the default) sends each as a warning, {@code Ignore} drops them silently.
 *       Pruned paths are reported sorted, as kube sorts them;</li>
 *   <li>updates ({@link #prepareForUpdate}): with the status subresource, {@code /status}
 *       changes the status alone (the rest, metadata included apart from managedFields, is the
 *       stored object's; the main resource's status is the stored one already); the generation
 *       moves by one when anything but {@code metadata} changed;</li>
 *   <li>validation ({@link #validate}): the schema's value validations (422 Invalid,
 *       {@code CronTab.stable.example.com "c" is invalid: spec.replicas: Invalid value: ...}),
 *       the metadata of embedded resources ({@link EmbeddedObjectMeta}), then the CEL rules
 *       ({@link #addRuleErrors}).</li>
 * </ul>
 *
 * <p>Built once per served version ({@link #forDefinition}) when the definition is served;
 * immutable and thread-safe (the schema tree is never modified).
 */
public final class CustomResourceStrategy implements WriteStrategy {

  private final ResourceDefinition def;
  private final CustomResourceVersion version;
  /** The version's openAPIV3Schema, or null when it declares none (nothing is pruned or checked). */
  private final JsonNode schema;
  private final FieldManager fieldManager;
  /** The version's x-kubernetes-validations, compiled once; null without a schema. */
  private final CelValidator rules;

  CustomResourceStrategy(ResourceDefinition def, CustomResourceVersion version) {
    this.def = def;
    this.version = version;
    JsonNode s = version.schema();
    this.schema = s.isObject() ? s : null;
    this.fieldManager = new FieldManager(StructuralApplySchema.of(schema == null ? missingSchema() : schema));
    this.rules = schema == null ? null : CelValidator.compile(schema);
  }

  /** The strategy of a served custom resource, or null for a definition that is not one. */
  public static WriteStrategy forDefinition(ResourceDefinition def) {
    Optional<CustomResourceVersion> version = def.customResource();
    return version.map(v -> (WriteStrategy) new CustomResourceStrategy(def, v)).orElse(null);
  }

  private static JsonNode missingSchema() {
    ObjectNode any = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode();
    any.put("type", "object").put("x-kubernetes-preserve-unknown-fields", true);
    return any;
  }

  @Override
  public List<String> decode(FieldValidation.Directive directive, byte[] json, ObjectNode object, boolean patch) {
    List<String> problems = new ArrayList<>();
    if (directive != FieldValidation.Directive.IGNORE && json != null && json.length > 0) {
      problems.addAll(FieldValidation.duplicateFields(json));
    }
    List<String> pruned = new ArrayList<>(pruneObjectMeta(object));
    if (schema != null) {
      pruned.addAll(Pruner.prune(schema, object));
    }
    pruned.sort(null);
    pruned.forEach(p -> problems.add(Pruner.unknownField(p)));
    if (directive == FieldValidation.Directive.STRICT && !problems.isEmpty()) {
      String detail = "strict decoding error: " + String.join(", ", problems);
      throw StatusException.badRequest(patch ? detail : def.kind() + " in version \"" + def.version()
          + "\" cannot be handled as a " + def.kind() + ": " + detail);
    }
    if (schema != null) {
      Defaulter.apply(schema, object);
    }
    return directive == FieldValidation.Directive.WARN ? problems : List.of();
  }

  /** The fields of kube's ObjectMeta; a custom resource's metadata is decoded as one, dropping the rest. */
  private static final java.util.Set<String> OBJECT_META = java.util.Set.of("name", "generateName", "namespace",
      "selfLink", "uid", "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp",
      "deletionGracePeriodSeconds", "labels", "annotations", "ownerReferences", "finalizers", "managedFields");

  /** Removes the fields of the root's {@code metadata} that ObjectMeta does not have; their paths. */
  private static List<String> pruneObjectMeta(ObjectNode object) {
    if (!(object.get("metadata") instanceof ObjectNode meta)) {
      return List.of();
    }
    List<String> pruned = new ArrayList<>();
    for (Iterator<String> it = meta.fieldNames(); it.hasNext(); ) {
      String field = it.next();
      if (!OBJECT_META.contains(field)) {
        pruned.add("metadata." + field);
        it.remove();
      }
    }
    return pruned;
  }

  @Override
  public void prepareForUpdate(ObjectNode updated, ObjectNode current, boolean status) {
    ObjectNode meta = ObjectMetaRules.metadata(updated);
    if (status && def.hasStatus()) {
      // kube's status strategy: the whole stored object, with the new status and managedFields
      JsonNode managedFields = meta.get("managedFields");
      ObjectNode stored = ObjectMetaRules.metadata(current).deepCopy();
      stored.remove("resourceVersion");
      if (managedFields == null) {
        stored.remove("managedFields");
      } else {
        stored.set("managedFields", managedFields);
      }
      updated.set("metadata", stored);
      return;
    }
    long generation = ObjectMetaRules.metadata(current).path("generation").asLong(0);
    meta.put("generation", equalButMetadata(updated, current) ? generation : generation + 1);
  }

  /** Whether two objects hold the same fields apart from {@code metadata}. */
  private static boolean equalButMetadata(ObjectNode a, ObjectNode b) {
    int fieldsA = a.size() - (a.has("metadata") ? 1 : 0);
    int fieldsB = b.size() - (b.has("metadata") ? 1 : 0);
    if (fieldsA != fieldsB) {
      return false;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = a.properties().iterator(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (!e.getKey().equals("metadata") && !e.getValue().equals(b.get(e.getKey()))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void validate(ObjectNode object, ObjectNode old, boolean status) {
    List<FieldError> errors = schema == null ? List.of() : SchemaValidator.validate(schema, object);
    List<Status.Cause> causes = new ArrayList<>();
    errors.forEach(e -> causes.add(e.toCause()));
    if (schema != null) {
      causes.addAll(EmbeddedObjectMeta.validate(schema, object));
    }
    List<FieldError> ruleErrors = new ArrayList<>();
    addRuleErrors(object, old, errors, ruleErrors);
    ruleErrors.forEach(e -> causes.add(e.toCause()));
    if (!causes.isEmpty()) {
      JsonNode name = object.path("metadata").path("name");
      throw StatusException.invalid(def.group(), def.kind(), name.isTextual() ? name.textValue() : "", causes);
    }
  }

  /**
   * Where the errors of the version's CEL rules ({@code x-kubernetes-validations}) are added:
   * the single call site for their evaluation, after the schema's own checks, on the object
   * about to be stored (pruned and defaulted), by {@link CelValidator} (compiled once, in the
   * constructor).
   *
   * @param old the stored object for transition rules ({@code oldSelf}), null on create
   * @param schemaErrors the schema's errors for this write (kube skips the rules after some)
   * @param ruleErrors where the rules' errors go
   */
  void addRuleErrors(ObjectNode object, ObjectNode old, List<FieldError> schemaErrors, List<FieldError> ruleErrors) {
    if (rules != null && rules.hasRules()) {
      ruleErrors.addAll(rules.validateAfterSchema(schemaErrors, object, old));
    }
  }

  @Override
  public FieldManager fieldManager() {
    return fieldManager;
  }

  /** The served version this strategy writes. */
  CustomResourceVersion version() {
    return version;
  }
}
