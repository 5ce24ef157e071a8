package io.listwatch.client.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.ListOptions;
import io.listwatch.api.patch.PatchType;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.DeleteOptions;
import io.listwatch.client.ObjectCodec;
import io.listwatch.client.ObjectList;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.WatchStream;
import java.util.Optional;

/**
 * A {@link ResourceClient} of a {@link FakeClient}: each call is recorded as an
 * {@link Action}, offered to the reactors, and otherwise served by the tracker. Objects are
 * converted to and from trees with the codec, so callers never share instances with the
 * tracker or with each other. Thread-safe.
 */
final class FakeResourceClient<T> implements ResourceClient<T> {

  private final FakeClient client;
  private final ObjectTracker tracker;
  private final ResourceType type;
  private final ObjectCodec<T> codec;

  FakeResourceClient(FakeClient client, ObjectTracker tracker, ResourceType type, ObjectCodec<T> codec) {
    this.client = client;
    this.tracker = tracker;
    this.type = type;
    this.codec = codec;
  }

  @Override
  public ResourceType type() {
    return type;
  }

  @Override
  public ObjectCodec<T> codec() {
    return codec;
  }

  @Override
  public Optional<T> get(String namespace, String name) {
    Reaction r = client.react(new Action(Action.GET, type, "", namespace, name, null, null, null));
    if (r.handled()) {
      return Optional.ofNullable(codec.type().cast(r.result()));
    }
    return tracker.get(type, namespace, name).map(tree -> Trees.decode(codec, tree));
  }

  @Override
  @SuppressWarnings("unchecked")
  public ObjectList<T> list(String namespace, ListOptions options) {
    ListOptions opts = options == null ? ListOptions.builder().build() : options;
    Reaction r = client.react(new Action(Action.LIST, type, "", namespace, "", null, null, opts));
    if (r.handled()) {
      return (ObjectList<T>) r.result();
    }
    Page page = tracker.listPage(type, namespace, opts);
    return new ObjectList<>(page.items().stream().map(tree -> Trees.decode(codec, tree)).toList(),
        Long.toString(page.resourceVersion()), page.continueToken(), page.remainingItemCount());
  }

  @Override
  @SuppressWarnings("unchecked")
  public WatchStream<T> watch(String namespace, ListOptions options) {
    ListOptions opts = options == null ? ListOptions.builder().watch(true).build() : options;
    Reaction r = client.react(new Action(Action.WATCH, type, "", namespace, "", null, null, opts));
    if (r.handled()) {
      return (WatchStream<T>) r.result();
    }
    return client.register(tracker.watch(type, namespace, opts), codec);
  }

  @Override
  public T create(T object) {
    ObjectNode tree = Trees.encode(codec, object);
    Reaction r = client.react(write(Action.CREATE, "", tree));
    if (r.handled()) {
      return codec.type().cast(r.result());
    }
    return Trees.decode(codec, tracker.create(type, tree));
  }

  @Override
  public T update(T object) {
    ObjectNode tree = Trees.encode(codec, object);
    Reaction r = client.react(write(Action.UPDATE, "", tree));
    if (r.handled()) {
      return codec.type().cast(r.result());
    }
    return Trees.decode(codec, tracker.update(type, tree));
  }

  @Override
  public T updateStatus(T object) {
    ObjectNode tree = Trees.encode(codec, object);
    Reaction r = client.react(write(Action.UPDATE, "status", tree));
    if (r.handled()) {
      return codec.type().cast(r.result());
    }
    return Trees.decode(codec, tracker.updateStatus(type, tree));
  }

  @Override
  public T patch(String namespace, String name, PatchType patchType, String patch) {
    Reaction r = client.react(new Action(Action.PATCH, type, "", namespace, name, null, patch, null));
    if (r.handled()) {
      return codec.type().cast(r.result());
    }
    return Trees.decode(codec, tracker.patch(type, namespace, name, patchType, patch));
  }

  /**
   * Records a {@code create} action with the subresource and {@code body}. Unless a reactor
   * answers, only a pod's {@code binding} is served, as the API server serves it: the pod
   * gets {@code spec.nodeName} (an update) and the {@code PodScheduled=True} condition (a
   * status update); a pod already bound is a 409 Conflict, a missing one a 404. Any other
   * subresource is a 404.
   */
  @Override
  public DynamicObject createSubresource(String namespace, String name, String subresource, DynamicObject body) {
    String ns = type.namespaced() && (namespace == null || namespace.isEmpty()) ? client.defaultNamespace() : namespace;
    Reaction r = client.react(new Action(Action.CREATE, type, subresource, ns, name, body, null, null));
    if (r.handled()) {
      return (DynamicObject) r.result();
    }
    if (!type.equals(ResourceType.PODS) || !"binding".equals(subresource)) {
      throw StatusException.pathNotFound();
    }
    String node = body.get("target", "name").map(JsonNode::asText).orElse("");
    ObjectNode pod = tracker.get(type, ns, name).orElseThrow(() -> StatusException.notFound("", "pods", name));
    String bound = pod.path("spec").path("nodeName").asText("");
    if (!bound.isEmpty()) {
      throw StatusException.conflict("", "pods", name, "pod " + name + " is already assigned to node \"" + bound + "\"");
    }
    ObjectNode spec = pod.get("spec") instanceof ObjectNode s ? s : pod.putObject("spec");
    spec.put("nodeName", node);
    ObjectNode updated = tracker.update(type, pod);
    ObjectNode status = updated.get("status") instanceof ObjectNode st ? st : updated.putObject("status");
    ArrayNode conditions = status.get("conditions") instanceof ArrayNode c ? c : status.putArray("conditions");
    for (int i = conditions.size() - 1; i >= 0; i--) {
      if ("PodScheduled".equals(conditions.get(i).path("type").asText())) {
        conditions.remove(i);
      }
    }
    conditions.addObject().put("type", "PodScheduled").put("status", "True");
    tracker.updateStatus(type, updated);
    return DynamicObject.parse("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Success\",\"code\":201}");
  }

  @Override
  public boolean delete(String namespace, String name) {
    Reaction r = client.react(new Action(Action.DELETE, type, "", namespace, name, null, null, null));
    if (r.handled()) {
      return (Boolean) r.result();
    }
    return tracker.delete(type, namespace, name);
  }

  /**
   * Recorded as a delete whose {@link Action#object()} is the {@link DeleteOptions}. The tracker
   * checks the uid and resourceVersion preconditions (409 Conflict) and then deletes as
   * {@link #delete(String, String)} does: the grace period is not simulated.
   */
  @Override
  public boolean delete(String namespace, String name, DeleteOptions options) {
    Reaction r = client.react(new Action(Action.DELETE, type, "", namespace, name, options, null, null));
    if (r.handled()) {
      return (Boolean) r.result();
    }
    Optional<ObjectNode> current = tracker.get(type, namespace, name);
    if (current.isEmpty()) {
      return false;
    }
    String uid = Trees.meta(current.get(), "uid");
    String rv = Trees.meta(current.get(), "resourceVersion");
    if (!options.preconditionUid().isEmpty() && !options.preconditionUid().equals(uid)) {
      throw StatusException.conflict(type.group(), type.plural(), name, "Precondition failed: UID in precondition: "
          + options.preconditionUid() + ", UID in object meta: " + uid);
    }
    if (!options.preconditionResourceVersion().isEmpty() && !options.preconditionResourceVersion().equals(rv)) {
      throw StatusException.conflict(type.group(), type.plural(), name, "Precondition failed: ResourceVersion in "
          + "precondition: " + options.preconditionResourceVersion() + ", ResourceVersion in object meta: " + rv);
    }
    return tracker.delete(type, namespace, name);
  }

  /**
   * The action of a create or update: where the object says, with a copy of it. A namespaced
   * object without a namespace is first given the client's default namespace, as the HTTP
   * client sends it there.
   */
  private Action write(String verb, String subresource, ObjectNode tree) {
    if (type.namespaced() && Trees.meta(tree, "namespace").isEmpty()) {
      Trees.metadata(tree).put("namespace", client.defaultNamespace());
    }
    return new Action(verb, type, subresource, Trees.meta(tree, "namespace"), Trees.meta(tree, "name"),
        Trees.decode(codec, tree), null, null);
  }
}
