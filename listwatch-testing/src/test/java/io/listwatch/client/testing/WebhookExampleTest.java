package io.listwatch.client.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponseBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The example of docs and README for operator authors: two admission webhooks written with
 * fabric8's model classes, installed from the operator's own manifests
 * (src/test/resources/webhooks) against the server, and exercised with fabric8's client.
 */
@ExtendWith(ApiServerExtension.class)
@ApiServerExtension.Webhooks("src/test/resources/webhooks/manifests.yaml")
class WebhookExampleTest {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  /** The mutating webhook under test: labels every pod it sees. */
  static AdmissionReview mutate(AdmissionReview review) {
    AdmissionRequest request = review.getRequest();
    Pod pod = (Pod) request.getObject();
    String patch = pod.getMetadata().getLabels() == null || pod.getMetadata().getLabels().isEmpty()
        ? "[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"example.com/mutated\":\"true\"}}]"
        : "[{\"op\":\"add\",\"path\":\"/metadata/labels/example.com~1mutated\",\"value\":\"true\"}]";
    return new AdmissionReviewBuilder().withApiVersion("admission.k8s.io/v1").withKind("AdmissionReview")
        .withResponse(new AdmissionResponseBuilder().withUid(request.getUid()).withAllowed(true)
            .withPatchType("JSONPatch")
            .withPatch(Base64.getEncoder().encodeToString(patch.getBytes(StandardCharsets.UTF_8))).build())
        .build();
  }

  /** The validating webhook under test: a pod must name its team. */
  static AdmissionReview validate(AdmissionReview review) {
    AdmissionRequest request = review.getRequest();
    Pod pod = (Pod) request.getObject();
    Map<String, String> labels = pod.getMetadata().getLabels();
    boolean allowed = labels != null && labels.containsKey("team");
    AdmissionResponseBuilder response = new AdmissionResponseBuilder().withUid(request.getUid()).withAllowed(allowed);
    if (!allowed) {
      response.withStatus(new StatusBuilder().withCode(403).withMessage("pods must carry a team label").build());
    }
    return new AdmissionReviewBuilder().withApiVersion("admission.k8s.io/v1").withKind("AdmissionReview")
        .withResponse(response.build()).build();
  }

  /** Serves a fabric8-typed webhook on the local server. */
  private static void serve(LocalWebhookServer webhooks, String path,
      java.util.function.UnaryOperator<AdmissionReview> webhook) {
    webhooks.handle(path, json -> SERIALIZATION.convertValue(
        webhook.apply(SERIALIZATION.convertValue(json, AdmissionReview.class)), ObjectNode.class));
  }

  @BeforeAll
  static void webhooksAndNamespace(LocalWebhookServer webhooks, KubernetesClient client) {
    serve(webhooks, "/mutate-pods", WebhookExampleTest::mutate);
    serve(webhooks, "/validate-pods", WebhookExampleTest::validate);
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("shop")
        .addToLabels("webhooks.example.com/enabled", "true").endMetadata().build()).create();
  }

  private static Pod pod(String name, Map<String, String> labels) {
    return new PodBuilder().withNewMetadata().withName(name).withNamespace("shop").withLabels(labels).endMetadata()
        .withNewSpec().addNewContainer().withName("app").withImage("nginx").endContainer().endSpec().build();
  }

  @Test
  void theMutatingWebhook_labelsThePod_beforeTheValidatingOneLetsItThrough(KubernetesClient client) {
    Pod created = client.pods().inNamespace("shop").resource(pod("web", Map.of("team", "shop"))).create();

    assertThat(created.getMetadata().getLabels()).containsEntry("example.com/mutated", "true")
        .containsEntry("team", "shop");
  }

  @Test
  void theValidatingWebhook_refusesAPodWithoutATeam_withItsMessage(KubernetesClient client) {
    assertThatThrownBy(() -> client.pods().inNamespace("shop").resource(pod("stray", Map.of())).create())
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(403))
        .hasMessageContaining("admission webhook \"pods.validate.example.com\" denied the request: "
            + "pods must carry a team label");
    assertThat(client.pods().inNamespace("shop").withName("stray").get()).isNull();
  }

  @Test
  void namespacesTheSelectorLeavesOut_areNotSentToTheWebhooks(KubernetesClient client) {
    Pod created = client.pods().inNamespace("default").resource(
        pod("plain", Map.of()).edit().editMetadata().withNamespace("default").endMetadata().build()).create();

    assertThat(created.getMetadata().getLabels()).doesNotContainKey("example.com/mutated");
  }
}
