package io.listwatch.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Finds and reads kubeconfig files and the in-cluster service account into a {@link Config},
 * as client-go's {@code clientcmd} and {@code rest.InClusterConfig} do. The environment, the
 * home directory and the service-account directory are injected so tests can use their own.
 *
 * <p>Supported: clusters ({@code server}, {@code certificate-authority[-data]},
 * {@code insecure-skip-tls-verify}), users ({@code client-certificate[-data]},
 * {@code client-key[-data]}, {@code token}, {@code tokenFile}, {@code username}/{@code
 * password}), contexts ({@code cluster}, {@code user}, {@code namespace}) and
 * {@code current-context}. Several files merge first-wins per named entry and for
 * {@code current-context}; relative paths resolve against the directory of the file that
 * defined the entry. {@code exec} and {@code auth-provider} credentials are rejected with a
 * message rather than silently ignored. Immutable, thread-safe.
 */
final class KubeConfigLoader {

  static final Path SERVICE_ACCOUNT_DIR = Path.of("/var/run/secrets/kubernetes.io/serviceaccount");
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private final Map<String, String> env;
  private final Path home;
  private final Path serviceAccountDir;

  KubeConfigLoader(Map<String, String> env, Path home, Path serviceAccountDir) {
    this.env = Map.copyOf(env);
    this.home = home;
    this.serviceAccountDir = Objects.requireNonNull(serviceAccountDir);
  }

  static KubeConfigLoader system() {
    String home = System.getProperty("user.home");
    return new KubeConfigLoader(System.getenv(), home == null ? null : Path.of(home), SERVICE_ACCOUNT_DIR);
  }

  /** KUBECONFIG, else ~/.kube/config, else in-cluster. */
  Config load() {
    String list = env.get("KUBECONFIG");
    if (list != null && !list.isBlank()) {
      List<Path> files = new ArrayList<>();
      for (String part : list.split(File.pathSeparator)) {
        if (!part.isBlank() && Files.isRegularFile(Path.of(part))) { // kubectl skips missing ones
          files.add(Path.of(part));
        }
      }
      if (files.isEmpty()) {
        throw new IllegalArgumentException("none of the files in KUBECONFIG exists: " + list);
      }
      return fromFiles(files, null);
    }
    if (home != null) {
      Path file = home.resolve(".kube").resolve("config");
      if (Files.isRegularFile(file)) {
        return fromFiles(List.of(file), null);
      }
    }
    if (env.get("KUBERNETES_SERVICE_HOST") == null) {
      throw new IllegalArgumentException("no kubeconfig: KUBECONFIG is not set, "
          + (home == null ? "no home directory" : home.resolve(".kube/config") + " does not exist")
          + ", and KUBERNETES_SERVICE_HOST is not set (not in a cluster)");
    }
    return inCluster();
  }

  /** The merged files' config for {@code context}, or their current-context when null. */
  Config fromFiles(List<Path> files, String context) {
    Merged merged = new Merged();
    for (Path file : files) {
      merged.add(file, parse(file));
    }
    String contextName = context != null ? context : merged.currentContext;
    if (contextName == null || contextName.isEmpty()) {
      throw new IllegalArgumentException("kubeconfig " + files + ": no current-context set and no context named");
    }
    Entry ctx = merged.get("context", merged.contexts, contextName, files);
    String clusterName = text(ctx.body, "cluster");
    String userName = text(ctx.body, "user");
    if (clusterName == null) {
      throw new IllegalArgumentException("kubeconfig " + ctx.file + ": context \"" + contextName + "\" names no cluster");
    }
    Entry cluster = merged.get("cluster", merged.clusters, clusterName, files);
    String server = text(cluster.body, "server");
    if (server == null || server.isEmpty()) {
      throw new IllegalArgumentException("kubeconfig " + cluster.file + ": cluster \"" + clusterName + "\" has no server");
    }
    Config.Builder b;
    try {
      b = Config.builder(server);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("kubeconfig " + cluster.file + ": cluster \"" + clusterName + "\": " + e.getMessage(), e);
    }
    b.namespace(text(ctx.body, "namespace"));
    b.insecureSkipTlsVerify(cluster.body.path("insecure-skip-tls-verify").asBoolean(false));
    String where = "kubeconfig " + cluster.file + ": cluster \"" + clusterName + "\": ";
    String ca = pem(cluster, "certificate-authority", where);
    if (ca != null) {
      b.caCertPem(ca);
    }
    if (userName != null && !userName.isEmpty()) {
      Entry user = merged.get("user", merged.users, userName, files);
      applyUser(b, user, userName);
    }
    try {
      return b.build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("kubeconfig " + files + ", context \"" + contextName + "\": " + e.getMessage(), e);
    }
  }

  private static void applyUser(Config.Builder b, Entry user, String userName) {
    String where = "kubeconfig " + user.file + ": user \"" + userName + "\": ";
    if (user.body.has("exec") || user.body.has("auth-provider")) {
      throw new IllegalArgumentException(where + "exec and auth-provider credentials are not supported;"
          + " use a token, a token file or a client certificate");
    }
    String cert = pem(user, "client-certificate", where);
    String key = pem(user, "client-key", where);
    if ((cert == null) != (key == null)) {
      throw new IllegalArgumentException(where + "client-certificate and client-key must be set together");
    }
    b.clientCertPem(cert).clientKeyPem(key);
    b.token(text(user.body, "token"));
    String tokenFile = text(user.body, "tokenFile");
    if (tokenFile != null && !tokenFile.isEmpty()) {
      b.tokenFile(user.resolve(tokenFile));
    }
    String username = text(user.body, "username");
    String password = text(user.body, "password");
    if (username != null || password != null) {
      b.basicAuth(username == null ? "" : username, password == null ? "" : password);
    }
  }

  /** {@code field-data} (base64 PEM) or {@code field} (a file), or null. */
  private static String pem(Entry entry, String field, String where) {
    String data = text(entry.body, field + "-data");
    if (data != null && !data.isEmpty()) {
      try {
        return new String(Base64.getMimeDecoder().decode(data), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(where + field + "-data is not base64: " + e.getMessage(), e);
      }
    }
    String file = text(entry.body, field);
    if (file == null || file.isEmpty()) {
      return null;
    }
    Path path = entry.resolve(file);
    try {
      return Files.readString(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException(where + "cannot read " + field + " " + path + ": " + e, e);
    }
  }

  /** The service account's config. */
  Config inCluster() {
    String host = env.get("KUBERNETES_SERVICE_HOST");
    String port = env.get("KUBERNETES_SERVICE_PORT");
    if (host == null || host.isEmpty() || port == null || port.isEmpty()) {
      throw new IllegalArgumentException(
          "not in a cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set");
    }
    Path token = serviceAccountDir.resolve("token");
    if (!Files.isReadable(token)) {
      throw new IllegalArgumentException("in-cluster: cannot read the service account token " + token);
    }
    String hostPart = host.contains(":") ? "[" + host + "]" : host;
    Config.Builder b = Config.builder("https://" + hostPart + ":" + port).tokenFile(token);
    Path ca = serviceAccountDir.resolve("ca.crt");
    if (Files.isRegularFile(ca)) {
      b.caCertFile(ca);
    }
    Path namespace = serviceAccountDir.resolve("namespace");
    if (Files.isRegularFile(namespace)) {
      try {
        b.namespace(Files.readString(namespace, StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new IllegalArgumentException("in-cluster: cannot read " + namespace + ": " + e, e);
      }
    }
    return b.build();
  }

  private static JsonNode parse(Path file) {
    JsonNode root;
    try {
      root = YAML.readTree(file.toFile());
    } catch (IOException e) {
      throw new IllegalArgumentException("kubeconfig " + file + ": cannot read or parse: " + e.getMessage(), e);
    }
    if (root == null || root.isMissingNode() || root.isNull()) {
      return YAML.createObjectNode(); // an empty file contributes nothing, as in kubectl
    }
    if (!root.isObject()) {
      throw new IllegalArgumentException("kubeconfig " + file + ": not a YAML mapping");
    }
    return root;
  }

  private static String text(JsonNode node, String field) {
    JsonNode v = node.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }

  /** A named cluster, user or context, and the file that defined it. */
  private record Entry(JsonNode body, Path file) {
    Path resolve(String path) {
      Path p = Path.of(path);
      Path dir = file.toAbsolutePath().getParent();
      return p.isAbsolute() || dir == null ? p : dir.resolve(p).normalize();
    }
  }

  /** Several kubeconfig files merged first-wins. Confined to one load. */
  private static final class Merged {
    final Map<String, Entry> clusters = new LinkedHashMap<>();
    final Map<String, Entry> users = new LinkedHashMap<>();
    final Map<String, Entry> contexts = new LinkedHashMap<>();
    String currentContext;

    void add(Path file, JsonNode root) {
      collect(file, root, "clusters", "cluster", clusters);
      collect(file, root, "users", "user", users);
      collect(file, root, "contexts", "context", contexts);
      String current = text(root, "current-context");
      if ((currentContext == null || currentContext.isEmpty()) && current != null && !current.isEmpty()) {
        currentContext = current;
      }
    }

    private static void collect(Path file, JsonNode root, String list, String item, Map<String, Entry> into) {
      JsonNode entries = root.get(list);
      if (entries == null || entries.isNull()) {
        return;
      }
      if (!entries.isArray()) {
        throw new IllegalArgumentException("kubeconfig " + file + ": " + list + " must be a list");
      }
      for (JsonNode e : entries) {
        String name = text(e, "name");
        if (name == null || name.isEmpty()) {
          throw new IllegalArgumentException("kubeconfig " + file + ": an entry of " + list + " has no name");
        }
        JsonNode body = e.get(item);
        if (body == null || !body.isObject()) {
          throw new IllegalArgumentException("kubeconfig " + file + ": " + item + " \"" + name + "\" has no " + item + " mapping");
        }
        into.putIfAbsent(name, new Entry(body, file));
      }
    }

    Entry get(String what, Map<String, Entry> entries, String name, List<Path> files) {
      Entry e = entries.get(name);
      if (e == null) {
        throw new IllegalArgumentException("kubeconfig " + files + ": no " + what + " named \"" + name + "\"");
      }
      return e;
    }
  }
}
