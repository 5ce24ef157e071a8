package io.listwatch.apiserver.apiextensions.cel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cel.common.types.CelType;
import dev.cel.common.types.SimpleType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * kube's ValidatingAdmissionPolicy type checker ({@code plugin/policy/validating/typechecking.go}),
 * which the policy status controller runs to fill {@code status.typeChecking}. It compiles the
 * policy's expressions again, with {@code object} and {@code oldObject} typed from the schema
 * of each kind the policy matches and {@code params} from the paramKind's schema, where the
 * admission plug-in types them {@code dyn}; what does not compile becomes a warning. Warnings
 * never change what the policy does.
 *
 * <p>The rules ported:
 * <ul>
 *   <li>The expressions checked: each {@code spec.validations[i].expression}, and its
 *       {@code messageExpression} when set, in order. The {@code variables} are compiled (typed)
 *       first so that the expressions see their types, but are not reported on themselves;
 *       {@code matchConditions} and {@code auditAnnotations} are not checked.</li>
 *   <li>The kinds: from {@code spec.matchConstraints.resourceRules}. A rule with a wildcard
 *       group or version is skipped; of its resources, wildcards and subresources
 *       ({@code *}, {@code x/y}) are skipped. Every group x version x resource (each sorted)
 *       is mapped to its kinds ({@link RestMapper}); unknown ones are skipped. Once a rule has
 *       yielded {@value #MAX_TYPES_TO_CHECK} kinds, no more are looked for. The kinds are
 *       checked sorted by group, version and kind.</li>
 *   <li>A kind whose schema is unknown ({@link SchemaResolver}) is not checked. A schema is
 *       typed as a resource root: {@code apiVersion}, {@code kind} and
 *       {@code metadata.name}/{@code generateName} are added when it lacks them.</li>
 *   <li>{@code params} is declared when the policy has a paramKind whose schema is known;
 *       a paramKind whose schema is unknown leaves {@code params} undeclared, as in kube.</li>
 *   <li>The warning of one expression: for each kind it fails on, {@code <gvk>: <issues>\n},
 *       joined by {@code \n}, where {@code <gvk>} is Go's form ({@code apps/v1, Kind=Deployment},
 *       {@code /v1, Kind=Pod}) and {@code <issues>} the checker's
 *       ({@code ERROR: <input>:1:7: undefined field 'replicas'} and the source lines).</li>
 * </ul>
 * Not ported: kube declares {@code authorizer} and types {@code request} and
 * {@code namespaceObject}; here they are undeclared and {@code dyn} as in the admission
 * plug-in ({@link AdmissionCompiler}).
 *
 * <p>Thread-safe if its mapper and resolver are: each check builds its own compilers.
 */
public final class TypeChecker {

  /** kube's {@code maxTypesToCheck}. */
  static final int MAX_TYPES_TO_CHECK = 10;

  /** A group, version and kind; {@link #toString()} is Go's {@code schema.GroupVersionKind}'s. */
  public record GroupVersionKind(String group, String version, String kind) {

    public GroupVersionKind {
      Objects.requireNonNull(group, "group");
      Objects.requireNonNull(version, "version");
      Objects.requireNonNull(kind, "kind");
    }

    @Override
    public String toString() {
      return group + "/" + version + ", Kind=" + kind;
    }
  }

  /** kube's {@code RESTMapper.KindsFor}: the kinds served at a group, version and resource. */
  @FunctionalInterface
  public interface RestMapper {
    /** The kinds of {@code resource} (a plural), empty when none is served. */
    List<GroupVersionKind> kindsFor(String group, String version, String resource);
  }

  /**
   * kube's {@code resolver.SchemaResolver}: a kind's OpenAPI v3 schema, every {@code $ref}
   * inlined.
   */
  @FunctionalInterface
  public interface SchemaResolver {
    /** The schema of {@code gvk}, empty when it is unknown (kube's {@code ErrSchemaNotFound}). */
    Optional<JsonNode> resolveSchema(GroupVersionKind gvk);
  }

  private static final Comparator<GroupVersionKind> ORDER = Comparator
      .comparing(GroupVersionKind::group).thenComparing(GroupVersionKind::version)
      .thenComparing(GroupVersionKind::kind);

  private final RestMapper restMapper;
  private final SchemaResolver schemaResolver;

  public TypeChecker(RestMapper restMapper, SchemaResolver schemaResolver) {
    this.restMapper = Objects.requireNonNull(restMapper, "restMapper");
    this.schemaResolver = Objects.requireNonNull(schemaResolver, "schemaResolver");
  }

  /**
   * The warnings of {@code policy} (a ValidatingAdmissionPolicy as JSON), in the order of its
   * expressions; empty when every expression checks (or none could be checked).
   */
  public List<ExpressionWarning> check(JsonNode policy) {
    JsonNode spec = policy.path("spec");
    List<Checked> kinds = contexts(spec);
    List<ExpressionWarning> warnings = new ArrayList<>();
    JsonNode validations = spec.path("validations");
    for (int i = 0; i < validations.size(); i++) {
      JsonNode v = validations.get(i);
      String at = "spec.validations[" + i + "]";
      checkExpression(kinds, v.path("expression").asText(""))
          .ifPresent(w -> warnings.add(new ExpressionWarning(at + ".expression", w)));
      String message = v.path("messageExpression").asText("");
      if (!message.isEmpty()) {
        checkExpression(kinds, message)
            .ifPresent(w -> warnings.add(new ExpressionWarning(at + ".messageExpression", w)));
      }
    }
    return warnings;
  }

  /** One kind checked against, and the compiler typed for it (with the policy's variables). */
  private record Checked(GroupVersionKind gvk, AdmissionCompiler compiler) {
  }

  /** kube's {@code CreateContext}: a typed compiler per kind whose schema is known. */
  private List<Checked> contexts(JsonNode spec) {
    Optional<GroupVersionKind> paramsGvk = paramsGvk(spec.path("paramKind"));
    List<Checked> out = new ArrayList<>();
    for (GroupVersionKind gvk : typesToCheck(spec)) {
      Optional<JsonNode> objectSchema = schemaResolver.resolveSchema(gvk);
      if (objectSchema.isEmpty()) {
        continue;
      }
      DeclTypes types = new DeclTypes();
      CelType objectType = declType(types, objectSchema.get(), gvk.kind());
      Optional<CelType> paramsType = paramsGvk.flatMap(schemaResolver::resolveSchema)
          .map(s -> declType(types, s, "params." + paramsGvk.get().kind()));
      AdmissionCompiler compiler = AdmissionCompiler.typed(objectType, paramsType, types.provider());
      for (JsonNode variable : spec.path("variables")) {
        compiler.declareChecked(variable.path("name").asText(""),
            variable.path("expression").asText(""));
      }
      out.add(new Checked(gvk, compiler));
    }
    return out;
  }

  /** kube's {@code CheckExpression} and {@code TypeCheckingResults.String}. */
  private static Optional<String> checkExpression(List<Checked> kinds, String expression) {
    List<String> messages = new ArrayList<>();
    for (Checked k : kinds) {
      k.compiler().check(expression).ifPresent(issues -> messages.add(k.gvk() + ": " + issues + "\n"));
    }
    return messages.isEmpty() ? Optional.empty() : Optional.of(String.join("\n", messages));
  }

  /**
   * kube's {@code SchemaDeclType(schema, isResourceRoot=true)}: a typed object gets
   * {@code apiVersion}, {@code kind} and a {@code metadata} with {@code name} and
   * {@code generateName} unless it has them all ({@code WithTypeAndObjectMeta}).
   */
  private static CelType declType(DeclTypes types, JsonNode schema, String name) {
    if (!schema.isObject() || Schemas.isDyn(schema) || !Schemas.type(schema).equals("object")) {
      return types.typeOf(schema, false, name);
    }
    JsonNode props = schema.path("properties");
    JsonNode meta = props.path("metadata");
    if (Schemas.type(props.path("kind")).equals("string")
        && Schemas.type(props.path("apiVersion")).equals("string")
        && Schemas.type(meta).equals("object")
        && Schemas.type(meta.path("properties").path("name")).equals("string")
        && Schemas.type(meta.path("properties").path("generateName")).equals("string")) {
      return types.typeOf(schema, false, name);
    }
    JsonNodeFactory json = JsonNodeFactory.instance;
    ObjectNode withMeta = ((ObjectNode) schema).deepCopy();
    ObjectNode properties = withMeta.with("properties");
    properties.set("kind", json.objectNode().put("type", "string"));
    properties.set("apiVersion", json.objectNode().put("type", "string"));
    ObjectNode metadata = json.objectNode().put("type", "object");
    metadata.putObject("properties").<ObjectNode>set("name", json.objectNode().put("type", "string"))
        .set("generateName", json.objectNode().put("type", "string"));
    properties.set("metadata", metadata);
    return types.typeOf(withMeta, false, name);
  }

  /** The paramKind's group, version and kind; empty without one or with a bad apiVersion. */
  private static Optional<GroupVersionKind> paramsGvk(JsonNode paramKind) {
    if (!paramKind.isObject()) {
      return Optional.empty();
    }
    String apiVersion = paramKind.path("apiVersion").asText("");
    String[] gv = apiVersion.split("/", -1);
    if (gv.length > 2 || apiVersion.isEmpty()) {
      return Optional.empty();
    }
    String group = gv.length == 2 ? gv[0] : "";
    String version = gv.length == 2 ? gv[1] : gv[0];
    return Optional.of(new GroupVersionKind(group, version, paramKind.path("kind").asText("")));
  }

  /** kube's {@code typesToCheck}: the kinds of the resource rules, sorted, at most a rule's worth past the limit. */
  List<GroupVersionKind> typesToCheck(JsonNode spec) {
    TreeSet<GroupVersionKind> gvks = new TreeSet<>(ORDER);
    for (JsonNode rule : spec.path("matchConstraints").path("resourceRules")) {
      List<String> groups = withoutWildcards(rule.path("apiGroups"), true);
      List<String> versions = withoutWildcards(rule.path("apiVersions"), true);
      List<String> resources = withoutWildcards(rule.path("resources"), false);
      if (groups.isEmpty() || versions.isEmpty() || resources.isEmpty()) {
        continue;
      }
      int count = 0;
      for (String group : groups) {
        for (String version : versions) {
          for (String resource : resources) {
            for (GroupVersionKind gvk : restMapper.kindsFor(group, version, resource)) {
              if (gvk.kind().isEmpty()) {
                continue;
              }
              gvks.add(gvk);
              if (++count == MAX_TYPES_TO_CHECK) {
                return List.copyOf(gvks);
              }
            }
          }
        }
      }
    }
    return List.copyOf(gvks);
  }

  /**
   * The rule's values, sorted. Groups and versions: none at all when one is a wildcard. Resources:
   * wildcards and subresources left out.
   */
  private static List<String> withoutWildcards(JsonNode values, boolean allOrNothing) {
    List<String> out = new ArrayList<>();
    for (JsonNode v : values) {
      String s = v.asText("");
      boolean skip = allOrNothing ? s.contains("*") : s.contains("*") || s.contains("/");
      if (skip && allOrNothing) {
        return List.of();
      }
      if (!skip) {
        out.add(s);
      }
    }
    out.sort(Comparator.naturalOrder());
    return out;
  }
}
