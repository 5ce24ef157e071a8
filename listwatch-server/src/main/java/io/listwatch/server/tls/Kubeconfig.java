package io.listwatch.server.tls;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;

/**
 * Writes a kubeconfig as k3s does: one cluster ({@code certificate-authority-data} and the
 * server URL), one user with {@code client-certificate-data} and {@code client-key-data}, and
 * a context that is the current one. kubectl and client libraries use the file as it is.
 * Stateless.
 */
public final class Kubeconfig {

  /** The name of the cluster and of the context. */
  public static final String CLUSTER = "listwatch";

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
      .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
      .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));

  private Kubeconfig() {
  }

  /** The kubeconfig text. */
  public static String render(String serverUrl, X509Certificate serverCa, String userName, CertifiedKey user) {
    ObjectNode root = YAML.createObjectNode();
    root.put("apiVersion", "v1");
    ObjectNode cluster = root.putArray("clusters").addObject();
    cluster.putObject("cluster")
        .put("certificate-authority-data", base64(Pem.encode(List.of(serverCa))))
        .put("server", serverUrl);
    cluster.put("name", CLUSTER);
    ObjectNode context = root.putArray("contexts").addObject();
    context.putObject("context").put("cluster", CLUSTER).put("user", userName);
    context.put("name", CLUSTER);
    root.put("current-context", CLUSTER);
    root.put("kind", "Config");
    root.putObject("preferences");
    ObjectNode u = root.putArray("users").addObject();
    u.put("name", userName);
    u.putObject("user")
        .put("client-certificate-data", base64(user.certificatePem()))
        .put("client-key-data", base64(user.privateKeyPem()));
    try {
      return YAML.writeValueAsString(root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes the kubeconfig to {@code file} (replacing it), readable by its owner only: it holds a private key. */
  public static void write(Path file, String serverUrl, X509Certificate serverCa, String userName, CertifiedKey user) {
    String text = render(serverUrl, serverCa, userName, user);
    try {
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.deleteIfExists(tmp);
      if (tmp.getFileSystem().supportedFileAttributeViews().contains("posix")) {
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      }
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  private static String base64(String pem) {
    return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
  }
}
