package io.listwatch.apiserver.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.admission.Listers;
import io.listwatch.apiserver.webhook.WebhookCallException;
import io.listwatch.apiserver.webhook.WebhookClient;
import io.listwatch.apiserver.webhook.WebhookClientConfig;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * Webhook configurations and webhooks for the plug-ins' unit tests: {@link Listers} over the
 * objects a test adds, and a {@link WebhookCaller} that answers each URL with the test's handler
 * (from the posted review's {@code request} to a future of the whole answer). Every post is
 * recorded. Thread-safe.
 */
final class FakeWebhooks implements Listers, WebhookCaller {

  /** A post: the URL, the review and the timeout. */
  record Post(String url, ObjectNode review, Duration timeout) {
  }

  private final Map<String, ObjectNode> objects = new ConcurrentHashMap<>();
  private final Map<String, Function<ObjectNode, CompletableFuture<WebhookClient.Response>>> handlers =
      new ConcurrentHashMap<>();
  final List<Post> posts = new CopyOnWriteArrayList<>();

  /** Adds an object of {@code group}/{@code plural}. */
  FakeWebhooks add(String group, String plural, String namespace, String json) {
    ObjectNode obj = InMemoryCore.json(json);
    objects.put(group + "/" + plural + "/" + namespace + "/" + obj.path("metadata").path("name").asText(), obj);
    return this;
  }

  /** Answers posts to {@code url} with the review's response {@code response} gives for its request. */
  FakeWebhooks answer(String url, Function<ObjectNode, String> response) {
    handlers.put(url, request -> CompletableFuture.completedFuture(new WebhookClient.Response(200,
        review(request.path("uid").asText(), response.apply(request)).getBytes(StandardCharsets.UTF_8))));
    return this;
  }

  /** Answers posts to {@code url} as {@code handler} says (a raw answer, a failure, a future completed later). */
  FakeWebhooks handle(String url, Function<ObjectNode, CompletableFuture<WebhookClient.Response>> handler) {
    handlers.put(url, handler);
    return this;
  }

  /** Fails posts to {@code url} as the client does when the webhook does not answer in time. */
  FakeWebhooks timesOut(String url) {
    return handle(url, r -> CompletableFuture.failedFuture(new WebhookCallException(
        "Post \"" + url + "?timeout=1s\": context deadline exceeded", null, true)));
  }

  /** An AdmissionReview v1 answering {@code uid} with the response fields {@code fields} (JSON members). */
  static String review(String uid, String fields) {
    return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"response\":{\"uid\":\"" + uid + "\""
        + (fields.isEmpty() ? "" : "," + fields) + "}}";
  }

  /** The response fields of a JSON Patch. */
  static String patch(String jsonPatch) {
    return "\"allowed\":true,\"patchType\":\"JSONPatch\",\"patch\":\""
        + Base64.getEncoder().encodeToString(jsonPatch.getBytes(StandardCharsets.UTF_8)) + "\"";
  }

  /** The URLs posted to, in order. */
  List<String> urls() {
    List<String> out = new ArrayList<>();
    posts.forEach(p -> out.add(p.url()));
    return out;
  }

  @Override
  public CompletableFuture<WebhookClient.Response> post(WebhookClientConfig config, byte[] json, Duration timeout) {
    ObjectNode review = InMemoryCore.json(new String(json, StandardCharsets.UTF_8));
    posts.add(new Post(config.location(), review, timeout));
    var handler = handlers.get(config.location());
    if (handler == null) {
      return CompletableFuture.failedFuture(new WebhookCallException("Post \"" + config.location()
          + "?timeout=" + timeout.toSeconds() + "s\": dial tcp 127.0.0.1:443: connect: connection refused"));
    }
    return handler.apply((ObjectNode) review.get("request"));
  }

  @Override
  public Optional<ObjectNode> get(String group, String plural, String namespace, String name) {
    return Optional.ofNullable(objects.get(group + "/" + plural + "/" + namespace + "/" + name)).map(ObjectNode::deepCopy);
  }

  @Override
  public List<ObjectNode> list(String group, String plural, String namespace) {
    String prefix = group + "/" + plural + "/";
    List<ObjectNode> out = new ArrayList<>();
    objects.forEach((k, v) -> {
      if (k.startsWith(prefix)) {
        out.add(v.deepCopy());
      }
    });
    return out;
  }

  /** {@code JsonNode} text without the request's random uid. */
  static String withoutUid(JsonNode request) {
    ObjectNode copy = request.deepCopy();
    copy.remove("uid");
    return copy.toString();
  }
}
