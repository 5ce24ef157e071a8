package io.listwatch.server.testing;

import io.listwatch.server.ApiServer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives a JUnit 5 test class a running {@link ApiServer} on 127.0.0.1 and a free port, with
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
 */
public final class ApiServerExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(ApiServerExtension.class);

  @Override
  public void beforeAll(ExtensionContext context) {
    context.getStore(NS).put("server", ApiServer.builder().build().start());
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
