package io.listwatch.client.testing;

import io.listwatch.client.Config;
import io.listwatch.client.KubeClient;
import io.listwatch.server.ApiServer;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives a JUnit 5 test class the whole listwatch server, running in the test's JVM on
 * 127.0.0.1 and a free port with its own temporary store, and clients ready to use: the test
 * methods (and constructor) declare what they want.
 *
 * <pre>{@code
 * @ExtendWith(ApiServerExtension.class)
 * class MyControllerTest {
 *   @Test
 *   void reconciles(KubeClient ours, KubernetesClient fabric8, ApiClient official, ApiServer server) {
 *     ...
 *   }
 * }
 * }</pre>
 *
 * <ul>
 *   <li>{@link ApiServer}: the server ({@code server.url()}, its store, its clock);</li>
 *   <li>{@link KubeClient}: listwatch's client;</li>
 *   <li>{@code io.fabric8.kubernetes.client.KubernetesClient}: fabric8's client (with
 *       {@code io.fabric8:kubernetes-client} on the test classpath);</li>
 *   <li>{@code io.kubernetes.client.openapi.ApiClient}: the official Java client (with
 *       {@code io.kubernetes:client-java} on the test classpath);</li>
 *   <li>{@link LocalWebhookServer}: the class's webhook server, with the manifests that
 *       {@link Webhooks @Webhooks} on the class names installed to call it (envtest's webhook
 *       support); the test says what each path answers.</li>
 * </ul>
 * Each client speaks plain HTTP to the server as the cluster admin, reads no kubeconfig or
 * environment, and uses the namespace {@code default}. The server starts before the class's first
 * test and stops after its last (its store deleted); the clients are made once per class and
 * closed with it. {@link Tls @Tls} on the class starts the server in TLS mode instead (then only
 * the {@code ApiServer} is given: {@code server.kubeconfig()} configures a client).
 *
 * <p>Needs {@code listwatch-server} on the test classpath (a dependency of this module that a
 * test of {@link FakeClient} alone does without).
 */
public final class ApiServerExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

  /** Starts the test class's server in TLS mode ({@link ApiServer.Builder#tls()}). */
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.TYPE)
  public @interface Tls {
  }

  /**
   * Starts a {@link LocalWebhookServer} for the test class and installs the webhook
   * configurations (and CustomResourceDefinitions with conversion webhooks) of these manifest
   * files or directories, relative to the working directory, pointed at it. Not with {@link Tls}.
   */
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.TYPE)
  public @interface Webhooks {
    /** The manifests to install. */
    String[] value();
  }

  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(ApiServerExtension.class);
  private static final String FABRIC8 = "io.fabric8.kubernetes.client.KubernetesClient";
  private static final String OFFICIAL = "io.kubernetes.client.openapi.ApiClient";

  @Override
  public void beforeAll(ExtensionContext context) {
    ApiServer.Builder builder = ApiServer.builder().bindAddress("127.0.0.1");
    if (context.getRequiredTestClass().isAnnotationPresent(Tls.class)) {
      builder.tls();
    }
    Fixture fixture = new Fixture(builder.build().start());
    context.getStore(NS).put("fixture", fixture);
    Webhooks webhooks = context.getRequiredTestClass().getAnnotation(Webhooks.class);
    if (webhooks != null) {
      fixture.webhooks().install((KubeClient) fixture.client(KubeClient.class),
          java.util.Arrays.stream(webhooks.value()).map(java.nio.file.Path::of).toArray(java.nio.file.Path[]::new));
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    Fixture fixture = context.getStore(NS).remove("fixture", Fixture.class);
    if (fixture != null) {
      fixture.close();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == ApiServer.class || type == KubeClient.class || type == LocalWebhookServer.class
        || type.getName().equals(FABRIC8) || type.getName().equals(OFFICIAL);
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Fixture fixture = fixture(context);
    Class<?> type = parameter.getParameter().getType();
    if (type == ApiServer.class) {
      return fixture.server;
    }
    if (type == LocalWebhookServer.class) {
      return fixture.webhooks();
    }
    if (fixture.server.url().startsWith("https:")) {
      throw new org.junit.jupiter.api.extension.ParameterResolutionException(
          "with @Tls only the ApiServer is given; configure a client from server.kubeconfig()");
    }
    return fixture.client(type);
  }

  /** The class's fixture; a nested class shares its outer class's. */
  private static Fixture fixture(ExtensionContext context) {
    for (ExtensionContext c = context; c != null; c = c.getParent().orElse(null)) {
      Fixture f = c.getStore(NS).get("fixture", Fixture.class);
      if (f != null) {
        return f;
      }
    }
    throw new org.junit.jupiter.api.extension.ParameterResolutionException(
        "ApiServerExtension must be registered on the test class (@ExtendWith on the class)");
  }

  /** One class's server and the clients made for it. Thread-safe. */
  private static final class Fixture {
    private final ApiServer server;
    private final List<AutoCloseable> clients = new ArrayList<>();
    private KubeClient ours;
    private Object fabric8;
    private Object official;
    private LocalWebhookServer webhooks;

    Fixture(ApiServer server) {
      this.server = server;
    }

    synchronized LocalWebhookServer webhooks() {
      if (webhooks == null) {
        webhooks = LocalWebhookServer.start();
        clients.add(webhooks);
      }
      return webhooks;
    }

    synchronized Object client(Class<?> type) {
      if (type == KubeClient.class) {
        if (ours == null) {
          ours = KubeClient.create(Config.forUrl(server.url()));
          clients.add(ours);
        }
        return ours;
      }
      if (type.getName().equals(FABRIC8)) {
        if (fabric8 == null) {
          AutoCloseable c = PeerClients.fabric8(server.url());
          clients.add(c);
          fabric8 = c;
        }
        return fabric8;
      }
      if (official == null) {
        official = PeerClients.official(server.url());
      }
      return official;
    }

    synchronized void close() {
      for (AutoCloseable c : clients) {
        try {
          c.close();
        } catch (Exception e) {
          // closing: the server goes next anyway
        }
      }
      server.close();
    }
  }
}
