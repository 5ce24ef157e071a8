package io.listwatch.server.rbac;

import io.listwatch.server.ApiServer;
import io.listwatch.server.authn.AuthenticationConfig;
import io.listwatch.testsupport.Http;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;

/**
 * Users as static bearer tokens from a {@code --token-auth-file} (one line per user: token,
 * name, uid, quoted groups), over HTTPS; the client trusts the server's CA and presents no
 * certificate. Confined to the test thread.
 */
final class TokenCredentials implements UserCredentials {

  private Path tokenFile;
  private ApiServer server;
  private SSLContext trustOnly;

  static String token(TestUser user) {
    return user.name() + "-token";
  }

  @Override
  public ApiServer start(List<TestUser> users) {
    StringBuilder csv = new StringBuilder();
    int uid = 1000;
    for (TestUser user : users) {
      csv.append(token(user)).append(',').append(user.name()).append(',').append(uid++);
      if (!user.groups().isEmpty()) {
        csv.append(",\"").append(String.join(",", user.groups())).append('"');
      }
      csv.append('\n');
    }
    try {
      tokenFile = Files.writeString(Files.createTempFile("listwatch-tokens-", ".csv"), csv);
      server = ApiServer.builder().tls()
          .authentication(AuthenticationConfig.builder().tokenAuthFile(tokenFile).build())
          .build().start();
      trustOnly = server.trustingSslContext();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return server;
  }

  @Override
  public HttpClient httpClient(TestUser user) {
    return HttpClient.newBuilder().sslContext(trustOnly).connectTimeout(Http.TIMEOUT).build();
  }

  @Override
  public Map<String, String> headers(TestUser user) {
    return Map.of("Authorization", "Bearer " + token(user));
  }

  @Override
  public String kubeconfig(TestUser user) {
    try {
      String ca = "-----BEGIN CERTIFICATE-----\n"
          + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(server.caCertificate().getEncoded())
          + "\n-----END CERTIFICATE-----\n";
      return """
          apiVersion: v1
          kind: Config
          clusters:
          - name: listwatch
            cluster:
              server: %s
              certificate-authority-data: %s
          users:
          - name: %s
            user:
              token: %s
          contexts:
          - name: listwatch
            context:
              cluster: listwatch
              user: %s
          current-context: listwatch
          """.formatted(server.url(), Base64.getEncoder().encodeToString(ca.getBytes(StandardCharsets.US_ASCII)),
          user.name(), token(user), user.name());
    } catch (java.security.cert.CertificateEncodingException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    if (server != null) {
      server.close();
    }
    if (tokenFile != null) {
      try {
        Files.deleteIfExists(tokenFile);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
