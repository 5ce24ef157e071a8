package io.listwatch.bench.chaos;

import io.listwatch.storage.etcd.testing.EtcdCluster;
import io.listwatch.storage.etcd.testing.LocalProcesses;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The processes a chaos run faults, all on 127.0.0.1: two API servers on a three-member etcd
 * cluster ({@link Kind#ETCD}), or one API server on its embedded store ({@link Kind#EMBEDDED}).
 * {@link #close} stops every one of them, resumed first if paused.
 *
 * <p>Thread-safe as its nodes are.
 */
final class Topology implements AutoCloseable {

  /** Which processes a run has. */
  enum Kind {
    /** Two API servers on a three-member etcd cluster. */
    ETCD,
    /** One API server on the embedded store (RocksDB). */
    EMBEDDED
  }

  private final Kind kind;
  private final EtcdCluster etcd;
  private final List<ServerNode> servers;
  private final List<Node> nodes;

  private Topology(Kind kind, EtcdCluster etcd, List<ServerNode> servers, List<Node> nodes) {
    this.kind = kind;
    this.etcd = etcd;
    this.servers = servers;
    this.nodes = nodes;
  }

  /** Starts every process of {@code kind}, data and logs under {@code dir}. */
  static Topology start(Kind kind, Path dir) throws IOException, InterruptedException {
    EtcdCluster etcd = null;
    List<ServerNode> servers = new ArrayList<>();
    List<Node> nodes = new ArrayList<>();
    Topology t = null;
    try {
      List<String> storage = List.of();
      int serverCount = 1;
      if (kind == Kind.ETCD) {
        etcd = EtcdCluster.start(dir.resolve("etcd"), 3);
        for (int i = 0; i < 3; i++) {
          nodes.add(new EtcdNode("etcd-" + i, etcd.member(i)));
        }
        storage = List.of("--etcd-servers", etcd.endpoints().stream().map(URI::toString)
            .collect(Collectors.joining(",")));
        serverCount = 2;
      }
      for (int i = 0; i < serverCount; i++) {
        ServerNode s = new ServerNode("server-" + i, dir.resolve("server-" + i), LocalProcesses.freePort(), storage);
        servers.add(s);
        nodes.add(s);
      }
      t = new Topology(kind, etcd, List.copyOf(servers), List.copyOf(nodes));
      for (ServerNode s : servers) {
        s.start();
      }
      return t;
    } catch (IOException | InterruptedException | RuntimeException e) {
      if (t != null) {
        t.close();
      } else if (etcd != null) {
        etcd.close();
      }
      throw e;
    }
  }

  Kind kind() {
    return kind;
  }

  /** The API servers' plain-HTTP URLs, by server index. */
  List<URI> serverUrls() {
    return servers.stream().map(ServerNode::url).toList();
  }

  /** Every process the nemesis may fault. */
  List<Node> nodes() {
    return nodes;
  }

  @Override
  public void close() throws InterruptedException {
    for (ServerNode s : servers) {
      s.close();
    }
    if (etcd != null) {
      for (Node n : nodes) {
        if (n instanceof EtcdNode) {
          n.close();
        }
      }
      etcd.close();
    }
  }
}
