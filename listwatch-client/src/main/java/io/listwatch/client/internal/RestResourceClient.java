package io.listwatch.client.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.listwatch.api.ListOptions;
import io.listwatch.api.StatusException;
import io.listwatch.api.patch.PatchType;
import io.listwatch.client.DeleteOptions;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ObjectCodec;
import io.listwatch.client.ObjectList;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.WatchStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import io.listwatch.client.internal.RestTransport.RestRequest;
import io.listwatch.client.internal.RestTransport.RestResponse;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * The REST verbs on one resource over a {@link RestTransport} (HTTP, or the fake client's API
 * core in memory). Paths follow kube:
 * {@code {basePath}[/namespaces/{ns}]/{plural}[/{name}[/status]]}. Bodies are JSON written by
 * the codec; responses are decoded from the stream; a non-2xx answer is thrown as its Status.
 * Immutable, thread-safe.
 */
public final class RestResourceClient<T> implements ResourceClient<T> {

  private static final String JSON = "application/json";

  private final RestTransport client;
  private final ResourceType type;
  private final ObjectCodec<T> codec;

  private RestResourceClient(RestTransport client, ResourceType type, ObjectCodec<T> codec) {
    this.client = client;
    this.type = type;
    this.codec = codec;
  }

  /** The verbs on {@code type}, its objects read and written by {@code codec}, over {@code transport}. */
  public static <T> ResourceClient<T> of(RestTransport transport, ResourceType type, ObjectCodec<T> codec) {
    return new RestResourceClient<>(Objects.requireNonNull(transport, "transport"),
        Objects.requireNonNull(type, "type"), Objects.requireNonNull(codec, "codec"));
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
    RestRequest req = RestRequest.get(objectPath(namespace, name));
    RestResponse r = client.send(req);
    if (r.code() == 404) {
      discard(r);
      return Optional.empty();
    }
    return Optional.of(readObject(req, expectSuccess(r)));
  }

  @Override
  public ObjectList<T> list(String namespace, ListOptions options) {
    Objects.requireNonNull(options, "options");
    if (options.watch()) {
      throw new IllegalArgumentException("list options must not set watch; call watch()");
    }
    String path = collectionPath(namespace, true) + query(options);
    RestResponse r = expectSuccess(client.send(RestRequest.get(path)));
    try (InputStream body = r.body(); JsonParser p = Json.FACTORY.createParser(recordIfNeeded(body, codec))) {
      return ListDecoder.read(p, codec);
    } catch (IOException e) {
      throw new UncheckedIOException("LIST " + path + ": " + e.getMessage(), e);
    }
  }

  @Override
  public WatchStream<T> watch(String namespace, ListOptions options) {
    Objects.requireNonNull(options, "options");
    ListOptions watchOptions = options.watch() ? options : options.toBuilder().watch(true).build();
    String path = collectionPath(namespace, true) + query(watchOptions);
    RestResponse r = expectSuccess(client.send(RestRequest.get(path)));
    WatchBodyStream<T> stream = new WatchBodyStream<>(client, r.body(), codec, type + " " + path);
    client.watches().add(stream);
    return stream;
  }

  @Override
  public T create(T object) {
    String namespace = namespaceOf(object);
    RestRequest req = new RestRequest("POST", collectionPath(namespace, false), JSON, encode(object));
    return readObject(req, expectSuccess(client.send(req)));
  }

  @Override
  public T update(T object) {
    return put(object, "");
  }

  @Override
  public T updateStatus(T object) {
    return put(object, "/status");
  }

  private T put(T object, String subresource) {
    String path = objectPath(namespaceOf(object), codec.name(object)) + subresource;
    RestRequest req = new RestRequest("PUT", path, JSON, encode(object));
    return readObject(req, expectSuccess(client.send(req)));
  }

  @Override
  public T patch(String namespace, String name, PatchType patchType, String patch) {
    Objects.requireNonNull(patchType, "patchType");
    Objects.requireNonNull(patch, "patch");
    RestRequest req = new RestRequest("PATCH", objectPath(namespace, name), patchType.mediaType(),
        patch.getBytes(StandardCharsets.UTF_8));
    return readObject(req, expectSuccess(client.send(req)));
  }

  @Override
  public DynamicObject createSubresource(String namespace, String name, String subresource, DynamicObject body) {
    Objects.requireNonNull(subresource, "subresource");
    Objects.requireNonNull(body, "body");
    String path = objectPath(namespace, name) + "/" + PathSegments.encode(subresource);
    RestResponse r = expectSuccess(client.send(new RestRequest("POST", path, JSON, body.toJson())));
    try (InputStream in = r.body(); JsonParser p = Json.FACTORY.createParser(recordIfNeeded(in, DynamicObject.CODEC))) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("response is not a JSON object");
      }
      return DynamicObject.CODEC.decode(p);
    } catch (IOException e) {
      throw new UncheckedIOException("POST " + path + ": " + e.getMessage(), e);
    }
  }

  @Override
  public boolean delete(String namespace, String name) {
    return delete(new RestRequest("DELETE", objectPath(namespace, name), "", new byte[0]));
  }

  @Override
  public boolean delete(String namespace, String name, DeleteOptions options) {
    byte[] body;
    try {
      body = Json.MAPPER.writeValueAsBytes(Objects.requireNonNull(options, "options").toTree());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return delete(new RestRequest("DELETE", objectPath(namespace, name), JSON, body));
  }

  private boolean delete(RestRequest request) {
    RestResponse r = client.send(request);
    if (r.code() == 404) {
      discard(r);
      return false;
    }
    discard(expectSuccess(r));
    return true;
  }

  // ---- paths ----

  /** The object's namespace, or the config's default namespace for a namespaced resource. */
  private String namespaceOf(T object) {
    String ns = codec.namespace(object);
    return type.namespaced() && ns.isEmpty() ? client.defaultNamespace() : ns;
  }

  private String collectionPath(String namespace, boolean allNamespacesAllowed) {
    String ns = namespace == null ? "" : namespace;
    StringBuilder path = new StringBuilder(type.basePath());
    if (type.namespaced()) {
      if (!ns.isEmpty()) {
        path.append("/namespaces/").append(PathSegments.encode(ns));
      } else if (!allNamespacesAllowed) {
        throw new IllegalArgumentException(type + " are namespaced: a namespace is required");
      }
    } else if (!ns.isEmpty()) {
      throw new IllegalArgumentException(type + " are cluster-scoped: namespace must be empty, got " + ns);
    }
    return path.append('/').append(type.plural()).toString();
  }

  private String objectPath(String namespace, String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("a name is required for " + type);
    }
    return collectionPath(namespace, false) + "/" + PathSegments.encode(name);
  }

  private static String query(ListOptions options) {
    String q = options.toQueryString();
    return q.isEmpty() ? "" : "?" + q;
  }

  // ---- bodies ----

  private byte[] encode(T object) {
    Objects.requireNonNull(object, "object");
    ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
    try (JsonGenerator g = Json.FACTORY.createGenerator(out)) {
      codec.encode(object, g);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot encode " + object + ": " + e.getMessage(), e);
    }
    return out.toByteArray();
  }

  private T readObject(RestRequest request, RestResponse r) {
    try (InputStream body = r.body(); JsonParser p = Json.FACTORY.createParser(recordIfNeeded(body, codec))) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("response is not a JSON object");
      }
      return codec.decode(p);
    } catch (IOException e) {
      throw new UncheckedIOException(request + ": " + e.getMessage(), e);
    }
  }

  /** The response if 2xx; otherwise throws its Status. */
  private static RestResponse expectSuccess(RestResponse r) {
    int code = r.code();
    if (code >= 200 && code < 300) {
      return r;
    }
    throw StatusErrors.fromResponse(code, r.header("Retry-After"), r.body());
  }

  private static void discard(RestResponse r) {
    try (InputStream body = r.body()) {
      body.skip(Long.MAX_VALUE);
    } catch (IOException e) {
      // the answer is known; the rest of the body does not matter
    }
  }

  /**
   * The body, wrapped so the decoder can take each object's bytes as received when the codec
   * keeps them ({@link DynamicObject}); other codecs read the body directly, with no copy.
   */
  static InputStream recordIfNeeded(InputStream body, ObjectCodec<?> codec) {
    return codec == DynamicObject.CODEC ? new RecordingInputStream(body) : body;
  }
}
