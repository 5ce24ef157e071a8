package io.listwatch.server.testing;

import io.listwatch.server.ApiServer;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The server's own tests' fixture (users' tests have {@code io.listwatch.client.testing.ApiServerExtension}
 * in listwatch-testing, with ready clients). Gives a JUnit 5 test class a running {@link ApiServer}
 * on 127.0.0.1 and a free port, with
 * its own temporary data directory, started before the first test and stopped (data deleted)
 * after the last. Tests receive it as a parameter:
 *
 * <pre>{@code
 * @ExtendWith(ApiServerExtension.class)
 * class MyControllerTest {
 *   @Test
 *   void reconciles(ApiServer server) {
 *     var url = server.url();
 *   }
 * }
 * }</pre>
 *
 * <p>Annotate the test class with {@link Tls @ApiServerExtension.Tls} for a server in TLS mode:
 * {@code server.url()} is then {@code https://...}, {@code server.kubeconfig()} the admin's
 * kubeconfig, and {@code server.clientSslContext(user, groups...)} acts as any user.
 */
public final class ApiServerExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

  /** Starts the test class's server in TLS mode ({@link ApiServer.Builder#tls()}). */
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.TYPE)
  public @interface Tls {
  }

  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(ApiServerExtension.class);

  @Override
  public void beforeAll(ExtensionContext context) {
    ApiServer.Builder builder = ApiServer.builder();
    if (context.getRequiredTestClass().isAnnotationPresent(Tls.class)) {
      builder.tls();
    }
    context.getStore(NS).put("server", builder.build().start());
  }

  @Override
  public void afterAll(ExtensionContext context) {
    ApiServer server = context.getStore(NS).remove("server", ApiServer.class);
    if (server != null) {
      server.close();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == ApiServer.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    ApiServer server = context.getStore(NS).get("server", ApiServer.class);
    if (server == null) { // used from a nested class or a method-level extension
      server = context.getRoot().getStore(NS).getOrComputeIfAbsent("server-root",
          k -> new ClosingServer(ApiServer.builder().build().start()), ClosingServer.class).server;
    }
    return server;
  }

  /** Closes a server the root context started when the test run ends. */
  private record ClosingServer(ApiServer server) implements ExtensionContext.Store.CloseableResource {
    @Override
    public void close() {
      server.close();
    }
  }
}
