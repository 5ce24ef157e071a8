package io.listwatch.apiserver.registry;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.meta.ResourceDescriptor;
import io.listwatch.apiserver.printers.TableConvertor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Everything the server needs to know to serve one resource type: its names (what discovery
 * publishes), its scope, how its writes behave, which name rule applies and which fields can
 * be selected on. kube spreads this over the scheme, the REST storage and the type's strategy;
 * here it is one immutable value, so adding a resource is one {@link Builder} call in
 * {@link ResourceRegistry}.
 *
 * <p>Immutable and thread-safe. Build one with {@link #builder}.
 *
 * <h2>Storage layout</h2>
 * Objects live under {@link #storagePrefix()}, {@code /registry/<group>/<plural>/}, with
 * {@code core} standing for the empty core group. The key does not contain the version: every
 * version of a resource shares one storage location, as in kube. Unlike kube's etcd layout
 * ({@code /registry/pods/...}, with historical exceptions such as {@code /registry/minions}),
 * the group is always part of the key, so two groups may serve the same plural without
 * colliding. Keys are {@code <prefix><namespace>/<name>} for namespaced resources and
 * {@code <prefix><name>} for cluster-scoped ones; they are unambiguous because validated
 * names and namespaces never contain {@code '/'}.
 */
public final class ResourceDefinition implements ResourceDescriptor {

  /** The verbs of a fully writable resource, in the sorted order discovery lists them. */
  public static final List<String> ALL_VERBS = List.of(
      "create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

  /** The selectable field every resource has. */
  public static final String METADATA_NAME = "metadata.name";
  /** The selectable field every namespaced resource has. */
  public static final String METADATA_NAMESPACE = "metadata.namespace";

  private final String group;
  private final String version;
  private final String kind;
  private final String listKind;
  private final String plural;
  private final String singular;
  private final List<String> shortNames;
  private final List<String> categories;
  private final boolean namespaced;
  private final boolean hasStatus;
  private final boolean tracksGeneration;
  private final boolean returnsDeletedObject;
  private final boolean clearsStatusOnCreate;
  private final List<String> verbs;
  private final NameValidation nameValidation;
  /** Type-specific selectable fields, in declaration order; excludes the metadata ones. */
  private final Map<String, FieldExtractor> selectableFields;
  /** All selectable field names: metadata ones first, then {@link #selectableFields}. */
  private final Set<String> selectableFieldNames;
  private final String storagePrefix;
  private final boolean stored;
  /** Subresources other than status, by name: the kind and verbs discovery lists. */
  private final Map<String, Subresource> subresources;
  private final TableConvertor tableConvertor;
  private final CustomResourceVersion customResource;
  /** How a built-in served in several versions converts to and from storage; NONE otherwise. */
  private final VersionConversion conversion;

  /**
   * A subresource other than {@code status} (served by a handler registered with
   * {@code ApiRoutes.register}), as discovery lists it: e.g. {@code serviceaccounts/token},
   * kind {@code TokenRequest}, group {@code authentication.k8s.io}, verbs {@code create}.
   *
   * @param group the group of {@code kind}; "" when it is the resource's own group
   * @param version the version of {@code kind}; "" when it is the resource's own version
   */
  public record Subresource(String name, String group, String version, String kind, List<String> verbs) {
    public Subresource {
      verbs = List.copyOf(verbs);
    }
  }

  private ResourceDefinition(Builder b) {
    this.group = b.group;
    this.version = b.version;
    this.kind = b.kind;
    this.listKind = b.listKind != null ? b.listKind : b.kind + "List";
    this.plural = b.plural;
    this.singular = b.singular != null ? b.singular : b.kind.toLowerCase(Locale.ROOT);
    this.shortNames = List.copyOf(b.shortNames);
    this.categories = List.copyOf(b.categories);
    this.namespaced = b.namespaced;
    this.hasStatus = b.hasStatus;
    this.tracksGeneration = b.tracksGeneration;
    this.returnsDeletedObject = b.returnsDeletedObject;
    this.clearsStatusOnCreate = b.clearsStatusOnCreate;
    this.verbs = List.copyOf(new TreeSet<>(b.verbs));
    this.nameValidation = b.nameValidation;
    this.selectableFields = Collections.unmodifiableMap(new LinkedHashMap<>(b.selectableFields));
    Set<String> names = new LinkedHashSet<>();
    names.add(METADATA_NAME);
    if (namespaced) {
      names.add(METADATA_NAMESPACE);
    }
    names.addAll(selectableFields.keySet());
    this.selectableFieldNames = Collections.unmodifiableSet(names);
    this.storagePrefix = "/registry/" + (group.isEmpty() ? "core" : group) + "/" + plural + "/";
    this.stored = b.stored;
    this.subresources = Collections.unmodifiableMap(new LinkedHashMap<>(b.subresources));
    this.tableConvertor = b.tableConvertor;
    this.customResource = b.customResource;
    this.conversion = b.conversion;
  }

  /**
   * How this version of a built-in kind served in several versions (HorizontalPodAutoscalers:
   * autoscaling/v2 and v1) converts its objects to and from the storage version;
   * {@link VersionConversion#NONE} for every other built-in and for custom resources (see
   * {@link CustomResourceConversion}).
   */
  public VersionConversion conversion() {
    return conversion;
  }

  /**
   * For a custom resource, the CustomResourceDefinition's spec and the version entry this
   * definition serves (schema, subresources, printer columns, selectable fields); empty for a
   * built-in kind.
   */
  public java.util.Optional<CustomResourceVersion> customResource() {
    return java.util.Optional.ofNullable(customResource);
  }

  /**
   * How {@code kubectl get} prints this resource's objects (the rows of a Table); kube's
   * default NAME / Created At columns unless the kind has a printer of its own.
   */
  public TableConvertor tableConvertor() {
    return tableConvertor;
  }

  /**
   * False for a virtual resource such as kube's access and token reviews: nothing is stored and
   * there is no watch cache; a handler registered with {@code ApiRoutes.register} serves it.
   */
  public boolean stored() {
    return stored;
  }

  /** Subresources other than {@code status}, in declaration order. */
  public Map<String, Subresource> subresources() {
    return subresources;
  }

  /**
   * Starts a definition. Defaults: namespaced, all {@link #ALL_VERBS}, no status subresource,
   * no generation tracking, DELETE answers with a Status, DNS-1123 subdomain names,
   * {@code listKind = kind + "List"}, {@code singular = lowercase kind}.
   *
   * @param group the API group, {@code ""} for core
   * @param version e.g. {@code "v1"}
   * @param kind e.g. {@code "Pod"}
   * @param plural the resource name in URLs, e.g. {@code "pods"}
   */
  public static Builder builder(String group, String version, String kind, String plural) {
    return new Builder(group, version, kind, plural);
  }

  /** The API group; {@code ""} for the core group. */
  @Override
  public String group() {
    return group;
  }

  /** The version, e.g. {@code "v1"}. */
  public String version() {
    return version;
  }

  /** The Kind of a single object, e.g. {@code "Pod"}. */
  @Override
  public String kind() {
    return kind;
  }

  /** The Kind of a list, e.g. {@code "PodList"}. */
  public String listKind() {
    return listKind;
  }

  /** The resource name in URLs and discovery, e.g. {@code "pods"}. */
  @Override
  public String plural() {
    return plural;
  }

  /** Discovery's {@code singularName}, e.g. {@code "pod"}. */
  public String singular() {
    return singular;
  }

  /** Discovery's {@code shortNames}, e.g. {@code ["po"]}; may be empty. */
  public List<String> shortNames() {
    return shortNames;
  }

  /** Discovery's {@code categories}, e.g. {@code ["all"]}; may be empty. */
  public List<String> categories() {
    return categories;
  }

  /** Whether objects live in a namespace. */
  @Override
  public boolean namespaced() {
    return namespaced;
  }

  /**
   * Whether the resource has a {@code /status} subresource. If so, writes to the main resource
   * ignore {@code .status} and writes to {@code /status} ignore everything but {@code .status}.
   */
  @Override
  public boolean hasStatus() {
    return hasStatus;
  }

  /**
   * Whether {@code metadata.generation} is set to 1 on create and bumped when {@code spec}
   * changes. kube 1.32 does this for Deployments and ReplicaSets, not for Pods (pod generation
   * came in 1.33) nor for types without a spec.
   */
  @Override
  public boolean tracksGeneration() {
    return tracksGeneration;
  }

  /**
   * kube's {@code ReturnDeletedObject}: whether an immediate DELETE answers with the deleted
   * object (true for pods, services, serviceaccounts, namespaces) rather than a success Status.
   * The typed Java client decodes by this, so it must match kube per type.
   */
  public boolean returnsDeletedObject() {
    return returnsDeletedObject;
  }

  /**
   * Whether a create drops the client's {@code status}, as the type's strategy
   * {@code PrepareForCreate} does (workloads, jobs, volumes, quotas, budgets, ingresses).
   */
  public boolean clearsStatusOnCreate() {
    return clearsStatusOnCreate;
  }

  /** The verbs discovery lists, sorted; a subset of {@link #ALL_VERBS}. */
  public List<String> verbs() {
    return verbs;
  }

  /** Which rule {@code metadata.name} must follow. */
  public NameValidation nameValidation() {
    return nameValidation;
  }

  /**
   * The type-specific selectable fields, in declaration order, each with its extractor. Does
   * not contain {@code metadata.name} or {@code metadata.namespace}; see
   * {@link #selectableFieldNames()} for the complete set.
   */
  public Map<String, FieldExtractor> selectableFields() {
    return selectableFields;
  }

  /**
   * Every field a {@code fieldSelector} may name for this resource: {@code metadata.name},
   * {@code metadata.namespace} if namespaced, then the type-specific fields. A selector naming
   * anything else is a 400 BadRequest.
   */
  public Set<String> selectableFieldNames() {
    return selectableFieldNames;
  }

  /**
   * The value of every selectable field of {@code object}, keyed and ordered as
   * {@link #selectableFieldNames()}: kube's {@code fields.Set} for the object. Missing metadata
   * fields are {@code ""}. Never null values.
   *
   * @param object a whole API object
   * @return an unmodifiable map
   */
  public Map<String, String> selectableFieldValues(JsonNode object) {
    Objects.requireNonNull(object, "object");
    Map<String, String> values = new LinkedHashMap<>();
    JsonNode metadata = object.path("metadata");
    values.put(METADATA_NAME, text(metadata.get("name")));
    if (namespaced) {
      values.put(METADATA_NAMESPACE, text(metadata.get("namespace")));
    }
    for (Map.Entry<String, FieldExtractor> field : selectableFields.entrySet()) {
      values.put(field.getKey(), field.getValue().extract(object));
    }
    return Collections.unmodifiableMap(values);
  }

  /** What objects carry in {@code apiVersion}: {@code "v1"} for core, else {@code "apps/v1"}. */
  @Override
  public String apiVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  /**
   * Discovery's {@code groupVersion}; the same string as {@link #apiVersion()}, under the name
   * discovery documents use.
   */
  public String groupVersion() {
    return apiVersion();
  }

  /**
   * The storage key prefix of all objects of this resource, ending in {@code '/'}:
   * {@code "/registry/core/pods/"}, {@code "/registry/apps/deployments/"}. See the class
   * comment for the layout.
   */
  public String storagePrefix() {
    return storagePrefix;
  }

  /**
   * The storage key prefix of the objects in one namespace, ending in {@code '/'}:
   * {@code "/registry/core/pods/default/"}.
   *
   * @throws IllegalArgumentException if the resource is cluster-scoped or namespace is empty
   */
  public String storagePrefix(String namespace) {
    if (!namespaced) {
      throw new IllegalArgumentException(plural + " is cluster-scoped: no per-namespace prefix");
    }
    requireSegment(namespace, "namespace");
    return storagePrefix + namespace + "/";
  }

  /**
   * The storage key of one object: {@code prefix + namespace + "/" + name} for namespaced
   * resources, {@code prefix + name} for cluster-scoped ones.
   *
   * @param namespace the namespace; must be non-empty for namespaced resources, and null or
   *     {@code ""} for cluster-scoped ones
   * @param name the object's name, non-empty
   * @throws IllegalArgumentException if the namespace does not fit the scope, or a part is
   *     empty or contains {@code '/'}
   */
  public String storageKey(String namespace, String name) {
    requireSegment(name, "name");
    if (namespaced) {
      requireSegment(namespace, "namespace");
      return storagePrefix + namespace + "/" + name;
    }
    if (namespace != null && !namespace.isEmpty()) {
      throw new IllegalArgumentException(
          plural + " is cluster-scoped but namespace \"" + namespace + "\" was given");
    }
    return storagePrefix + name;
  }

  @Override
  public String toString() {
    return "ResourceDefinition[" + plural + (group.isEmpty() ? "" : "." + group) + "/" + version
        + ", kind=" + kind + (namespaced ? ", namespaced" : ", cluster-scoped") + "]";
  }

  private static void requireSegment(String s, String what) {
    if (s == null || s.isEmpty()) {
      throw new IllegalArgumentException(what + " is empty");
    }
    if (s.indexOf('/') >= 0) {
      throw new IllegalArgumentException(what + " \"" + s + "\" contains '/'");
    }
  }

  private static String text(JsonNode node) {
    return node == null || node.isNull() || node.isContainerNode() ? "" : node.asText();
  }

  /**
   * Builds a {@link ResourceDefinition}; checks its arguments as they are given. Not
   * thread-safe; use it on one thread and keep only the built definition.
   */
  public static final class Builder {
    private final String group;
    private final String version;
    private final String kind;
    private final String plural;
    private String listKind;
    private String singular;
    private List<String> shortNames = List.of();
    private List<String> categories = List.of();
    private boolean namespaced = true;
    private boolean hasStatus;
    private boolean tracksGeneration;
    private boolean returnsDeletedObject;
    private boolean clearsStatusOnCreate;
    private List<String> verbs = ALL_VERBS;
    private NameValidation nameValidation = NameValidation.DNS1123_SUBDOMAIN;
    private final Map<String, FieldExtractor> selectableFields = new LinkedHashMap<>();
    private boolean stored = true;
    private final Map<String, Subresource> subresources = new LinkedHashMap<>();
    private TableConvertor tableConvertor = TableConvertor.DEFAULT;
    private CustomResourceVersion customResource;
    private VersionConversion conversion = VersionConversion.NONE;

    private Builder(String group, String version, String kind, String plural) {
      this.group = Objects.requireNonNull(group, "group");
      this.version = requireNonEmpty(version, "version");
      this.kind = requireNonEmpty(kind, "kind");
      this.plural = requireNonEmpty(plural, "plural");
      requireArgument(plural.equals(plural.toLowerCase(Locale.ROOT)) && plural.indexOf('/') < 0,
          "plural must be lowercase without '/': " + plural);
      requireArgument(group.indexOf('/') < 0, "group must not contain '/': " + group);
      requireArgument(version.indexOf('/') < 0, "version must not contain '/': " + version);
    }

    /** Overrides the default {@code kind + "List"}. */
    public Builder listKind(String listKind) {
      this.listKind = requireNonEmpty(listKind, "listKind");
      return this;
    }

    /** Overrides the default lowercase kind. */
    public Builder singular(String singular) {
      this.singular = requireNonEmpty(singular, "singular");
      return this;
    }

    /** Discovery's short names, e.g. {@code "po"}. */
    public Builder shortNames(String... shortNames) {
      this.shortNames = nonEmptyList(shortNames, "shortNames");
      return this;
    }

    /** Discovery's categories, e.g. {@code "all"}. */
    public Builder categories(String... categories) {
      this.categories = nonEmptyList(categories, "categories");
      return this;
    }

    /** Makes the resource cluster-scoped (the default is namespaced). */
    public Builder clusterScoped() {
      this.namespaced = false;
      return this;
    }

    /** Gives the resource a {@code /status} subresource. */
    public Builder hasStatus() {
      this.hasStatus = true;
      return this;
    }

    /** Makes {@code metadata.generation} track spec changes. */
    public Builder tracksGeneration() {
      this.tracksGeneration = true;
      return this;
    }

    /** Makes an immediate DELETE answer with the deleted object instead of a Status. */
    public Builder returnsDeletedObject() {
      this.returnsDeletedObject = true;
      return this;
    }

    /** Makes a create drop the client's {@code status}; see {@link ResourceDefinition#clearsStatusOnCreate()}. */
    public Builder clearsStatusOnCreate() {
      this.clearsStatusOnCreate = true;
      return this;
    }

    /** Replaces the default {@link #ALL_VERBS}; each verb must be one of them. */
    public Builder verbs(String... verbs) {
      List<String> list = nonEmptyList(verbs, "verbs");
      for (String verb : list) {
        requireArgument(ALL_VERBS.contains(verb), "unknown verb: " + verb);
      }
      this.verbs = list;
      return this;
    }

    /** Overrides the default {@link NameValidation#DNS1123_SUBDOMAIN}. */
    public Builder nameValidation(NameValidation nameValidation) {
      this.nameValidation = Objects.requireNonNull(nameValidation, "nameValidation");
      return this;
    }

    /**
     * Adds a type-specific selectable field. {@code metadata.name} and
     * {@code metadata.namespace} are implicit and may not be added.
     */
    public Builder selectableField(String name, FieldExtractor extractor) {
      requireNonEmpty(name, "selectable field name");
      Objects.requireNonNull(extractor, "extractor");
      requireArgument(!name.equals(METADATA_NAME) && !name.equals(METADATA_NAMESPACE),
          name + " is implicit for every resource");
      requireArgument(!selectableFields.containsKey(name), "duplicate selectable field " + name);
      selectableFields.put(name, extractor);
      return this;
    }

    /**
     * Makes this a virtual resource (see {@link ResourceDefinition#stored()}) whose only verb is
     * {@code create}, like kube's SelfSubjectAccessReview or TokenReview.
     */
    public Builder notStored() {
      this.stored = false;
      this.verbs = List.of("create");
      return this;
    }

    /** Adds a subresource other than status, served by a registered handler; see {@link Subresource}. */
    public Builder subresource(String name, String group, String version, String kind, String... verbs) {
      requireNonEmpty(name, "subresource name");
      requireArgument(!name.equals("status") && !subresources.containsKey(name), "duplicate subresource " + name);
      subresources.put(name, new Subresource(name, group, version, requireNonEmpty(kind, "kind"),
          nonEmptyList(verbs, "verbs")));
      return this;
    }

    /** Overrides the default {@link TableConvertor#DEFAULT} columns of {@code kubectl get}. */
    public Builder tableConvertor(TableConvertor tableConvertor) {
      this.tableConvertor = Objects.requireNonNull(tableConvertor, "tableConvertor");
      return this;
    }

    /** Marks this as a custom resource served from {@code version} of a CustomResourceDefinition. */
    public Builder customResource(CustomResourceVersion version) {
      this.customResource = Objects.requireNonNull(version, "version");
      return this;
    }

    /** Serves a built-in kind's version through {@code conversion}; see {@link ResourceDefinition#conversion()}. */
    public Builder conversion(VersionConversion conversion) {
      this.conversion = Objects.requireNonNull(conversion, "conversion");
      return this;
    }

    /** The definition. The builder may be used again afterwards. */
    public ResourceDefinition build() {
      return new ResourceDefinition(this);
    }

    private static List<String> nonEmptyList(String[] values, String what) {
      Objects.requireNonNull(values, what);
      List<String> list = new ArrayList<>(values.length);
      for (String v : values) {
        list.add(requireNonEmpty(v, what + " entry"));
      }
      requireArgument(new LinkedHashSet<>(list).size() == list.size(), "duplicate " + what);
      return List.copyOf(list);
    }

    private static String requireNonEmpty(String s, String what) {
      Objects.requireNonNull(s, what);
      requireArgument(!s.isEmpty(), what + " is empty");
      return s;
    }

    private static void requireArgument(boolean condition, String message) {
      if (!condition) {
        throw new IllegalArgumentException(message);
      }
    }
  }
}
