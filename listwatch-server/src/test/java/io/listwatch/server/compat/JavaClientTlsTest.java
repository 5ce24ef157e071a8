package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AuthenticationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.VersionApi;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.openapi.models.V1SelfSubjectReview;
import io.kubernetes.client.openapi.models.VersionInfo;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The official Java client over HTTPS as a user sets it up: {@code ClientBuilder} from the
 * kubeconfig the server wrote (its CA verifies the server, the admin's client certificate
 * authenticates; OkHttp negotiates HTTP/2, informers included), and a client given only the CA ({@code setSslCaCert}), which is anonymous.
 */
@EndToEnd
@ExtendWith(ApiServerExtension.class)
@ApiServerExtension.Tls
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JavaClientTlsTest {

  private static ApiClient admin;

  @BeforeAll
  static void setUp(ApiServer server) throws IOException {
    try (Reader kubeconfig = Files.newBufferedReader(server.kubeconfig())) {
      admin = ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(kubeconfig)).build();
    }
  }

  @Test
  void clientFromTheGeneratedKubeconfig_isTheAdmin_andWrites() throws ApiException {
    V1SelfSubjectReview whoAmI = new AuthenticationV1Api(admin).createSelfSubjectReview(new V1SelfSubjectReview())
        .execute();
    V1Namespace created = new CoreV1Api(admin).createNamespace(new V1Namespace()
        .metadata(new V1ObjectMeta().name("jct-admin"))).execute();

    assertThat(whoAmI.getStatus().getUserInfo().getGroups()).contains("system:masters");
    assertThat(created.getMetadata().getUid()).isNotBlank();
    assertThat(new CoreV1Api(admin).listNamespace().execute().getItems())
        .extracting(n -> n.getMetadata().getName()).contains("default", "jct-admin");
  }

  @Test
  void informer_overHttps_syncsAndSeesANewPod(ApiServer server) throws Exception {
    CoreV1Api core = new CoreV1Api(admin);
    new CoreV1Api(admin).createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name("jct-informer"))).execute();
    SharedInformerFactory factory = new SharedInformerFactory(admin);
    try {
      SharedIndexInformer<V1Pod> informer = factory.sharedIndexInformerFor(
          params -> core.listNamespacedPod("jct-informer").resourceVersion(params.resourceVersion)
              .timeoutSeconds(params.timeoutSeconds).watch(params.watch).buildCall(null),
          V1Pod.class, V1PodList.class, 0);
      CountDownLatch added = new CountDownLatch(1);
      informer.addEventHandler(new ResourceEventHandler<>() {
        @Override
        public void onAdd(V1Pod pod) {
          added.countDown();
        }

        @Override
        public void onUpdate(V1Pod oldPod, V1Pod newPod) {
        }

        @Override
        public void onDelete(V1Pod pod, boolean deletedFinalStateUnknown) {
        }
      });
      factory.startAllRegisteredInformers();
      Await.until("the informer has synced", Duration.ofSeconds(10), informer::hasSynced);

      core.createNamespacedPod("jct-informer", JavaClientTest.pod("web", Map.of("app", "web"), "node-1")).execute();

      assertThat(added.await(10, TimeUnit.SECONDS)).as("the informer saw the new pod").isTrue();
      assertThat(informer.getIndexer().getByKey("jct-informer/web")).isNotNull();
      assertThat(server.negotiatedProtocols()).as("OkHttp negotiates HTTP/2").containsKey("h2");
    } finally {
      factory.stopAllRegisteredInformers(true);
    }
  }

  @Test
  void clientTrustingOnlyTheCa_readsTheVersion_asAnonymous(ApiServer server) throws Exception {
    String pem = "-----BEGIN CERTIFICATE-----\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(server.caCertificate().getEncoded())
        + "\n-----END CERTIFICATE-----\n";
    ApiClient anonymous = new ApiClient().setBasePath(server.url())
        .setSslCaCert(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));

    VersionInfo version = new VersionApi(anonymous).getCode().execute();

    assertThat(version.getGitVersion()).startsWith("v1.");
  }
}
