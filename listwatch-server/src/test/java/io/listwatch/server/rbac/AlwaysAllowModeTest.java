package io.listwatch.server.rbac;

import static io.listwatch.server.rbac.TestPolicy.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.server.ApiServer;
import io.listwatch.server.authz.AuthorizationMode;
import io.listwatch.testsupport.Http;
import java.net.http.HttpClient;
import org.junit.jupiter.api.Test;

/** {@code --authorization-mode=AlwaysAllow}: any authenticated user may do anything. */
class AlwaysAllowModeTest {

  @Test
  void userWithoutBindings_mayListAndCreate_andCanIAnswersYes() {
    try (ApiServer server = ApiServer.builder().tls().authorizationMode(AuthorizationMode.ALWAYS_ALLOW).build()
        .start()) {
      Http nobody = Http.over(server.url(), HttpClient.newBuilder()
          .sslContext(server.clientSslContext("nobody")).connectTimeout(Http.TIMEOUT).build());

      nobody.get("/api/v1/namespaces/default/pods").expect(200);
      nobody.post("/api/v1/namespaces/default/configmaps", "{\"metadata\":{\"name\":\"mine\"}}").expect(201);
      assertThat(json(nobody.post("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
          "{\"spec\":{\"resourceAttributes\":{\"verb\":\"delete\",\"resource\":\"nodes\"}}}").expect(201))
          .at("/status/allowed").asBoolean()).isTrue();
      assertThat(json(nobody.post("/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
          "{\"spec\":{\"namespace\":\"default\"}}").expect(201)).at("/status/resourceRules/0/verbs/0").asText())
          .isEqualTo("*");
    }
  }
}
