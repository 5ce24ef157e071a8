package io.listwatch.client;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * kube's {@code ObjectMeta} (meta/v1) as a Jackson-mapped record, for the model classes users
 * write for their own kinds, custom resources above all. A model is any class or record with a
 * {@code metadata} property of this type; {@link JacksonCodec#of(Class)} then reads its name,
 * namespace, resourceVersion, uid, labels and annotations, so the class works with
 * {@link KubeClient#resource} and with informers:
 *
 * <pre>{@code
 * record Widget(String apiVersion, String kind, ObjectMeta metadata, WidgetSpec spec) {}
 * ResourceType widgets = new ResourceType("example.com", "v1", "widgets", "Widget", true);
 * ResourceClient<Widget> client = kube.resource(widgets, JacksonCodec.of(Widget.class));
 * }</pre>
 *
 * <p>Every field of kube's ObjectMeta is here, so an object read, changed and written back (an
 * update) keeps what the server and other clients set: finalizers, owner references, managed
 * fields. Timestamps are kept as the RFC 3339 strings the server sends; {@code managedFields}
 * entries as JSON trees. A field the server did not send is null (not written back).
 *
 * <p>Immutable (labels, annotations, finalizers and owner references are copied into
 * unmodifiable collections) and so thread-safe; the JSON trees of {@code managedFields} are
 * not copied and must not be mutated.
 *
 * @param name the object's name, unique in its namespace
 * @param generateName a prefix the server completes into a unique name on create when
 *     {@code name} is not set
 * @param namespace the namespace, null for a cluster-scoped object
 * @param selfLink deprecated and no longer set by servers; kept for round trips
 * @param uid set by the server on create
 * @param resourceVersion the version the server last stored; an update carrying it fails with
 *     409 if the object changed since
 * @param generation for custom resources and most workloads, bumped by the server on each
 *     change of the desired state ({@code spec})
 * @param creationTimestamp when the server created the object
 * @param deletionTimestamp when deletion was asked for, while finalizers still hold the object
 * @param deletionGracePeriodSeconds the grace period of a pending deletion
 * @param labels labels, selected on by label selectors
 * @param annotations annotations
 * @param ownerReferences the objects this one depends on (garbage collection)
 * @param finalizers names that keep a deleted object until each is removed
 * @param managedFields server-side apply's record of which manager owns which field
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ObjectMeta(String name, String generateName, String namespace, String selfLink, String uid,
    String resourceVersion, Long generation, String creationTimestamp, String deletionTimestamp,
    Long deletionGracePeriodSeconds, Map<String, String> labels, Map<String, String> annotations,
    List<OwnerReference> ownerReferences, List<String> finalizers, List<JsonNode> managedFields) {

  public ObjectMeta {
    labels = copy(labels);
    annotations = copy(annotations);
    ownerReferences = ownerReferences == null ? null : List.copyOf(ownerReferences);
    finalizers = finalizers == null ? null : List.copyOf(finalizers);
    managedFields = managedFields == null ? null : Collections.unmodifiableList(managedFields);
  }

  /**
   * The metadata of a new object: its namespace ({@code null} for a cluster-scoped kind) and
   * name, everything else unset.
   */
  public static ObjectMeta of(String namespace, String name) {
    Objects.requireNonNull(name, "name");
    return new ObjectMeta(name, null, namespace, null, null, null, null, null, null, null, null, null, null,
        null, null);
  }

  /** A copy with these labels (null: none). */
  public ObjectMeta withLabels(Map<String, String> labels) {
    return new ObjectMeta(name, generateName, namespace, selfLink, uid, resourceVersion, generation,
        creationTimestamp, deletionTimestamp, deletionGracePeriodSeconds, labels, annotations, ownerReferences,
        finalizers, managedFields);
  }

  /** A copy with these annotations (null: none). */
  public ObjectMeta withAnnotations(Map<String, String> annotations) {
    return new ObjectMeta(name, generateName, namespace, selfLink, uid, resourceVersion, generation,
        creationTimestamp, deletionTimestamp, deletionGracePeriodSeconds, labels, annotations, ownerReferences,
        finalizers, managedFields);
  }

  /** A copy with these finalizers (null: none). */
  public ObjectMeta withFinalizers(List<String> finalizers) {
    return new ObjectMeta(name, generateName, namespace, selfLink, uid, resourceVersion, generation,
        creationTimestamp, deletionTimestamp, deletionGracePeriodSeconds, labels, annotations, ownerReferences,
        finalizers, managedFields);
  }

  /** A copy with these owner references (null: none). */
  public ObjectMeta withOwnerReferences(List<OwnerReference> ownerReferences) {
    return new ObjectMeta(name, generateName, namespace, selfLink, uid, resourceVersion, generation,
        creationTimestamp, deletionTimestamp, deletionGracePeriodSeconds, labels, annotations, ownerReferences,
        finalizers, managedFields);
  }

  /** Keeps the order the map had (the server's, on decode). */
  private static Map<String, String> copy(Map<String, String> m) {
    return m == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(m));
  }
}
