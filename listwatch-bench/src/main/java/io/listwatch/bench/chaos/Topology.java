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
 * The processes a chaos run faults: two API servers on a three-member etcd cluster
 * ({@link Kind#ETCD}), or one API server on its embedded store ({@link Kind#EMBEDDED}). The
 * servers listen on 127.0.0.1. The etcd members run each in a network namespace of a
 * {@link PrivateNetwork}, so that they can be partitioned; where that cannot be made (not
 * root), on 127.0.0.1 without partitions, and {@link #partitions} says why. Each server reaches
 * each member through a {@link DelayProxy} of its own, where the nemesis adds delay or cuts the
 * server off from etcd.
 * {@link #close} kills every process and removes the network.
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
  private final PrivateNetwork network;
  private final String partitions;
  private final List<ServerNode> servers;
  private final List<Node> nodes;
  private final List<List<DelayProxy>> links;

  private Topology(Kind kind, EtcdCluster etcd, PrivateNetwork network, String partitions, List<ServerNode> servers,
      List<Node> nodes, List<List<DelayProxy>> links) {
    this.links = links;
    this.kind = kind;
    this.etcd = etcd;
    this.network = network;
    this.partitions = partitions;
    this.servers = servers;
    this.nodes = nodes;
  }

  /** Starts every process of {@code kind}, data and logs under {@code dir}. */
  static Topology start(Kind kind, Path dir) throws IOException, InterruptedException {
    EtcdCluster etcd = null;
    PrivateNetwork network = null;
    String partitions = "none (one server: nothing to partition)";
    List<ServerNode> servers = new ArrayList<>();
    List<Node> nodes = new ArrayList<>();
    List<List<DelayProxy>> links = new ArrayList<>();
    List<String> endpoints = new ArrayList<>();
    Topology t = null;
    try {
      int serverCount = 1;
      if (kind == Kind.ETCD) {
        try {
          network = PrivateNetwork.create(3);
          partitions = "etcd members in network namespaces: cut off, split from their peers, or on a lossy link";
        } catch (IOException e) {
          partitions = "none: no network namespaces (" + e.getMessage() + "); run as root for partitions";
        }
        if (network != null) {
          PrivateNetwork net = network;
          String initial = java.util.stream.IntStream.range(0, 3)
              .mapToObj(i -> NamespacedEtcdMember.peer(net, i)).collect(Collectors.joining(","));
          List<NamespacedEtcdMember> members = new ArrayList<>();
          for (int i = 0; i < 3; i++) {
            NamespacedEtcdMember m = new NamespacedEtcdMember(network, i, dir.resolve("etcd-" + i), initial);
            members.add(m);
            nodes.add(m);
            endpoints.add(m.endpoint());
          }
          for (NamespacedEtcdMember m : members) {
            m.launch();
          }
          for (NamespacedEtcdMember m : members) {
            m.awaitListening();
          }
        } else {
          etcd = EtcdCluster.start(dir.resolve("etcd"), 3);
          for (int i = 0; i < 3; i++) {
            nodes.add(new EtcdNode("etcd-" + i, etcd.member(i)));
          }
          etcd.endpoints().forEach(u -> endpoints.add(u.toString()));
        }
        serverCount = 2;
      }
      for (int i = 0; i < serverCount; i++) {
        List<DelayProxy> own = new ArrayList<>();
        links.add(own);
        for (int m = 0; m < endpoints.size(); m++) {
          URI u = URI.create(endpoints.get(m));
          own.add(DelayProxy.start("server-" + i + " to etcd-" + m, new java.net.InetSocketAddress(u.getHost(), u.getPort())));
        }
        List<String> storage = own.isEmpty() ? List.of()
            : List.of("--etcd-servers", own.stream().map(DelayProxy::url).collect(Collectors.joining(",")));
        ServerNode s = new ServerNode("server-" + i, dir.resolve("server-" + i), LocalProcesses.freePort(), storage);
        servers.add(s);
        nodes.add(s);
      }
      t = new Topology(kind, etcd, network, partitions, List.copyOf(servers), List.copyOf(nodes), List.copyOf(links));
      for (ServerNode s : servers) {
        s.start();
      }
      return t;
    } catch (IOException | InterruptedException | RuntimeException e) {
      if (t != null) {
        t.close();
      } else {
        links.forEach(l -> l.forEach(DelayProxy::close));
        for (Node n : nodes) {
          n.close();
        }
        if (etcd != null) {
          etcd.close();
        }
        if (network != null) {
          network.close();
        }
      }
      throw e;
    }
  }

  Kind kind() {
    return kind;
  }

  /** What the nemesis may partition, or why nothing. */
  String partitions() {
    return partitions;
  }

  /** The API servers' plain-HTTP URLs, by server index. */
  List<URI> serverUrls() {
    return servers.stream().map(ServerNode::url).toList();
  }

  /**
   * Each server's links to the etcd members (by server index, then member index), where the
   * nemesis adds delay or cuts the server off; empty lists on the embedded store.
   */
  List<List<DelayProxy>> links() {
    return links;
  }

  /** Every process the nemesis may fault. */
  List<Node> nodes() {
    return nodes;
  }

  @Override
  public void close() throws InterruptedException {
    for (Node n : nodes) {
      n.kill(); // nothing of a run is kept but its history: no need to wait for graceful shutdowns
      n.close();
    }
    links.forEach(l -> l.forEach(DelayProxy::close));
    if (etcd != null) {
      etcd.close();
    }
    if (network != null) {
      network.close();
    }
  }
}
