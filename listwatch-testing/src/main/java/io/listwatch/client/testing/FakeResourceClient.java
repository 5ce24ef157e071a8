package io.listwatch.client.testing;

import io.listwatch.api.ListOptions;
import io.listwatch.api.patch.PatchType;
import io.listwatch.client.DeleteOptions;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ObjectCodec;
import io.listwatch.client.ObjectList;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.WatchStream;
import java.util.Optional;

/**
 * A {@link ResourceClient} of a {@link FakeClient}: each call is recorded as an
 * {@link Action} and offered to the reactors; unless one answers, the REST client the HTTP
 * client uses sends it to the fake's API server. An action's object is a copy, so a caller
 * changing its object later does not change what was recorded. Thread-safe.
 */
final class FakeResourceClient<T> implements ResourceClient<T> {

  private final FakeClient client;
  private final ResourceClient<T> server;

  FakeResourceClient(FakeClient client, ResourceClient<T> server) {
    this.client = client;
    this.server = server;
  }

  @Override
  public ResourceType type() {
    return server.type();
  }

  @Override
  public ObjectCodec<T> codec() {
    return server.codec();
  }

  @Override
  public Optional<T> get(String namespace, String name) {
    Reaction r = client.react(new Action(Action.GET, type(), "", namespace, name, null, null, null));
    if (r.handled()) {
      return Optional.ofNullable(codec().type().cast(r.result()));
    }
    return server.get(namespace, name);
  }

  @Override
  @SuppressWarnings("unchecked")
  public ObjectList<T> list(String namespace, ListOptions options) {
    ListOptions opts = options == null ? ListOptions.builder().build() : options;
    Reaction r = client.react(new Action(Action.LIST, type(), "", namespace, "", null, null, opts));
    if (r.handled()) {
      return (ObjectList<T>) r.result();
    }
    return server.list(namespace, opts);
  }

  @Override
  @SuppressWarnings("unchecked")
  public WatchStream<T> watch(String namespace, ListOptions options) {
    ListOptions opts = options == null ? ListOptions.builder().watch(true).build() : options;
    Reaction r = client.react(new Action(Action.WATCH, type(), "", namespace, "", null, null, opts));
    if (r.handled()) {
      return (WatchStream<T>) r.result();
    }
    return server.watch(namespace, opts);
  }

  @Override
  public T create(T object) {
    Reaction r = client.react(write(Action.CREATE, "", object));
    if (r.handled()) {
      return codec().type().cast(r.result());
    }
    return server.create(object);
  }

  @Override
  public T update(T object) {
    Reaction r = client.react(write(Action.UPDATE, "", object));
    if (r.handled()) {
      return codec().type().cast(r.result());
    }
    return server.update(object);
  }

  @Override
  public T updateStatus(T object) {
    Reaction r = client.react(write(Action.UPDATE, "status", object));
    if (r.handled()) {
      return codec().type().cast(r.result());
    }
    return server.updateStatus(object);
  }

  @Override
  public T patch(String namespace, String name, PatchType patchType, String patch) {
    Reaction r = client.react(new Action(Action.PATCH, type(), "", namespace, name, null, patch, null));
    if (r.handled()) {
      return codec().type().cast(r.result());
    }
    return server.patch(namespace, name, patchType, patch);
  }

  /** Recorded as a create on the subresource whose object is {@code body}. */
  @Override
  public DynamicObject createSubresource(String namespace, String name, String subresource, DynamicObject body) {
    String ns = type().namespaced() && (namespace == null || namespace.isEmpty()) ? client.defaultNamespace() : namespace;
    Reaction r = client.react(new Action(Action.CREATE, type(), subresource, ns, name, body, null, null));
    if (r.handled()) {
      return (DynamicObject) r.result();
    }
    return server.createSubresource(ns, name, subresource, body);
  }

  @Override
  public boolean delete(String namespace, String name) {
    Reaction r = client.react(new Action(Action.DELETE, type(), "", namespace, name, null, null, null));
    if (r.handled()) {
      return (Boolean) r.result();
    }
    return server.delete(namespace, name);
  }

  /** Recorded as a delete whose {@link Action#object()} is the {@link DeleteOptions}. */
  @Override
  public boolean delete(String namespace, String name, DeleteOptions options) {
    Reaction r = client.react(new Action(Action.DELETE, type(), "", namespace, name, options, null, null));
    if (r.handled()) {
      return (Boolean) r.result();
    }
    return server.delete(namespace, name, options);
  }

  /**
   * The action of a create or update: where the object says (a namespaced object without a
   * namespace is sent to the client's default namespace), with a copy of it.
   */
  private Action write(String verb, String subresource, T object) {
    String namespace = codec().namespace(object);
    if (type().namespaced() && namespace.isEmpty()) {
      namespace = client.defaultNamespace();
    }
    T copy = FakeApiServer.decode(codec(), FakeApiServer.encode(codec(), object));
    return new Action(verb, type(), subresource, namespace, codec().name(object), copy, null, null);
  }
}
