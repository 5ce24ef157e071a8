package io.listwatch.server.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Admission webhooks as the real kubectl (1.32, from PATH) meets them: a mutating webhook that
 * labels ConfigMaps and a validating webhook that refuses one name, both reached through a
 * Service ({@code ExternalName localhost}: kube refuses loopback Endpoints) in front of a test
 * HTTPS server on 127.0.0.1; webhooks that
 * are down under failurePolicy Fail and Ignore; a webhook that does not answer within its
 * timeoutSeconds. Each scenario has a namespace of its own, which its configuration's
 * namespaceSelector picks by a label.
 */
@EndToEnd
@ExtendWith(ApiServerExtension.class)
class KubectlAdmissionWebhookTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration CONFIGURED = Duration.ofSeconds(20);

  @TempDir
  static Path workDir;

  static Kubectl kubectl;
  static int downPort;
  static TestWebhookServer hooks;
  /** Holds the slow webhook's answers until the test has seen the timeout. */
  static final CountDownLatch SLOW_RELEASED = new CountDownLatch(1);

  @BeforeAll
  static void webhooks(ApiServer server) throws Exception {
    kubectl = Kubectl.forServer(server.url(), workDir);
    hooks = new TestWebhookServer(List.of("hooks.webhook-system.svc", "down.webhook-system.svc"))
        .handle("/mutate", r -> answer(r, review -> {
          JsonNode labels = review.path("object").path("metadata").path("labels");
          String patch = labels.isObject()
              ? "[{\"op\":\"add\",\"path\":\"/metadata/labels/mutated-by\",\"value\":\"webhook\"}]"
              : "[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"mutated-by\":\"webhook\"}}]";
          return "\"allowed\":true,\"patchType\":\"JSONPatch\",\"patch\":\""
              + Base64.getEncoder().encodeToString(patch.getBytes(StandardCharsets.UTF_8)) + "\"";
        }))
        .handle("/validate", r -> answer(r, review -> {
          if (review.path("operation").asText().equals("DELETE")) {
            return review.path("oldObject").path("metadata").path("name").asText().equals("keep")
                ? "\"allowed\":false,\"status\":{\"message\":\"keep is kept\"}" : "\"allowed\":true";
          }
          return review.path("name").asText().equals("forbidden")
              ? "\"allowed\":false,\"status\":{\"code\":403,\"reason\":\"Forbidden\","
                  + "\"message\":\"the name forbidden is not allowed\"}"
              : "\"allowed\":true,\"warnings\":[\"checked by validate.example.com\"]";
        }))
        .handle("/slow", r -> {
          try {
            SLOW_RELEASED.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return answer(r, review -> "\"allowed\":true");
        });
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    // kube refuses loopback Endpoints, so the Services name the test server's host (kube resolves an ExternalName too)
    kubectl.ok("apply", "-f", kubectl.file("setup.yaml", """
        apiVersion: v1
        kind: Namespace
        metadata:
          name: webhook-system
        ---
        apiVersion: v1
        kind: Service
        metadata:
          name: hooks
          namespace: webhook-system
        spec:
          type: ExternalName
          externalName: localhost
        ---
        apiVersion: v1
        kind: Service
        metadata:
          name: down
          namespace: webhook-system
        spec:
          type: ExternalName
          externalName: localhost
        """).toString());
    for (String scenario : List.of("main", "down-fail", "down-ignore", "slow")) {
      kubectl.ok("create", "namespace", "wh-" + scenario);
      kubectl.ok("label", "namespace", "wh-" + scenario, "scenario=" + scenario);
    }
    String ca = hooks.caBundle();
    downPort = closedPort;
    kubectl.ok("apply", "-f", kubectl.file("webhooks.yaml", """
        apiVersion: admissionregistration.k8s.io/v1
        kind: MutatingWebhookConfiguration
        metadata:
          name: label-configmaps
        webhooks:
        - name: label.example.com
          clientConfig:
            service: {namespace: webhook-system, name: hooks, path: /mutate, port: %2$d}
            caBundle: %1$s
          rules:
          - {operations: [CREATE, UPDATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}
          namespaceSelector: {matchLabels: {scenario: main}}
          sideEffects: None
          admissionReviewVersions: [v1]
        - name: down-fail.example.com
          clientConfig:
            service: {namespace: webhook-system, name: down, path: /mutate, port: %3$d}
            caBundle: %1$s
          rules:
          - {operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}
          namespaceSelector: {matchLabels: {scenario: down-fail}}
          failurePolicy: Fail
          sideEffects: None
          admissionReviewVersions: [v1]
        - name: down-ignore.example.com
          clientConfig:
            service: {namespace: webhook-system, name: down, path: /mutate, port: %3$d}
            caBundle: %1$s
          rules:
          - {operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}
          namespaceSelector: {matchLabels: {scenario: down-ignore}}
          failurePolicy: Ignore
          sideEffects: None
          admissionReviewVersions: [v1]
        ---
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingWebhookConfiguration
        metadata:
          name: check-configmaps
        webhooks:
        - name: validate.example.com
          clientConfig:
            service: {namespace: webhook-system, name: hooks, path: /validate, port: %2$d}
            caBundle: %1$s
          rules:
          - {operations: [CREATE, UPDATE, DELETE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}
          namespaceSelector: {matchLabels: {scenario: main}}
          sideEffects: None
          admissionReviewVersions: [v1]
        - name: slow.example.com
          clientConfig:
            service: {namespace: webhook-system, name: hooks, path: /slow, port: %2$d}
            caBundle: %1$s
          rules:
          - {operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}
          namespaceSelector: {matchLabels: {scenario: slow}}
          timeoutSeconds: 1
          sideEffects: None
          admissionReviewVersions: [v1]
        """.formatted(ca, hooks.port(), closedPort)).toString());
    // the configurations apply once the server's cache has them: a dry run shows when
    awaitResult(() -> kubectl.run("create", "configmap", "probe", "-n", "wh-main", "--dry-run=server",
        "-o", "jsonpath={.metadata.labels.mutated-by}"), r -> r.stdout().equals("webhook"));
    awaitResult(() -> kubectl.run("create", "configmap", "forbidden", "-n", "wh-main", "--dry-run=server"),
        r -> r.exitCode() != 0);
    awaitResult(() -> kubectl.run("create", "configmap", "probe", "-n", "wh-down-fail", "--dry-run=server"),
        r -> r.exitCode() != 0);
  }

  @AfterAll
  static void stop() {
    SLOW_RELEASED.countDown();
    if (hooks != null) {
      hooks.close();
    }
  }

  /** Runs {@code attempt} until its result passes {@code done} (the server's cache catching up), at most {@link #CONFIGURED}. */
  private static Kubectl.Result awaitResult(java.util.function.Supplier<Kubectl.Result> attempt,
      Predicate<Kubectl.Result> done) {
    Instant deadline = Instant.now().plus(CONFIGURED);
    Kubectl.Result r = attempt.get();
    while (!done.test(r) && Instant.now().isBefore(deadline)) {
      r = attempt.get();
    }
    assertThat(done).as("kubectl result %s", r).accepts(r);
    return r;
  }

  /** An AdmissionReview answering the posted review with the response fields {@code fields} gives for its request. */
  private static String answer(TestWebhookServer.Request posted, java.util.function.Function<JsonNode, String> fields) {
    JsonNode request;
    try {
      request = JSON.readTree(posted.body()).path("request");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"response\":{\"uid\":\""
        + request.path("uid").asText() + "\"," + fields.apply(request) + "}}";
  }

  @Test
  void createAndApply_areLabelledByTheMutatingWebhook_andWarnedByTheValidatingOne() throws IOException {
    Kubectl.Result created = kubectl.ok("create", "configmap", "plain", "-n", "wh-main", "--from-literal=a=b");
    assertThat(created.stdout()).isEqualTo("configmap/plain created\n");
    assertThat(created.stderr()).isEqualTo("Warning: checked by validate.example.com\n");
    assertThat(kubectl.ok("get", "configmap", "plain", "-n", "wh-main", "-o", "jsonpath={.metadata.labels}").stdout())
        .isEqualTo("{\"mutated-by\":\"webhook\"}");

    Path manifest = kubectl.file("applied.yaml", """
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: applied
          namespace: wh-main
          labels:
            app: web
        data:
          a: b
        """);
    assertThat(kubectl.ok("apply", "-f", manifest.toString()).stdout()).isEqualTo("configmap/applied created\n");
    assertThat(kubectl.ok("get", "configmap", "applied", "-n", "wh-main", "-o", "jsonpath={.metadata.labels}").stdout())
        .isEqualTo("{\"app\":\"web\",\"mutated-by\":\"webhook\"}");

    // an update is mutated too: the label the webhook added stays though the manifest lacks it
    Path changed = kubectl.file("applied.yaml", Files.readString(manifest).replace("a: b", "a: c"));
    assertThat(kubectl.ok("apply", "-f", changed.toString()).stdout()).isEqualTo("configmap/applied configured\n");
    assertThat(kubectl.ok("get", "configmap", "applied", "-n", "wh-main", "-o",
        "jsonpath={.data.a} {.metadata.labels}").stdout()).isEqualTo("c {\"app\":\"web\",\"mutated-by\":\"webhook\"}");
  }

  @Test
  void aDeleteRefusedByTheValidatingWebhook_isPrintedAsKubePrintsIt() {
    kubectl.ok("create", "configmap", "keep", "-n", "wh-main");
    Kubectl.Result refused = kubectl.run("delete", "configmap", "keep", "-n", "wh-main");
    assertThat(refused.exitCode()).isEqualTo(1);
    assertThat(refused.stderr()).isEqualTo("Error from server: admission webhook \"validate.example.com\" denied the "
        + "request: keep is kept\n");
    kubectl.ok("create", "configmap", "gone", "-n", "wh-main");
    assertThat(kubectl.ok("delete", "configmap", "gone", "-n", "wh-main").stdout())
        .isEqualTo("configmap \"gone\" deleted\n");
  }

  @Test
  void theValidatingWebhooksRefusal_isPrintedAsKubePrintsIt() {
    Path manifest = kubectl.file("forbidden.yaml", """
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: forbidden
          namespace: wh-main
        """);
    Kubectl.Result created = kubectl.run("create", "-f", manifest.toString());
    assertThat(created.exitCode()).isEqualTo(1);
    assertThat(created.stderr()).isEqualTo("Error from server (Forbidden): error when creating \"" + manifest
        + "\": admission webhook \"validate.example.com\" denied the request: the name forbidden is not allowed\n");
    Kubectl.Result applied = kubectl.run("apply", "-f", manifest.toString());
    assertThat(applied.exitCode()).isEqualTo(1);
    assertThat(applied.stderr()).isEqualTo("Error from server (Forbidden): error when creating \"" + manifest
        + "\": admission webhook \"validate.example.com\" denied the request: the name forbidden is not allowed\n");
    assertThat(kubectl.run("get", "configmap", "forbidden", "-n", "wh-main").exitCode()).isEqualTo(1);
  }

  @Test
  void aWebhookThatIsDown_refusesUnderFail_andIsSkippedUnderIgnore() {
    Kubectl.Result failed = kubectl.run("create", "configmap", "c", "-n", "wh-down-fail");
    assertThat(failed.exitCode()).isEqualTo(1);
    assertThat(failed.stderr()).startsWith("error: failed to create configmap: Internal error occurred: failed calling "
        + "webhook \"down-fail.example.com\": failed to call webhook: Post "
        + "\"https://down.webhook-system.svc:" + downPort + "/mutate?timeout=10s\": ");
    assertThat(failed.stderr()).contains("connection refused");

    assertThat(kubectl.ok("create", "configmap", "c", "-n", "wh-down-ignore").stdout())
        .isEqualTo("configmap/c created\n");
  }

  @Test
  void aWebhookThatDoesNotAnswerInTime_failsTheWrite_afterItsTimeout() {
    try {
      Kubectl.Result r = kubectl.run("create", "configmap", "c", "-n", "wh-slow");
      assertThat(r.exitCode()).isEqualTo(1);
      assertThat(r.stderr()).isEqualTo("error: failed to create configmap: Internal error occurred: failed calling "
          + "webhook \"slow.example.com\": failed to call webhook: Post "
          + "\"https://hooks.webhook-system.svc:" + hooks.port() + "/slow?timeout=1s\": context deadline exceeded\n");
    } finally {
      SLOW_RELEASED.countDown();
    }
  }

  @Test
  void aServerSideDryRun_callsWebhooksWithoutSideEffects_withDryRunSet() {
    Kubectl.Result r = kubectl.ok("create", "configmap", "dry", "-n", "wh-main", "--dry-run=server",
        "-o", "jsonpath={.metadata.labels}");
    assertThat(r.stdout()).isEqualTo("{\"mutated-by\":\"webhook\"}");
    assertThat(kubectl.run("get", "configmap", "dry", "-n", "wh-main").exitCode()).isEqualTo(1);
  }
}
