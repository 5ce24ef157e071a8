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
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * The REST verbs on one resource over {@link HttpKubeClient}. Paths follow kube:
 * {@code {basePath}[/namespaces/{ns}]/{plural}[/{name}[/status]]}. Requests carry
 * {@code Accept: application/json}; bodies are JSON written by the codec; responses are
 * decoded from the stream. Immutable, thread-safe.
 */
final class HttpResourceClient<T> implements ResourceClient<T> {

  private static final String JSON = "application/json";

  private final HttpKubeClient client;
  private final ResourceType type;
  private final ObjectCodec<T> codec;

  HttpResourceClient(HttpKubeClient client, ResourceType type, ObjectCodec<T> codec) {
    this.client = client;
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
    HttpResponse<InputStream> r = client.send(client.request(objectPath(namespace, name)).GET());
    if (r.statusCode() == 404) {
      discard(r);
      return Optional.empty();
    }
    return Optional.of(readObject(expectSuccess(r)));
  }

  @Override
  public ObjectList<T> list(String namespace, ListOptions options) {
    Objects.requireNonNull(options, "options");
    if (options.watch()) {
      throw new IllegalArgumentException("list options must not set watch; call watch()");
    }
    String path = collectionPath(namespace, true) + query(options);
    HttpResponse<InputStream> r = expectSuccess(client.send(client.request(path).GET()));
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
    HttpResponse<InputStream> r = expectSuccess(client.send(client.request(path).GET()));
    HttpWatchStream<T> stream = new HttpWatchStream<>(client, r.body(), codec, type + " " + path);
    client.register(stream);
    return stream;
  }

  @Override
  public T create(T object) {
    String namespace = namespaceOf(object);
    HttpRequest.Builder req = client.request(collectionPath(namespace, false))
        .header("Content-Type", JSON).POST(HttpRequest.BodyPublishers.ofByteArray(encode(object)));
    return readObject(expectSuccess(client.send(req)));
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
    HttpRequest.Builder req = client.request(path)
        .header("Content-Type", JSON).PUT(HttpRequest.BodyPublishers.ofByteArray(encode(object)));
    return readObject(expectSuccess(client.send(req)));
  }

  @Override
  public T patch(String namespace, String name, PatchType patchType, String patch) {
    Objects.requireNonNull(patchType, "patchType");
    Objects.requireNonNull(patch, "patch");
    HttpRequest.Builder req = client.request(objectPath(namespace, name))
        .header("Content-Type", patchType.mediaType())
        .method("PATCH", HttpRequest.BodyPublishers.ofString(patch, StandardCharsets.UTF_8));
    return readObject(expectSuccess(client.send(req)));
  }

  @Override
  public DynamicObject createSubresource(String namespace, String name, String subresource, DynamicObject body) {
    Objects.requireNonNull(subresource, "subresource");
    Objects.requireNonNull(body, "body");
    String path = objectPath(namespace, name) + "/" + PathSegments.encode(subresource);
    HttpRequest.Builder req = client.request(path)
        .header("Content-Type", JSON).POST(HttpRequest.BodyPublishers.ofByteArray(body.toJson()));
    HttpResponse<InputStream> r = expectSuccess(client.send(req));
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
    return delete(client.request(objectPath(namespace, name)).DELETE());
  }

  @Override
  public boolean delete(String namespace, String name, DeleteOptions options) {
    byte[] body;
    try {
      body = Json.MAPPER.writeValueAsBytes(Objects.requireNonNull(options, "options").toTree());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return delete(client.request(objectPath(namespace, name)).header("Content-Type", JSON)
        .method("DELETE", HttpRequest.BodyPublishers.ofByteArray(body)));
  }

  private boolean delete(HttpRequest.Builder request) {
    HttpResponse<InputStream> r = client.send(request);
    if (r.statusCode() == 404) {
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
    return type.namespaced() && ns.isEmpty() ? client.config().namespace() : ns;
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

  private T readObject(HttpResponse<InputStream> r) {
    try (InputStream body = r.body(); JsonParser p = Json.FACTORY.createParser(recordIfNeeded(body, codec))) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("response is not a JSON object");
      }
      return codec.decode(p);
    } catch (IOException e) {
      throw new UncheckedIOException(r.request().method() + " " + r.uri() + ": " + e.getMessage(), e);
    }
  }

  /** The response if 2xx; otherwise throws its Status. */
  private static HttpResponse<InputStream> expectSuccess(HttpResponse<InputStream> r) {
    int code = r.statusCode();
    if (code >= 200 && code < 300) {
      return r;
    }
    StatusException e = StatusErrors.fromResponse(code, r.headers(), r.body());
    throw e;
  }

  private static void discard(HttpResponse<InputStream> r) {
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
