package io.listwatch.apiserver.admission;

import static io.listwatch.apiserver.admission.Admissions.admitted;
import static io.listwatch.apiserver.admission.Admissions.createPod;
import static io.listwatch.apiserver.admission.Admissions.refusal;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.meta.NameGenerator;
import io.listwatch.apiserver.InMemoryCore;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

class ServiceAccountTest {

  private final ListersStub listers = new ListersStub()
      .add("", "serviceaccounts", "ns", "{\"metadata\":{\"name\":\"default\",\"namespace\":\"ns\"}}");
  /** The delays the plug-in asked for; the re-reads run at once. */
  private final List<Long> delays = new ArrayList<>();
  private final ServiceAccount plugin = new ServiceAccount(listers, new NameGenerator(new Random(1)), ms -> {
    delays.add(ms);
    return (Executor) Runnable::run;
  });

  private static final String TOKEN_VOLUME = """
      {"projected":{"sources":[
        {"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},
        {"configMap":{"name":"kube-root-ca.crt","items":[{"key":"ca.crt","path":"ca.crt"}]}},
        {"downwardAPI":{"items":[{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"},"path":"namespace"}]}}],
       "defaultMode":420}}""";

  @Test
  void aPodWithoutAnAccount_runsAsDefault_andMountsTheApiAccessTokenInEveryContainer() {
    ObjectNode pod = admitted(plugin, createPod("ns", """
        {"metadata":{"name":"p"},"spec":{"initContainers":[{"name":"i"}],"containers":[{"name":"a"},{"name":"b"}]}}"""));

    assertThat(pod.at("/spec/serviceAccountName").asText()).isEqualTo("default");
    assertThat(pod.at("/spec/serviceAccount").asText()).isEqualTo("default");
    String volume = pod.at("/spec/volumes/0/name").asText();
    assertThat(volume).matches("kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}");
    ObjectNode expected = InMemoryCore.json(TOKEN_VOLUME).put("name", volume);
    assertThat(InMemoryCore.json(pod.at("/spec/volumes/0").toString())).isEqualTo(expected); // as read back
    for (String container : List.of("/spec/initContainers/0", "/spec/containers/0", "/spec/containers/1")) {
      assertThat(pod.at(container + "/volumeMounts")).isEqualTo(InMemoryCore.json("{\"m\":[{\"name\":\"" + volume
          + "\",\"readOnly\":true,\"mountPath\":\"/var/run/secrets/kubernetes.io/serviceaccount\"}]}").get("m"));
    }
  }

  @Test
  void noToken_whenThePodOrElseTheAccountSaysNo_orForAContainerWithAMountThere() {
    listers.add("", "serviceaccounts", "ns", "{\"metadata\":{\"name\":\"quiet\"},\"automountServiceAccountToken\":false}");
    ObjectNode podSaysNo = admitted(plugin, createPod("ns",
        "{\"spec\":{\"automountServiceAccountToken\":false,\"containers\":[{\"name\":\"a\"}]}}"));
    assertThat(podSaysNo.at("/spec/volumes").isMissingNode()).isTrue();
    ObjectNode accountSaysNo = admitted(plugin, createPod("ns",
        "{\"spec\":{\"serviceAccountName\":\"quiet\",\"containers\":[{\"name\":\"a\"}]}}"));
    assertThat(accountSaysNo.at("/spec/volumes").isMissingNode()).isTrue();
    ObjectNode podOverridesAccount = admitted(plugin, createPod("ns",
        "{\"spec\":{\"serviceAccountName\":\"quiet\",\"automountServiceAccountToken\":true,\"containers\":[{\"name\":\"a\"}]}}"));
    assertThat(podOverridesAccount.at("/spec/volumes/0/name").asText()).startsWith("kube-api-access-");

    ObjectNode ownMount = admitted(plugin, createPod("ns", """
        {"spec":{"containers":[{"name":"a","volumeMounts":[{"name":"mine","mountPath":"/var/run/secrets/kubernetes.io/serviceaccount"}]}],
                 "volumes":[{"name":"mine","emptyDir":{}}]}}"""));
    assertThat(ownMount.at("/spec/volumes").size()).isEqualTo(1);
    assertThat(ownMount.at("/spec/containers/0/volumeMounts").size()).isEqualTo(1);
  }

  @Test
  void anExistingKubeApiAccessVolume_isReused() {
    ObjectNode pod = admitted(plugin, createPod("ns", """
        {"spec":{"containers":[{"name":"a"}],"volumes":[{"name":"kube-api-access-mine","emptyDir":{}}]}}"""));
    assertThat(pod.at("/spec/volumes").size()).isEqualTo(1);
    assertThat(pod.at("/spec/containers/0/volumeMounts/0/name").asText()).isEqualTo("kube-api-access-mine");
  }

  @Test
  void aPodWithoutPullSecrets_getsTheAccounts() {
    listers.add("", "serviceaccounts", "ns", "{\"metadata\":{\"name\":\"puller\"},\"imagePullSecrets\":[{\"name\":\"regcred\"}]}");
    ObjectNode pod = admitted(plugin, createPod("ns", "{\"spec\":{\"serviceAccountName\":\"puller\",\"containers\":[{\"name\":\"a\"}]}}"));
    assertThat(pod.at("/spec/imagePullSecrets").toString()).isEqualTo("[{\"name\":\"regcred\"}]");
    ObjectNode own = admitted(plugin, createPod("ns",
        "{\"spec\":{\"serviceAccountName\":\"puller\",\"imagePullSecrets\":[{\"name\":\"mine\"}],\"containers\":[{\"name\":\"a\"}]}}"));
    assertThat(own.at("/spec/imagePullSecrets").toString()).isEqualTo("[{\"name\":\"mine\"}]");
  }

  @Test
  void anAccountThatDoesNotExist_isRefused_afterOneReread() {
    StatusException e = refusal(plugin, createPod("ns", "{\"metadata\":{\"name\":\"p\"},\"spec\":{\"serviceAccountName\":\"ghost\"}}"));
    assertThat(e.code()).isEqualTo(403);
    assertThat(e.status().message()).isEqualTo(
        "pods \"p\" is forbidden: error looking up service account ns/ghost: serviceaccount \"ghost\" not found");
    assertThat(delays).hasSize(1).allSatisfy(ms -> assertThat(ms).isBetween(100L, 199L));
  }

  @Test
  void theDefaultAccount_isReadAgainUpToNineTimes_whileTheControllerCreatesIt() {
    StatusException missing = refusal(plugin, createPod("other", "{\"metadata\":{\"name\":\"p\"}}"));
    assertThat(missing.status().message()).isEqualTo(
        "pods \"p\" is forbidden: error looking up service account other/default: serviceaccount \"default\" not found");
    assertThat(delays).hasSize(9);

    delays.clear();
    listers.hideFor("", "serviceaccounts", "ns", "default", 4); // admit's read, validate's, two re-reads
    ObjectNode pod = admitted(plugin, createPod("ns", "{\"spec\":{\"containers\":[{\"name\":\"a\"}]}}"));
    assertThat(delays).hasSize(3);
    assertThat(pod.at("/spec/volumes/0/name").asText()).startsWith("kube-api-access-");
  }

  @Test
  void anAccountSeenOnlyAfterTheMutatingPhase_thatWouldHaveChangedThePod_asksForARetry() {
    listers.add("", "serviceaccounts", "ns", "{\"metadata\":{\"name\":\"quiet\"},\"automountServiceAccountToken\":false}");
    listers.hideFor("", "serviceaccounts", "ns", "quiet", 2);
    StatusException e = refusal(plugin, createPod("ns", "{\"spec\":{\"serviceAccountName\":\"quiet\",\"containers\":[{\"name\":\"a\"}]}}"));
    assertThat(e.code()).isEqualTo(500);
    assertThat(e.status().reason()).isEqualTo("ServerTimeout");
    assertThat(e.status().message()).isEqualTo(
        "The create pod operation against serviceaccounts could not be completed at this time, please try again.");
  }

  @Test
  void anAccountEnforcingMountableSecrets_limitsThePodsSecrets() {
    listers.add("", "serviceaccounts", "ns", """
        {"metadata":{"name":"strict","annotations":{"kubernetes.io/enforce-mountable-secrets":"true"}},
         "secrets":[{"name":"allowed"}],"imagePullSecrets":[{"name":"pull"}]}""");
    record Case(String spec, String message) {
    }
    List<Case> cases = List.of(
        new Case("\"volumes\":[{\"name\":\"v\",\"secret\":{\"secretName\":\"other\"}}]",
            "volume with secret.secretName=\"other\" is not allowed because service account strict does not reference that secret"),
        new Case("\"containers\":[{\"name\":\"c\",\"env\":[{\"name\":\"E\",\"valueFrom\":{\"secretKeyRef\":{\"name\":\"other\",\"key\":\"k\"}}}]}]",
            "container c with envVar E referencing secret.secretName=\"other\" is not allowed because service account strict does not reference that secret"),
        new Case("\"initContainers\":[{\"name\":\"i\",\"env\":[{\"name\":\"E\",\"valueFrom\":{\"secretKeyRef\":{\"name\":\"other\",\"key\":\"k\"}}}]}]",
            "init container i with envVar E referencing secret.secretName=\"other\" is not allowed because service account strict does not reference that secret"),
        new Case("\"imagePullSecrets\":[{\"name\":\"pull\"},{\"name\":\"other\"}]",
            "imagePullSecrets[1].name=\"other\" is not allowed because service account strict does not reference that imagePullSecret"));
    for (Case c : cases) {
      StatusException e = refusal(plugin, createPod("ns", "{\"metadata\":{\"name\":\"p\"},\"spec\":{\"serviceAccountName\":\"strict\","
          + c.spec() + "}}"));
      assertThat(e).as(c.spec()).isNotNull();
      assertThat(e.status().message()).isEqualTo("pods \"p\" is forbidden: " + c.message());
    }
    admitted(plugin, createPod("ns", "{\"spec\":{\"serviceAccountName\":\"strict\","
        + "\"volumes\":[{\"name\":\"v\",\"secret\":{\"secretName\":\"allowed\"}}],\"containers\":[{\"name\":\"c\"}]}}"));
  }

  @Test
  void aMirrorPod_isLeftAlone_andMayReferenceNoAccountSecretOrTokenProjection() {
    String mirror = "{\"metadata\":{\"name\":\"p\",\"annotations\":{\"kubernetes.io/config.mirror\":\"hash\"}},\"spec\":{";
    ObjectNode pod = admitted(plugin, createPod("ns", mirror + "\"containers\":[{\"name\":\"a\"}]}}"));
    assertThat(pod.path("spec").has("serviceAccountName")).isFalse();
    assertThat(pod.path("spec").has("volumes")).isFalse();

    record Case(String spec, String message) {
    }
    for (Case c : List.of(
        new Case("\"serviceAccountName\":\"default\"", "a mirror pod may not reference service accounts"),
        new Case("\"volumes\":[{\"name\":\"v\",\"secret\":{\"secretName\":\"s\"}}]", "a mirror pod may not reference secrets"),
        new Case("\"imagePullSecrets\":[{\"name\":\"s\"}]", "a mirror pod may not reference secrets"),
        new Case("\"containers\":[{\"name\":\"a\",\"envFrom\":[{\"secretRef\":{\"name\":\"s\"}}]}]", "a mirror pod may not reference secrets"),
        new Case("\"volumes\":[{\"name\":\"v\",\"projected\":{\"sources\":[{\"serviceAccountToken\":{\"path\":\"t\"}}]}}]",
            "a mirror pod may not use ServiceAccountToken volume projections"))) {
      StatusException e = refusal(plugin, createPod("ns", mirror + c.spec() + "}}"));
      assertThat(e).as(c.spec()).isNotNull();
      assertThat(e.status().message()).isEqualTo("pods \"p\" is forbidden: " + c.message());
    }
  }
}
