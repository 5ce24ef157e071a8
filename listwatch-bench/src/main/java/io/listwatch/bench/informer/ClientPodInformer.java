package io.listwatch.bench.informer;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Properties;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * A {@link PodInformerUnderTest} over a client library's own informer, what the clients under
 * test share: once {@link #start} has the informer running it hands over how to read its
 * "has synced" flag and its cache size and how to add an update handler ({@link #started}); how to close what the subclass
 * builds is registered as it is built ({@link #closing}), and {@link #close} closes it in
 * reverse order.
 *
 * <p>Confined to the child's main thread.
 */
abstract class ClientPodInformer implements PodInformerUnderTest {

  private final Deque<Runnable> closers = new ArrayDeque<>();
  private BooleanSupplier synced;
  private IntSupplier cached;
  private Consumer<Runnable> updateHandlers;

  /** Registers how to close a piece just built (a client, an informer): with the others, later ones first. */
  protected final void closing(Runnable close) {
    closers.push(close);
  }

  /**
   * Called by {@link #start} once the informer runs: how to read its flag and its cache size,
   * and how to add a handler that runs the given action on each update notification.
   */
  protected final void started(BooleanSupplier hasSynced, IntSupplier cachedPods, Consumer<Runnable> addUpdateHandler) {
    this.synced = hasSynced;
    this.cached = cachedPods;
    this.updateHandlers = addUpdateHandler;
  }

  @Override
  public final void onUpdates(Runnable onUpdate) {
    updateHandlers.accept(onUpdate);
  }

  @Override
  public final boolean hasSynced() {
    return synced.getAsBoolean();
  }

  @Override
  public final int cachedPods() {
    return cached.getAsInt();
  }

  @Override
  public final void close() {
    while (!closers.isEmpty()) {
      closers.pop().run();
    }
  }

  /** The version in the jar's Maven metadata of {@code groupId:artifactId}, as loaded. */
  static String mavenVersion(String groupId, String artifactId) {
    String path = "/META-INF/maven/" + groupId + "/" + artifactId + "/pom.properties";
    try (InputStream in = ClientPodInformer.class.getResourceAsStream(path)) {
      if (in == null) {
        return "(version unknown)";
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version", "(version unknown)");
    } catch (IOException e) {
      return "(version unknown)";
    }
  }
}
