package io.listwatch.server.rbac;

import static io.listwatch.server.rbac.TestPolicy.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.server.ApiServer;
import io.listwatch.testsupport.Http;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bootstrap policy across restarts: restored when auto-update is on, left alone when it is off. */
class BootstrapReconcilerTest {

  private static final String CLUSTER_ROLES = "/apis/rbac.authorization.k8s.io/v1/clusterroles/";

  @Test
  void restart_restoresMissingRulesAndSubjects_unlessAutoupdateIsFalse(@TempDir Path data) {
    try (ApiServer server = ApiServer.builder().dataDir(data).build().start()) {
      Http http = Http.plain(server.url());
      // an operator narrows one role, and narrows another one with auto-update turned off
      http.mergePatch(CLUSTER_ROLES + "system:discovery",
          "{\"rules\":[{\"verbs\":[\"get\"],\"nonResourceURLs\":[\"/api\"]},"
              + "{\"verbs\":[\"get\"],\"nonResourceURLs\":[\"/custom\"]}]}").expect(200);
      http.mergePatch(CLUSTER_ROLES + "system:basic-user", "{\"metadata\":{\"annotations\":{"
          + "\"rbac.authorization.kubernetes.io/autoupdate\":\"false\"}},\"rules\":[]}").expect(200);
      http.mergePatch("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/system:public-info-viewer",
          "{\"subjects\":[{\"kind\":\"Group\",\"name\":\"system:authenticated\"}]}").expect(200);
      http.delete(CLUSTER_ROLES + "system:public-info-viewer").expect(200);
    }
    try (ApiServer server = ApiServer.builder().dataDir(data).build().start()) {
      Http http = Http.plain(server.url());
      JsonNode discovery = json(http.get(CLUSTER_ROLES + "system:discovery").expect(200));
      assertThat(discovery.path("rules").toString()).contains("/apis/*", "/version/", "/custom");
      JsonNode basic = json(http.get(CLUSTER_ROLES + "system:basic-user").expect(200));
      assertThat(basic.path("rules")).isEmpty();
      http.get(CLUSTER_ROLES + "system:public-info-viewer").expect(200);
      JsonNode publicInfo = json(
          http.get("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/system:public-info-viewer").expect(200));
      assertThat(publicInfo.path("subjects").toString()).contains("system:unauthenticated");
    }
  }
}
