package io.listwatch.server.rbac;

import io.listwatch.server.ApiServer;
import io.listwatch.server.tls.Kubeconfig;
import io.listwatch.testsupport.Http;
import java.net.http.HttpClient;
import java.util.List;

/** Users as client certificates issued by the server's client CA (CN the user, one O per group), over HTTPS. */
final class ClientCertificateCredentials implements UserCredentials {

  private ApiServer server;

  @Override
  public ApiServer start(List<TestUser> users) {
    server = ApiServer.builder().tls().build().start();
    return server;
  }

  @Override
  public HttpClient httpClient(TestUser user) {
    return HttpClient.newBuilder().sslContext(server.clientSslContext(user.name(), user.groups().toArray(String[]::new)))
        .connectTimeout(Http.TIMEOUT).build();
  }

  @Override
  public String kubeconfig(TestUser user) {
    return Kubeconfig.render(server.url(), server.caCertificate(), user.name(),
        server.issueClientCertificate(user.name(), user.groups().toArray(String[]::new)));
  }

  @Override
  public void close() {
    if (server != null) {
      server.close();
    }
  }
}
