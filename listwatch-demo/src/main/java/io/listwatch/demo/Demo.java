package io.listwatch.demo;

import io.listwatch.api.clock.Clock;
import io.listwatch.client.Config;
import io.listwatch.client.KubeClient;
import io.listwatch.controllers.manager.ControllerManager;
import io.listwatch.controllers.manager.ControllerSet;
import io.listwatch.server.ApiServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole system in one process: the API server on plain HTTP at 127.0.0.1 (every request
 * acts as the cluster admin there, so kubectl needs no credentials and a browser can load the
 * live page at {@code /ui/}), a kubeconfig pointing at it, the {@link ControllerSet} in a
 * {@link ControllerManager}, and one node agent per simulated node ({@code node-1} ...
 * {@code node-N}, pod CIDRs {@code 10.244.<i>.0/24}), each reading static pods from its own
 * manifest directory, {@code <data dir>/manifests/node-<i>} (created at start).
 *
 * <p>Thread-safe: {@link #close} may be called from any thread, e.g. a shutdown hook, and is
 * idempotent. Stops in reverse order: nodes, controllers, client, server.
 */
public final class Demo implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Demo.class);

  private final ApiServer server;
  private final Path kubeconfig;
  private final KubeClient client;
  private final ControllerManager controllers;
  private final List<AutoCloseable> nodes;
  private boolean closed;

  /** The directory holding one manifest directory per node. */
  static final String MANIFESTS = "manifests";

  private Demo(ApiServer server, Path kubeconfig, KubeClient client, ControllerManager controllers,
      List<AutoCloseable> nodes) {
    this.server = server;
    this.kubeconfig = kubeconfig;
    this.client = client;
    this.controllers = controllers;
    this.nodes = nodes;
  }

  /**
   * Starts everything. {@code port} 0 picks a free port; {@code dataDir} null uses a temporary
   * directory deleted on close; {@code nodeAgents} null starts no nodes. Node {@code node-<i>}
   * gets the manifest directory {@link #manifestDir}, created if missing.
   *
   * @throws UncheckedIOException if the kubeconfig or a manifest directory cannot be written
   */
  public static Demo start(int port, Path dataDir, Path kubeconfig, int nodeCount,
      List<ControllerSet.Entry> controllerSet, NodeAgentLauncher nodeAgents) {
    Objects.requireNonNull(kubeconfig, "kubeconfig");
    if (nodeCount < 0) {
      throw new IllegalArgumentException("--nodes must be 0 or more");
    }
    ApiServer.Builder builder = ApiServer.builder().port(port).ui(true);
    if (dataDir != null) {
      builder.dataDir(dataDir);
    }
    ApiServer server = builder.build().start();
    KubeClient client = null;
    ControllerManager controllers = null;
    List<AutoCloseable> nodes = new ArrayList<>();
    try {
      writeKubeconfig(kubeconfig, server.url());
      client = KubeClient.create(Config.fromKubeconfig(kubeconfig, null));
      controllers = new ControllerManager(client, controllerSet, ControllerSet.eventRecorder(client),
          Clock.system()).start();
      if (nodeAgents != null) {
        for (int i = 1; i <= nodeCount; i++) {
          String name = "node-" + i;
          Path manifests = createDirectories(manifestDir(server.dataDir(), name));
          nodes.add(nodeAgents.start(client, name, "10.244." + i + ".0/24", manifests));
        }
      }
      return new Demo(server, kubeconfig, client, controllers, nodes);
    } catch (RuntimeException e) {
      new Demo(server, kubeconfig, client, controllers, nodes).close();
      throw e;
    }
  }

  /** The server's base URL, e.g. {@code http://127.0.0.1:8080}. */
  public String url() {
    return server.url();
  }

  /** The live page's URL. */
  public String pageUrl() {
    return server.url() + "/ui/";
  }

  /** The kubeconfig written for kubectl. */
  public Path kubeconfig() {
    return kubeconfig;
  }

  /** The names of the running controllers. */
  public List<String> controllerNames() {
    return controllers.controllerNames();
  }

  /**
   * The static pod directory of node {@code nodeName}, {@code <data dir>/manifests/<node>}: a
   * pod manifest dropped there runs on that node, with a mirror pod named
   * {@code <pod>-<node>} in the API server.
   */
  public Path manifestDir(String nodeName) {
    return manifestDir(server.dataDir(), nodeName);
  }

  private static Path manifestDir(Path dataDir, String nodeName) {
    return dataDir.resolve(MANIFESTS).resolve(nodeName).toAbsolutePath();
  }

  private static Path createDirectories(Path dir) {
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the manifest directory " + dir, e);
    }
  }

  /** How many simulated nodes run. */
  public int nodeCount() {
    return nodes.size();
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (int i = nodes.size() - 1; i >= 0; i--) {
      try {
        nodes.get(i).close();
      } catch (Exception e) {
        LOG.warn("Demo: a node agent failed to stop", e);
      }
    }
    if (controllers != null) {
      controllers.close();
    }
    if (client != null) {
      client.close();
    }
    server.close();
  }

  /** A kubeconfig for the plain-HTTP listener: no credentials, as every request there is admin. */
  static void writeKubeconfig(Path file, String serverUrl) {
    String yaml = """
        apiVersion: v1
        kind: Config
        clusters:
        - name: listwatch-demo
          cluster:
            server: %s
        users:
        - name: listwatch-demo-admin
          user: {}
        contexts:
        - name: listwatch-demo
          context:
            cluster: listwatch-demo
            user: listwatch-demo-admin
        current-context: listwatch-demo
        """.formatted(serverUrl);
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(file, yaml);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the kubeconfig " + file, e);
    }
  }
}
