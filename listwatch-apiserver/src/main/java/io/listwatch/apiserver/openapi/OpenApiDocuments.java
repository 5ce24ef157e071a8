package io.listwatch.apiserver.openapi;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.openapi.ProtoSchemas.Dialect;
import io.listwatch.apiserver.registry.ResourceDefinition;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The OpenAPI documents of a set of served resources, as kube-apiserver serves them: Swagger
 * 2.0 at {@code /openapi/v2}, and OpenAPI 3.0 at {@code /openapi/v3} (an index of
 * group-versions) and {@code /openapi/v3/api/v1}, {@code /openapi/v3/apis/{group}/{version}}.
 * Each document is serialized once, when this is built, and carries its hash (SHA-512, upper-case
 * hex, as kube's index names it) for {@code ETag} and the index's {@code ?hash=} links.
 *
 * <p>Operations carry what clients look for: {@code x-kubernetes-group-version-kind} and
 * {@code x-kubernetes-action}, and on POST, PUT and PATCH the {@code dryRun},
 * {@code fieldManager} and {@code fieldValidation} query parameters (kubectl validates through
 * the server, with {@code fieldValidation=Strict}, when a kind's PATCH operation lists
 * {@code fieldValidation}). Definitions of built-in kinds come from {@link ProtoSchemas} (resources
 * whose kind it does not know are left out); those of custom resources from their version's
 * schema ({@link CustomResourceSchemas}), whose PATCH operations list the patch types kube
 * accepts for them (JSON patch, merge patch and apply, not strategic merge: kubectl's
 * {@code apply} reads that list to choose its patch).
 *
 * <p>Thread-safe: immutable, apart from the v2 protobuf form, built on first use and published
 * through a volatile field.
 */
public final class OpenApiDocuments {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";
  private static final String KUBE_VERSION = "v1.32.0";
  /** The patch types kube accepts for custom resources: no strategic merge. */
  private static final List<String> CUSTOM_PATCH_TYPES = List.of("application/json-patch+json",
      "application/merge-patch+json", "application/apply-patch+yaml");

  /** A serialized document (JSON, or the v2 document's protobuf form) and its hash. */
  public record Document(byte[] bytes, String hash) {
    /** The strong ETag of this document: its hash, quoted. */
    public String etag() {
      return "\"" + hash + "\"";
    }
  }

  private final Document v2;
  /** The v2 document in gnostic's protobuf; built on first use. */
  private volatile Document v2Protobuf;
  private final Document v3Index;
  /** By index key: {@code api/v1}, {@code apis/apps/v1}. */
  private final Map<String, Document> v3;

  private OpenApiDocuments(Document v2, Document v3Index, Map<String, Document> v3) {
    this.v2 = v2;
    this.v3Index = v3Index;
    this.v3 = v3;
  }

  /** Builds every document for {@code resources}. */
  public static OpenApiDocuments build(List<ResourceDefinition> resources, ProtoSchemas schemas) {
    Map<String, List<ResourceDefinition>> byGroupVersion = new TreeMap<>();
    for (ResourceDefinition def : resources) {
      if (def.customResource().isEmpty() && schemas.definitionFor(def.group(), def.version(), def.kind()).isEmpty()) {
        continue;
      }
      String key = def.group().isEmpty() ? "api/" + def.version() : "apis/" + def.group() + "/" + def.version();
      byGroupVersion.computeIfAbsent(key, k -> new ArrayList<>()).add(def);
    }
    Map<String, Document> v3 = new LinkedHashMap<>();
    ObjectNode indexPaths = JSON.objectNode();
    for (Map.Entry<String, List<ResourceDefinition>> e : byGroupVersion.entrySet()) {
      Document doc = document(write(new Writer(schemas, Dialect.OPENAPI_3).document(e.getValue())));
      v3.put(e.getKey(), doc);
      indexPaths.set(e.getKey(), JSON.objectNode()
          .put("serverRelativeURL", "/openapi/v3/" + e.getKey() + "?hash=" + doc.hash()));
    }
    ObjectNode index = JSON.objectNode();
    index.set("paths", indexPaths);
    List<ResourceDefinition> all = byGroupVersion.values().stream().flatMap(List::stream).toList();
    Document v2 = document(write(new Writer(schemas, Dialect.SWAGGER_2).document(all)));
    return new OpenApiDocuments(v2, document(write(index)), Map.copyOf(v3));
  }

  /** The Swagger 2.0 document of every resource. */
  public Document v2() {
    return v2;
  }

  /**
   * The Swagger 2.0 document in gnostic's protobuf ({@link OpenApiV2Protobuf}), as kubectl
   * downloads it; converted on first use (two callers racing convert it twice, harmlessly).
   */
  public Document v2Protobuf() {
    Document d = v2Protobuf;
    if (d == null) {
      d = document(OpenApiV2Protobuf.document(v2.bytes()));
      v2Protobuf = d;
    }
    return d;
  }

  /** The OpenAPI 3.0 index: {@code {"paths":{"api/v1":{"serverRelativeURL":"/openapi/v3/api/v1?hash=.."}}}}. */
  public Document v3Index() {
    return v3Index;
  }

  /** The OpenAPI 3.0 document of one group-version, by its index key ({@code api/v1}, {@code apis/apps/v1}). */
  public Optional<Document> v3(String key) {
    return Optional.ofNullable(v3.get(key));
  }

  private static byte[] write(ObjectNode node) {
    try {
      return MAPPER.writeValueAsBytes(node);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Document document(byte[] json) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-512").digest(json);
      return new Document(json, HexFormat.of().withUpperCase().formatHex(digest));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Writes one document in one dialect. Confined to the building thread. */
  private static final class Writer {
    private final ProtoSchemas schemas;
    private final Dialect dialect;
    /** Definition name to the GVKs it is served as. */
    private final Map<String, Set<List<String>>> gvks = new TreeMap<>();
    /** The definitions of the custom resources written, by name. */
    private final Map<String, ObjectNode> custom = new TreeMap<>();
    /** GVKs ("group/version/kind") of the custom kinds written. */
    private final Set<String> customKinds = new java.util.HashSet<>();

    Writer(ProtoSchemas schemas, Dialect dialect) {
      this.schemas = schemas;
      this.dialect = dialect;
    }

    ObjectNode document(List<ResourceDefinition> resources) {
      ObjectNode paths = JSON.objectNode();
      for (ResourceDefinition def : resources) {
        def.customResource().ifPresent(cr -> {
          custom.putAll(CustomResourceSchemas.definitions(def, cr, dialect));
          customKinds.add(def.group() + "/" + def.version() + "/" + def.kind());
          customKinds.add(def.group() + "/" + def.version() + "/" + def.listKind());
        });
      }
      for (ResourceDefinition def : resources) {
        addPaths(paths, def);
      }
      Set<String> roots = new java.util.TreeSet<>(gvks.keySet());
      roots.removeAll(custom.keySet());
      if (!custom.isEmpty()) {
        roots.addAll(CustomResourceSchemas.REFERENCED);
      }
      Map<String, ObjectNode> definitions = new TreeMap<>(schemas.closure(roots, dialect));
      definitions.putAll(custom);
      ObjectNode defs = JSON.objectNode();
      definitions.forEach((name, schema) -> {
        Set<List<String>> served = gvks.get(name);
        if (served != null) {
          ArrayNode tags = schema.putArray("x-kubernetes-group-version-kind");
          served.forEach(g -> tags.add(gvk(g.get(0), g.get(1), g.get(2))));
        }
        defs.set(name, schema);
      });
      ObjectNode doc = JSON.objectNode();
      if (dialect == Dialect.SWAGGER_2) {
        doc.put("swagger", "2.0");
      } else {
        doc.put("openapi", "3.0.0");
      }
      doc.set("info", JSON.objectNode().put("title", "Kubernetes").put("version", KUBE_VERSION));
      doc.set("paths", paths);
      if (dialect == Dialect.SWAGGER_2) {
        doc.set("definitions", defs);
      } else {
        doc.set("components", JSON.objectNode().set("schemas", defs));
      }
      return doc;
    }

    private String served(String group, String version, String kind) {
      String name = customKinds.contains(group + "/" + version + "/" + kind)
          ? CustomResourceSchemas.definitionName(group, version, kind)
          : schemas.definitionFor(group, version, kind).orElse(null);
      if (name != null) {
        gvks.computeIfAbsent(name, n -> new LinkedHashSet<>()).add(List.of(group, version, kind));
      }
      return name;
    }

    private void addPaths(ObjectNode paths, ResourceDefinition def) {
      String kindDef = served(def.group(), def.version(), def.kind());
      String listDef = served(def.group(), def.version(), def.listKind());
      List<String> verbs = def.verbs();
      String root = def.group().isEmpty() ? "/api/" + def.version() : "/apis/" + def.group() + "/" + def.version();
      String collection = root + (def.namespaced() ? "/namespaces/{namespace}/" : "/") + def.plural();
      String item = collection + "/{name}";
      String scope = def.namespaced() ? "Namespaced" : "";
      String id = operationGroup(def.group(), def.version());
      ObjectNode coll = JSON.objectNode();
      if (verbs.contains("list") && listDef != null) {
        coll.set("get", operation("list" + id + scope + def.kind(), "list", def, def.kind(), ref(listDef), null));
      }
      if (verbs.contains("create")) {
        coll.set("post", operation("create" + id + scope + def.kind(), "post", def, def.kind(), ref(kindDef), kindDef));
      }
      if (verbs.contains("deletecollection")) {
        coll.set("delete", operation("deletecollection" + id + scope + def.kind(), "deletecollection", def,
            def.kind(), ref(META + "Status"), null));
      }
      addPath(paths, collection, coll, def.namespaced(), false);
      ObjectNode one = JSON.objectNode();
      if (verbs.contains("get")) {
        one.set("get", operation("read" + id + scope + def.kind(), "get", def, def.kind(), ref(kindDef), null));
      }
      if (verbs.contains("update")) {
        one.set("put", operation("replace" + id + scope + def.kind(), "put", def, def.kind(), ref(kindDef), kindDef));
      }
      if (verbs.contains("patch")) {
        one.set("patch", operation("patch" + id + scope + def.kind(), "patch", def, def.kind(), ref(kindDef), META + "Patch"));
      }
      if (verbs.contains("delete")) {
        one.set("delete", operation("delete" + id + scope + def.kind(), "delete", def, def.kind(),
            ref(def.returnsDeletedObject() ? kindDef : META + "Status"), null));
      }
      addPath(paths, item, one, def.namespaced(), true);
      if (def.namespaced() && verbs.contains("list") && listDef != null) {
        ObjectNode all = JSON.objectNode();
        all.set("get", operation("list" + id + def.kind() + "ForAllNamespaces", "list", def, def.kind(), ref(listDef), null));
        addPath(paths, root + "/" + def.plural(), all, false, false);
      }
      if (def.hasStatus()) {
        addSubresource(paths, item, def, "status", def.group(), def.version(), def.kind(), List.of("get", "patch", "update"));
      }
      def.subresources().forEach((name, sub) -> addSubresource(paths, item, def, name, sub.group(), sub.version(),
          sub.kind(), sub.verbs()));
    }

    private void addSubresource(ObjectNode paths, String item, ResourceDefinition def, String name, String group,
        String version, String kind, List<String> verbs) {
      String kindDef = served(group, version, kind);
      if (kindDef == null) {
        return;
      }
      String suffix = Character.toUpperCase(name.charAt(0)) + name.substring(1);
      String id = operationGroup(def.group(), def.version()) + (def.namespaced() ? "Namespaced" : "") + def.kind() + suffix;
      ObjectNode ops = JSON.objectNode();
      if (verbs.contains("get")) {
        ops.set("get", operation("read" + id, "get", def, kind, ref(kindDef), null, group, version));
      }
      if (verbs.contains("create")) {
        ops.set("post", operation("create" + id, "post", def, kind, ref(kindDef), kindDef, group, version));
      }
      if (verbs.contains("update")) {
        ops.set("put", operation("replace" + id, "put", def, kind, ref(kindDef), kindDef, group, version));
      }
      if (verbs.contains("patch")) {
        ops.set("patch", operation("patch" + id, "patch", def, kind, ref(kindDef), META + "Patch", group, version));
      }
      addPath(paths, item + "/" + name, ops, def.namespaced(), true);
    }

    private void addPath(ObjectNode paths, String path, ObjectNode ops, boolean namespaced, boolean named) {
      if (ops.isEmpty()) {
        return;
      }
      ArrayNode params = ops.putArray("parameters");
      if (named) {
        params.add(pathParameter("name"));
      }
      if (namespaced) {
        params.add(pathParameter("namespace"));
      }
      params.add(queryParameter("pretty"));
      paths.set(path, ops);
    }

    private ObjectNode operation(String id, String action, ResourceDefinition def, String kind, ObjectNode response,
        String bodyDef) {
      return operation(id, action, def, kind, response, bodyDef, def.group(), def.version());
    }

    private ObjectNode operation(String id, String action, ResourceDefinition def, String kind, ObjectNode response,
        String bodyDef, String group, String version) {
      ObjectNode op = JSON.objectNode();
      op.put("operationId", id);
      op.putArray("tags").add(operationGroup(def.group(), def.version()));
      ArrayNode params = op.putArray("parameters");
      switch (action) {
        case "list" -> List.of("allowWatchBookmarks", "continue", "fieldSelector", "labelSelector", "limit",
            "resourceVersion", "resourceVersionMatch", "sendInitialEvents", "timeoutSeconds", "watch")
            .forEach(p -> params.add(queryParameter(p)));
        case "post", "put", "patch" -> {
          List.of("dryRun", "fieldManager", "fieldValidation").forEach(p -> params.add(queryParameter(p)));
          if (action.equals("patch")) {
            params.add(queryParameter("force"));
          }
        }
        case "delete", "deletecollection" -> List.of("dryRun", "gracePeriodSeconds", "propagationPolicy")
            .forEach(p -> params.add(queryParameter(p)));
        default -> { }
      }
      if (bodyDef != null) {
        List<String> types = !action.equals("patch") ? List.of("*/*")
            : def.customResource().isPresent() ? CUSTOM_PATCH_TYPES : patchTypes();
        if (dialect == Dialect.SWAGGER_2) {
          ObjectNode body = JSON.objectNode().put("in", "body").put("name", "body").put("required", true);
          body.set("schema", ref(bodyDef));
          params.add(body);
          ArrayNode consumes = op.putArray("consumes");
          types.forEach(consumes::add);
        } else {
          ObjectNode content = JSON.objectNode();
          types.forEach(t -> content.set(t, JSON.objectNode().set("schema", ref(bodyDef))));
          op.set("requestBody", JSON.objectNode().put("required", true).set("content", content));
        }
      }
      ObjectNode responses = op.putObject("responses");
      List<String> codes = switch (action) {
        case "post" -> List.of("200", "201", "202");
        case "put", "patch" -> List.of("200", "201");
        case "delete" -> List.of("200", "202");
        default -> List.of("200");
      };
      for (String code : codes) {
        ObjectNode r = JSON.objectNode().put("description", switch (code) {
          case "201" -> "Created";
          case "202" -> "Accepted";
          default -> "OK";
        });
        if (dialect == Dialect.SWAGGER_2) {
          r.set("schema", response);
        } else {
          r.set("content", JSON.objectNode().set("application/json", JSON.objectNode().set("schema", response)));
        }
        responses.set(code, r);
      }
      if (dialect == Dialect.SWAGGER_2) {
        op.putArray("produces").add("application/json").add("application/yaml");
        op.putArray("schemes").add("https");
      }
      op.put("x-kubernetes-action", action);
      op.set("x-kubernetes-group-version-kind", gvk(group, version, kind));
      return op;
    }

    private List<String> patchTypes() {
      List<String> types = new ArrayList<>(List.of("application/json-patch+json", "application/merge-patch+json"));
      if (schemas.patches().strategicMergePatch()) {
        types.add("application/strategic-merge-patch+json");
      }
      return types;
    }

    private ObjectNode ref(String definition) {
      return JSON.objectNode().put("$ref", dialect.ref(definition));
    }

    private ObjectNode pathParameter(String name) {
      ObjectNode p = JSON.objectNode().put("name", name).put("in", "path").put("required", true)
          .put("description", name + " of the " + (name.equals("namespace") ? "namespace" : "object"));
      typed(p, "string");
      return p;
    }

    private ObjectNode queryParameter(String name) {
      ObjectNode p = JSON.objectNode().put("name", name).put("in", "query").put("uniqueItems", true);
      typed(p, switch (name) {
        case "allowWatchBookmarks", "sendInitialEvents", "watch", "force" -> "boolean";
        case "limit", "timeoutSeconds", "gracePeriodSeconds" -> "integer";
        default -> "string";
      });
      return p;
    }

    private void typed(ObjectNode parameter, String type) {
      if (dialect == Dialect.SWAGGER_2) {
        parameter.put("type", type);
      } else {
        parameter.set("schema", JSON.objectNode().put("type", type));
      }
    }
  }

  private static ObjectNode gvk(String group, String version, String kind) {
    return JSON.objectNode().put("group", group).put("kind", kind).put("version", version);
  }

  /** kube's operation-id infix: {@code CoreV1}, {@code AppsV1}, {@code RbacAuthorizationV1}. */
  static String operationGroup(String group, String version) {
    StringBuilder sb = new StringBuilder();
    String g = group.isEmpty() ? "core" : group.replace(".k8s.io", "");
    for (String part : g.split("\\.")) {
      sb.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
    }
    return sb.append(Character.toUpperCase(version.charAt(0))).append(version.substring(1)).toString();
  }

  /** The bytes of a document, for tests. */
  static String text(Document d) {
    return new String(d.bytes(), StandardCharsets.UTF_8);
  }
}
