package io.listwatch.server.rbac;

import io.listwatch.server.ApiServer;
import java.net.http.HttpClient;
import java.util.List;
import java.util.Map;

/**
 * How an end-to-end test acts as a user: it starts a server that knows the users, and gives
 * each an HTTP client and a kubeconfig. {@link RbacEndToEndTest} runs the same checks with any
 * implementation (client certificates, static bearer tokens).
 */
interface UserCredentials extends AutoCloseable {

  /** A user and its groups as the credential states them (system:authenticated is added by the server). */
  record TestUser(String name, List<String> groups) {
    static TestUser of(String name, String... groups) {
      return new TestUser(name, List.of(groups));
    }
  }

  /** Starts the server; {@code users} are every user the test will act as. */
  ApiServer start(List<TestUser> users);

  HttpClient httpClient(TestUser user);

  /** Headers every request of {@code user} carries (a bearer token, say); none by default. */
  default Map<String, String> headers(TestUser user) {
    return Map.of();
  }

  /** A kubeconfig whose current context is the server as {@code user}. */
  String kubeconfig(TestUser user);

  /** Stops the server. */
  @Override
  void close();
}
