package io.listwatch.client;

import static io.listwatch.client.internal.TestFiles.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubeConfigLoaderTest {

  @TempDir
  Path dir;

  private static String b64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }

  private Path write(String name, String content) throws Exception {
    Path p = dir.resolve(name);
    Files.createDirectories(p.getParent());
    Files.writeString(p, content);
    return p;
  }

  private Path twoContexts() throws Exception {
    write("certs/ca.crt", resource("tls/ca.crt"));
    write("certs/client.crt", resource("tls/client.crt"));
    write("certs/client.key", resource("tls/client-pkcs1.key"));
    write("certs/token", "file-token\n");
    return write("kube/config", """
        apiVersion: v1
        kind: Config
        current-context: dev
        clusters:
        - name: dev-cluster
          cluster:
            server: https://dev.example:6443
            certificate-authority: ../certs/ca.crt
        - name: prod-cluster
          cluster:
            server: https://prod.example:6443/
            certificate-authority-data: %s
        users:
        - name: dev-user
          user:
            client-certificate: ../certs/client.crt
            client-key: %s
        - name: prod-user
          user:
            token: prod-token
            tokenFile: ../certs/token
        contexts:
        - name: dev
          context: {cluster: dev-cluster, user: dev-user, namespace: team-a}
        - name: prod
          context: {cluster: prod-cluster, user: prod-user}
        """.formatted(b64(resource("tls/ca.crt")), dir.resolve("certs/client.key")));
  }

  @Test
  void currentContext_givesItsClusterUserAndNamespace_withRelativeFilesResolvedAgainstTheKubeconfig() throws Exception {
    Config c = Config.fromKubeconfig(twoContexts(), null);
    assertThat(c.server().toString()).isEqualTo("https://dev.example:6443");
    assertThat(c.namespace()).isEqualTo("team-a");
    assertThat(c.caCertPem()).contains(resource("tls/ca.crt"));
    assertThat(c.clientCertPem()).contains(resource("tls/client.crt"));
    assertThat(c.clientKeyPem()).contains(resource("tls/client-pkcs1.key"));
    assertThat(c.token()).isEmpty();
  }

  @Test
  void namedContext_withCaDataAndTokenFile() throws Exception {
    Config c = Config.fromKubeconfig(twoContexts(), "prod");
    assertThat(c.server().toString()).as("trailing slash dropped").isEqualTo("https://prod.example:6443");
    assertThat(c.namespace()).isEqualTo("default");
    assertThat(c.caCertPem()).contains(resource("tls/ca.crt"));
    assertThat(c.token()).contains("prod-token");
    assertThat(c.tokenFile()).contains(dir.resolve("certs/token"));
    assertThat(c.clientCertPem()).isEmpty();
    assertThat(c.toString()).doesNotContain("prod-token");
  }

  @Test
  void kubeconfigList_mergesFirstWins_andTakesTheFirstCurrentContext() throws Exception {
    Path first = write("a.yaml", """
        clusters:
        - name: shared
          cluster: {server: "http://first:8080"}
        users:
        - name: u
          user: {token: first-token}
        """);
    Path second = write("b.yaml", """
        current-context: ctx
        clusters:
        - name: shared
          cluster: {server: "http://second:8080"}
        - name: other
          cluster: {server: "http://other:8080", insecure-skip-tls-verify: true}
        contexts:
        - name: ctx
          context: {cluster: shared, user: u, namespace: ns2}
        """);
    KubeConfigLoader loader = new KubeConfigLoader(
        Map.of("KUBECONFIG", first + File.pathSeparator + dir.resolve("missing.yaml") + File.pathSeparator + second),
        dir, dir.resolve("no-sa"));
    Config c = loader.load();
    assertThat(c.server().toString()).isEqualTo("http://first:8080");
    assertThat(c.token()).contains("first-token");
    assertThat(c.namespace()).isEqualTo("ns2");
  }

  @Test
  void load_fallsBackToHomeKubeConfig_thenInCluster() throws Exception {
    Path home = dir.resolve("home");
    write("home/.kube/config", """
        current-context: c
        clusters: [{name: k, cluster: {server: "http://home:1"}}]
        contexts: [{name: c, context: {cluster: k}}]
        """);
    assertThat(new KubeConfigLoader(Map.of(), home, dir.resolve("sa")).load().server().toString())
        .isEqualTo("http://home:1");

    Path sa = serviceAccount();
    Config inCluster = new KubeConfigLoader(
        Map.of("KUBERNETES_SERVICE_HOST", "10.0.0.1", "KUBERNETES_SERVICE_PORT", "443"), dir.resolve("nohome"), sa).load();
    assertThat(inCluster.server().toString()).isEqualTo("https://10.0.0.1:443");

    assertThatThrownBy(() -> new KubeConfigLoader(Map.of(), dir.resolve("nohome"), sa).load())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("KUBERNETES_SERVICE_HOST");
  }

  @Test
  void inCluster_readsTheServiceAccountDirectory() throws Exception {
    Path sa = serviceAccount();
    Config c = new KubeConfigLoader(
        Map.of("KUBERNETES_SERVICE_HOST", "fd00::1", "KUBERNETES_SERVICE_PORT", "6443"), null, sa).inCluster();
    assertThat(c.server().toString()).isEqualTo("https://[fd00::1]:6443");
    assertThat(c.tokenFile()).contains(sa.resolve("token"));
    assertThat(c.caCertPem()).contains(resource("tls/ca.crt"));
    assertThat(c.namespace()).isEqualTo("operators");

    assertThatThrownBy(() -> new KubeConfigLoader(Map.of(), null, sa).inCluster())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not in a cluster");
  }

  private Path serviceAccount() throws Exception {
    write("sa/token", "sa-token");
    write("sa/ca.crt", resource("tls/ca.crt"));
    write("sa/namespace", "operators\n");
    return dir.resolve("sa");
  }

  @Test
  void badKubeconfigs_areIllegalArgumentsNamingTheProblem() throws Exception {
    List<String[]> cases = List.of(
        new String[] {"clusters: [}", "cannot read or parse"},
        new String[] {"clusters: []\ncontexts: []\n", "no current-context"},
        new String[] {"current-context: x\n", "no context named \"x\""},
        new String[] {"current-context: x\ncontexts: [{name: x, context: {cluster: c}}]\n", "no cluster named \"c\""},
        new String[] {"current-context: x\ncontexts: [{name: x, context: {cluster: c}}]\nclusters: [{name: c, cluster: {}}]\n",
            "has no server"},
        new String[] {"current-context: x\ncontexts: [{name: x, context: {cluster: c, user: u}}]\n"
            + "clusters: [{name: c, cluster: {server: 'http://h'}}]\nusers: [{name: u, user: {exec: {command: aws}}}]\n",
            "exec"},
        new String[] {"current-context: x\ncontexts: [{name: x, context: {cluster: c}}]\n"
            + "clusters: [{name: c, cluster: {server: 'https://h', certificate-authority: nope.crt}}]\n",
            "nope.crt"},
        new String[] {"current-context: x\ncontexts: [{name: x, context: {cluster: c}}]\n"
            + "clusters: [{name: c, cluster: {server: 'https://h', certificate-authority-data: " + b64("garbage") + "}}]\n",
            "certificate-authority"},
        new String[] {"clusters: {a: b}\n", "clusters must be a list"});
    int i = 0;
    for (String[] c : cases) {
      Path file = write("bad" + i++ + ".yaml", c[0]);
      assertThatThrownBy(() -> Config.fromKubeconfig(file, null)).as(c[0])
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(c[1]);
    }
  }
}
