package io.listwatch.apiserver.admission.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.admission.AdmissionAttributes;
import io.listwatch.apiserver.admission.AdmissionAttributes.Operation;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import io.listwatch.apiserver.request.UserInfo;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** The mutating phase of admission webhooks: order, patches, reinvocation, failures, dry runs, selectors. */
class MutatingAdmissionWebhookTest {

  static final ResourceDefinition PODS = ResourceRegistry.builtins().find("", "v1", "pods").orElseThrow();
  static final UserInfo ALICE = UserInfo.of("alice", List.of("system:authenticated"));
  static final String POD_RULE = "{\"operations\":[\"CREATE\",\"UPDATE\",\"DELETE\"],\"apiGroups\":[\"\"],"
      + "\"apiVersions\":[\"v1\"],\"resources\":[\"pods\"]}";

  private static final java.util.concurrent.atomic.AtomicLong VERSIONS = new java.util.concurrent.atomic.AtomicLong();

  private final FakeWebhooks fake = new FakeWebhooks();
  private final MutatingAdmissionWebhook plugin = new MutatingAdmissionWebhook(fake, fake);

  /** A configuration of {@code plural} named {@code name} holding {@code webhooks}. */
  static String configuration(String name, String... webhooks) {
    return "{\"metadata\":{\"name\":\"" + name + "\",\"uid\":\"uid-" + name + "\",\"resourceVersion\":\""
        + VERSIONS.incrementAndGet() + "\"},"
        + "\"webhooks\":[" + String.join(",", webhooks) + "]}";
  }

  /** A webhook on pods called at {@code https://<name>/}, with {@code extra} fields (JSON members, may be ""). */
  static String webhook(String name, String extra) {
    return "{\"name\":\"" + name + "\",\"clientConfig\":{\"url\":\"https://" + name + "/\"},\"rules\":[" + POD_RULE
        + "],\"sideEffects\":\"None\",\"admissionReviewVersions\":[\"v1\"]" + (extra.isEmpty() ? "" : "," + extra) + "}";
  }

  private void configure(String name, String... webhooks) {
    fake.add("admissionregistration.k8s.io", "mutatingwebhookconfigurations", "", configuration(name, webhooks));
  }

  static AdmissionAttributes create(ObjectNode pod, boolean dryRun) {
    return new AdmissionAttributes(Operation.CREATE, PODS, "", "default", pod.path("metadata").path("name").asText(),
        pod, null, ALICE, dryRun);
  }

  static ObjectNode pod(String name) {
    return InMemoryCore.json("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name
        + "\",\"namespace\":\"default\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}");
  }

  private void admit(AdmissionAttributes a) {
    try {
      plugin.admitAsync(a).join();
    } catch (CompletionException e) {
      throw (RuntimeException) e.getCause();
    }
  }

  @Test
  void aPatch_isApplied_andTheReviewIsKubes() {
    configure("labels", webhook("label.example.com", "\"timeoutSeconds\":3"));
    fake.answer("https://label.example.com/", r -> FakeWebhooks.patch(
        "[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"mutated\":\"yes\"}}]"));
    ObjectNode pod = pod("p");
    admit(create(pod, false));

    assertThat(pod.path("metadata").path("labels").toString()).isEqualTo("{\"mutated\":\"yes\"}");
    FakeWebhooks.Post post = fake.posts.getFirst();
    assertThat(post.timeout()).isEqualTo(Duration.ofSeconds(3));
    assertThat(post.review().path("apiVersion").asText()).isEqualTo("admission.k8s.io/v1");
    assertThat(post.review().path("kind").asText()).isEqualTo("AdmissionReview");
    assertThat(post.review().path("request").path("uid").asText()).hasSize(36);
    assertThat(FakeWebhooks.withoutUid(post.review().path("request"))).isEqualTo("{"
        + "\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"},"
        + "\"resource\":{\"group\":\"\",\"version\":\"v1\",\"resource\":\"pods\"},"
        + "\"requestKind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"},"
        + "\"requestResource\":{\"group\":\"\",\"version\":\"v1\",\"resource\":\"pods\"},"
        + "\"name\":\"p\",\"namespace\":\"default\",\"operation\":\"CREATE\","
        + "\"userInfo\":{\"username\":\"alice\",\"groups\":[\"system:authenticated\"]},"
        + "\"object\":" + pod("p") + ",\"oldObject\":null,\"dryRun\":false,"
        + "\"options\":{\"kind\":\"CreateOptions\",\"apiVersion\":\"meta.k8s.io/v1\"}}");
  }

  @Test
  void webhooks_areCalledByConfigurationName_thenInOrder_eachSeeingTheChangesBefore() {
    configure("b-second", webhook("three", ""));
    configure("a-first", webhook("one", ""), webhook("two", ""));
    for (String name : List.of("one", "two", "three")) {
      fake.answer("https://" + name + "/", r -> FakeWebhooks.patch("[{\"op\":\"add\",\"path\":\"/metadata/annotations/"
          + name + "\",\"value\":\"" + r.path("object").path("metadata").path("annotations").size() + "\"}]"));
    }
    ObjectNode pod = pod("p");
    pod.with("metadata").putObject("annotations");
    admit(create(pod, false));

    assertThat(fake.urls()).containsExactly("https://one/", "https://two/", "https://three/");
    assertThat(pod.path("metadata").path("annotations").toString()).isEqualTo("{\"one\":\"0\",\"two\":\"1\",\"three\":\"2\"}");
  }

  @Test
  void reinvocationIfNeeded_callsAnEarlierWebhookAgain_whenALaterOneChangedTheObject() {
    configure("a", webhook("first", "\"reinvocationPolicy\":\"IfNeeded\""), webhook("never", ""),
        webhook("changer", ""));
    fake.answer("https://first/", r -> "\"allowed\":true");
    fake.answer("https://never/", r -> "\"allowed\":true");
    fake.answer("https://changer/", r -> r.path("object").path("metadata").has("labels") ? "\"allowed\":true"
        : FakeWebhooks.patch("[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"x\":\"y\"}}]"));
    AdmissionAttributes a = create(pod("p"), false);
    admit(a);

    assertThat(fake.urls()).containsExactly("https://first/", "https://never/", "https://changer/", "https://first/");
    assertThat(fake.posts.getLast().review().path("request").path("object").path("metadata").path("labels").toString())
        .isEqualTo("{\"x\":\"y\"}");
    assertThat(a.auditAnnotations().map()).containsEntry("mutation.webhook.admission.k8s.io/round_0_index_2",
        "{\"configuration\":\"a\",\"webhook\":\"changer\",\"mutated\":true}")
        .containsEntry("mutation.webhook.admission.k8s.io/round_1_index_0",
            "{\"configuration\":\"a\",\"webhook\":\"first\",\"mutated\":false}");
  }

  @Test
  void aRefusal_isKubesStatus_withTheWebhooksMessageAndCode() {
    configure("a", webhook("deny.example.com", ""));
    fake.answer("https://deny.example.com/", r -> "\"allowed\":false,\"status\":{\"code\":403,\"reason\":\"Forbidden\","
        + "\"message\":\"no pods today\"}");
    assertThatThrownBy(() -> admit(create(pod("p"), false))).isInstanceOfSatisfying(StatusException.class, e -> {
      assertThat(e.code()).isEqualTo(403);
      assertThat(e.reason()).isEqualTo("Forbidden");
      assertThat(e.getMessage()).isEqualTo("admission webhook \"deny.example.com\" denied the request: no pods today");
    });
  }

  @Test
  void aRefusalWithoutStatus_is400_withoutExplanation() {
    configure("a", webhook("deny.example.com", ""));
    fake.answer("https://deny.example.com/", r -> "\"allowed\":false");
    assertThatThrownBy(() -> admit(create(pod("p"), false))).isInstanceOfSatisfying(StatusException.class, e -> {
      assertThat(e.code()).isEqualTo(400);
      assertThat(e.getMessage()).isEqualTo("admission webhook \"deny.example.com\" denied the request without explanation");
    });
  }

  @Test
  void aTimeout_underFail_is500_namingTheWebhook() {
    configure("a", webhook("slow.example.com", "\"timeoutSeconds\":1"));
    fake.timesOut("https://slow.example.com/");
    assertThatThrownBy(() -> admit(create(pod("p"), false))).isInstanceOfSatisfying(StatusException.class, e -> {
      assertThat(e.code()).isEqualTo(500);
      assertThat(e.reason()).isEqualTo("InternalError");
      assertThat(e.getMessage()).isEqualTo("Internal error occurred: failed calling webhook \"slow.example.com\": "
          + "failed to call webhook: Post \"https://slow.example.com/?timeout=1s\": context deadline exceeded");
    });
  }

  @Test
  void aFailureUnderIgnore_letsTheWriteThrough_notedInTheAuditAnnotations() {
    configure("a", webhook("down.example.com", "\"failurePolicy\":\"Ignore\""), webhook("up.example.com", ""));
    fake.answer("https://up.example.com/", r -> FakeWebhooks.patch(
        "[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"up\":\"yes\"}}]"));
    AdmissionAttributes a = create(pod("p"), false);
    admit(a);
    assertThat(a.object().path("metadata").path("labels").path("up").asText()).isEqualTo("yes");
    assertThat(a.auditAnnotations().map()).containsEntry("failed-open.mutation.webhook.admission.k8s.io/round_0_index_0",
        "down.example.com");
  }

  @Test
  void anInvalidAnswer_isAFailedCall() {
    configure("a", webhook("bad.example.com", ""));
    fake.handle("https://bad.example.com/", r -> java.util.concurrent.CompletableFuture.completedFuture(
        new io.listwatch.apiserver.webhook.WebhookClient.Response(200,
            FakeWebhooks.review("other", "\"allowed\":true").getBytes(java.nio.charset.StandardCharsets.UTF_8))));
    assertThatThrownBy(() -> admit(create(pod("p"), false))).isInstanceOfSatisfying(StatusException.class, e ->
        assertThat(e.getMessage()).matches("Internal error occurred: failed calling webhook \"bad.example.com\": "
            + "received invalid webhook response: expected response.uid=\"[-0-9a-f]{36}\", got \"other\""));
  }

  @Test
  void aDryRun_refusesWebhooksWithSideEffects_andTellsTheOthers() {
    configure("a", webhook("some.example.com", "\"sideEffects\":\"Some\""));
    assertThatThrownBy(() -> admit(create(pod("p"), true))).isInstanceOfSatisfying(StatusException.class, e -> {
      assertThat(e.code()).isEqualTo(400);
      assertThat(e.getMessage()).isEqualTo("admission webhook \"some.example.com\" does not support dry run");
    });
    assertThat(fake.posts).isEmpty();

    configure("a", webhook("none.example.com", "\"sideEffects\":\"NoneOnDryRun\""));
    fake.answer("https://none.example.com/", r -> "\"allowed\":true");
    admit(create(pod("p"), true));
    ObjectNode request = (ObjectNode) fake.posts.getFirst().review().path("request");
    assertThat(request.path("dryRun").asBoolean()).isTrue();
    assertThat(request.path("options").toString())
        .isEqualTo("{\"kind\":\"CreateOptions\",\"apiVersion\":\"meta.k8s.io/v1\",\"dryRun\":[\"All\"]}");
  }

  @Test
  void warningsAndAuditAnnotations_reachTheClientAndTheAuditEvent() {
    configure("a", webhook("w.example.com", ""));
    fake.answer("https://w.example.com/", r -> "\"allowed\":true,\"warnings\":[\"careful\"],"
        + "\"auditAnnotations\":{\"seen\":\"yes\"}");
    AdmissionAttributes a = create(pod("p"), false);
    admit(a);
    assertThat(a.warnings().list()).containsExactly("careful");
    assertThat(a.auditAnnotations().map()).containsEntry("w.example.com/seen", "yes");
  }

  @Test
  void selectors_skipWebhooks_byTheNamespacesAndTheObjectsLabels() {
    fake.add("", "namespaces", "", "{\"metadata\":{\"name\":\"default\",\"labels\":{\"team\":\"a\"}}}");
    configure("a", webhook("ns-b", "\"namespaceSelector\":{\"matchLabels\":{\"team\":\"b\"}}"),
        webhook("ns-a", "\"namespaceSelector\":{\"matchLabels\":{\"team\":\"a\"}}"),
        webhook("obj", "\"objectSelector\":{\"matchExpressions\":[{\"key\":\"app\",\"operator\":\"Exists\"}]}"));
    fake.answer("https://ns-a/", r -> "\"allowed\":true");
    fake.answer("https://obj/", r -> "\"allowed\":true");
    admit(create(pod("p"), false));
    assertThat(fake.urls()).containsExactly("https://ns-a/");

    ObjectNode labelled = pod("q");
    labelled.with("metadata").putObject("labels").put("app", "web");
    admit(create(labelled, false));
    assertThat(fake.urls()).containsExactly("https://ns-a/", "https://ns-a/", "https://obj/");
  }

  @Test
  void aNamespaceSelector_onAMissingNamespace_isNotFound() {
    configure("a", webhook("ns", "\"namespaceSelector\":{\"matchLabels\":{\"team\":\"b\"}}"));
    assertThatThrownBy(() -> admit(create(pod("p"), false))).isInstanceOfSatisfying(StatusException.class, e -> {
      assertThat(e.code()).isEqualTo(404);
      assertThat(e.getMessage()).isEqualTo("namespaces \"default\" not found");
    });
  }

  @Test
  void matchConditions_skipTheWebhook_whenOneIsFalse_andErrorsFollowTheFailurePolicy() {
    configure("a", webhook("cond", "\"matchConditions\":[{\"name\":\"not-kube-system\","
        + "\"expression\":\"request.namespace != 'default'\"}]"));
    admit(create(pod("p"), false));
    assertThat(fake.posts).isEmpty();

    configure("a", webhook("cond", "\"matchConditions\":[{\"name\":\"bad\",\"expression\":\"object.spec.missing == 1\"}]"));
    assertThatThrownBy(() -> admit(create(pod("p"), false))).isInstanceOfSatisfying(StatusException.class, e -> {
      assertThat(e.code()).isEqualTo(403);
      assertThat(e.getMessage()).isEqualTo("pods \"p\" is forbidden: expression 'object.spec.missing == 1' "
          + "resulted in error: no such key: missing");
    });

    configure("a", webhook("cond", "\"failurePolicy\":\"Ignore\",\"matchConditions\":[{\"name\":\"bad\","
        + "\"expression\":\"object.spec.missing == 1\"}]"));
    admit(create(pod("p"), false));
    assertThat(fake.posts).isEmpty();
  }

  @Test
  void theWebhookConfigurationsThemselves_neverCallWebhooks() {
    configure("a", webhook("all", "\"rules\":[{\"operations\":[\"*\"],\"apiGroups\":[\"*\"],\"apiVersions\":[\"*\"],"
        + "\"resources\":[\"*/*\"]}]"));
    ResourceDefinition configs = ResourceRegistry.builtins()
        .find("admissionregistration.k8s.io", "v1", "mutatingwebhookconfigurations").orElseThrow();
    admit(new AdmissionAttributes(Operation.CREATE, configs, "", "", "x", InMemoryCore.json("{}"), null, ALICE, false));
    assertThat(fake.posts).isEmpty();
  }

  @Test
  void aDelete_isReviewedWithTheOldObject_andMayNotBePatched() {
    configure("a", webhook("del", ""));
    fake.answer("https://del/", r -> FakeWebhooks.patch("[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{}}]"));
    AdmissionAttributes delete = new AdmissionAttributes(Operation.DELETE, PODS, "", "default", "p", null, pod("p"),
        ALICE, false);
    assertThatThrownBy(() -> admit(delete)).isInstanceOfSatisfying(StatusException.class, e ->
        assertThat(e.getMessage()).isEqualTo("Internal error occurred: admission webhook \"del\" attempted to modify "
            + "the object, which is not supported for this operation"));
    ObjectNode request = (ObjectNode) fake.posts.getFirst().review().path("request");
    assertThat(request.path("object").isNull()).isTrue();
    assertThat(request.path("oldObject").path("metadata").path("name").asText()).isEqualTo("p");
    assertThat(request.path("options").toString()).isEqualTo("{\"kind\":\"DeleteOptions\",\"apiVersion\":\"meta.k8s.io/v1\"}");
  }

  @Test
  void aPatchThatDoesNotApply_isAnInternalError_whateverTheFailurePolicy() {
    configure("a", webhook("bad", "\"failurePolicy\":\"Ignore\""));
    fake.answer("https://bad/", r -> FakeWebhooks.patch("[{\"op\":\"replace\",\"path\":\"/metadata/labels/x\",\"value\":\"y\"}]"));
    assertThatThrownBy(() -> admit(create(pod("p"), false))).isInstanceOfSatisfying(StatusException.class, e ->
        assertThat(e.code()).isEqualTo(500));
  }

  @Test
  void aNamespace_isJudgedByItsOwnLabels_andNamedAsItsOwnNamespaceOnUpdate() {
    configure("a", webhook("ns", "\"rules\":[{\"operations\":[\"*\"],\"apiGroups\":[\"\"],\"apiVersions\":[\"v1\"],"
        + "\"resources\":[\"namespaces\"],\"scope\":\"Cluster\"}],\"namespaceSelector\":{\"matchLabels\":{\"team\":\"a\"}}"));
    fake.answer("https://ns/", r -> "\"allowed\":true");
    ResourceDefinition namespaces = ResourceRegistry.builtins().find("", "v1", "namespaces").orElseThrow();
    ObjectNode other = InMemoryCore.json("{\"metadata\":{\"name\":\"b\",\"labels\":{\"team\":\"b\"}}}");
    admit(new AdmissionAttributes(Operation.CREATE, namespaces, "", "", "b", other, null, ALICE, false));
    assertThat(fake.posts).isEmpty();

    ObjectNode teamA = InMemoryCore.json("{\"metadata\":{\"name\":\"a\",\"labels\":{\"team\":\"a\"}}}");
    admit(new AdmissionAttributes(Operation.CREATE, namespaces, "", "", "a", teamA, null, ALICE, false));
    admit(new AdmissionAttributes(Operation.UPDATE, namespaces, "", "", "a", teamA, teamA.deepCopy(), ALICE, false));
    assertThat(fake.posts).hasSize(2);
    assertThat(fake.posts.get(0).review().path("request").has("namespace")).isFalse();
    assertThat(fake.posts.get(1).review().path("request").path("namespace").asText()).isEqualTo("a");
    assertThat(fake.posts.get(1).review().path("request").path("options").path("kind").asText()).isEqualTo("UpdateOptions");
  }

  @Test
  void matchPolicyEquivalent_callsAWebhookOfAnotherServedVersion_withTheObjectAtThatVersion() {
    ObjectNode spec = InMemoryCore.json("{\"group\":\"example.com\",\"versions\":[{\"name\":\"v1\",\"served\":true},"
        + "{\"name\":\"v2\",\"served\":true},{\"name\":\"v3\",\"served\":false}]}");
    ResourceDefinition widgets = ResourceDefinition.builder("example.com", "v1", "Widget", "widgets")
        .customResource(new io.listwatch.apiserver.registry.CustomResourceVersion(spec, spec.path("versions").get(0)))
        .build();
    String v2Rule = "\"rules\":[{\"operations\":[\"CREATE\"],\"apiGroups\":[\"example.com\"],\"apiVersions\":[\"v2\"],"
        + "\"resources\":[\"widgets\"]}]";
    configure("a", webhook("exact", v2Rule + ",\"matchPolicy\":\"Exact\""), webhook("equivalent", v2Rule));
    fake.answer("https://equivalent/", r -> FakeWebhooks.patch(
        "[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"seen\":\"" + r.path("object").path("apiVersion").asText()
            .replace("/", "-") + "\"}}]"));
    ObjectNode widget = InMemoryCore.json("{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\","
        + "\"metadata\":{\"name\":\"w\",\"namespace\":\"default\"}}");
    admit(new AdmissionAttributes(Operation.CREATE, widgets, "", "default", "w", widget, null, ALICE, false));

    assertThat(fake.urls()).containsExactly("https://equivalent/");
    ObjectNode request = (ObjectNode) fake.posts.getFirst().review().path("request");
    assertThat(request.path("kind").toString()).isEqualTo("{\"group\":\"example.com\",\"version\":\"v2\",\"kind\":\"Widget\"}");
    assertThat(request.path("requestKind").toString())
        .isEqualTo("{\"group\":\"example.com\",\"version\":\"v1\",\"kind\":\"Widget\"}");
    assertThat(request.path("resource").path("version").asText()).isEqualTo("v2");
    assertThat(widget.path("apiVersion").asText()).isEqualTo("example.com/v1");
    assertThat(widget.path("metadata").path("labels").path("seen").asText()).isEqualTo("example.com-v2");
  }
}
