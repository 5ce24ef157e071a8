package io.listwatch.storage.etcd.testing;

import io.etcd.jetcd.Client;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * A real etcd cluster of several members on 127.0.0.1, each an {@link EtcdServer} in its own
 * process with its own data directory, for tests of what a replicated store does when a
 * member dies. Not thread-safe; {@link #close} stops every member.
 */
public final class EtcdCluster implements AutoCloseable {

  private final List<EtcdServer> members;

  private EtcdCluster(List<EtcdServer> members) {
    this.members = members;
  }

  /** Attempts at starting a cluster when a member finds its port taken. */
  private static final int ATTEMPTS = 3;

  /**
   * Starts {@code size} members (data under {@code dir/member-N}) and waits until each listens.
   * Ports are picked free ({@link LocalProcesses#freePort}, below the kernel's ephemeral range,
   * so no outgoing connection takes one) and then bound by etcd; another process binding the same
   * port in between is still possible: a member that finds its port in use makes the whole
   * cluster start again on new ports, in a new directory ({@code dir/attempt-K/member-N}), up to
   * {@value #ATTEMPTS} times in all.
   *
   * @throws IllegalStateException when etcd is not installed or a member does not come up
   */
  public static EtcdCluster start(Path dir, int size) throws IOException, InterruptedException {
    if (size < 1) {
      throw new IllegalArgumentException("a cluster needs at least one member");
    }
    for (int attempt = 1; ; attempt++) {
      try {
        return startOnce(attempt == 1 ? dir : dir.resolve("attempt-" + attempt), size);
      } catch (IllegalStateException e) {
        if (attempt == ATTEMPTS || !String.valueOf(e.getMessage()).contains("address already in use")) {
          throw e;
        }
      }
    }
  }

  private static EtcdCluster startOnce(Path dir, int size) throws IOException, InterruptedException {
    List<EtcdServer> members = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      members.add(new EtcdServer(dir.resolve("member-" + i), "member-" + i));
    }
    String initial = members.stream().map(m -> m.name() + "=" + m.peerUrl()).collect(Collectors.joining(","));
    EtcdCluster cluster = new EtcdCluster(members);
    try {
      // all first: a member of a new cluster waits for a quorum of the others before it serves
      for (EtcdServer m : members) {
        m.initialCluster(initial);
        m.launch();
      }
      for (EtcdServer m : members) {
        m.awaitListening();
      }
    } catch (IOException | InterruptedException | RuntimeException e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  /** Every member's client URL, for a client that balances and fails over between them. */
  public List<URI> endpoints() {
    return members.stream().map(EtcdServer::endpoint).toList();
  }

  /**
   * Waits until every member names the same leader. A member's client port opens before it has
   * joined the cluster's raft group, so a test that kills one member to show the others carry on
   * waits for this first: until then the others may not yet make a quorum without it.
   *
   * @throws IllegalStateException when they do not agree within {@code timeout} (with each
   *     member's log)
   */
  public void awaitAgreedLeader(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    try (Client client = Client.builder().endpoints(endpoints().toArray(URI[]::new)).build()) {
      while (true) {
        List<Long> leaders = new ArrayList<>();
        for (EtcdServer m : members) {
          try {
            leaders.add(client.getMaintenanceClient().statusMember(m.endpoint().toString())
                .get(2, TimeUnit.SECONDS).getLeader());
          } catch (ExecutionException | TimeoutException e) {
            leaders.add(0L); // not answering yet: no leader it knows of
          }
        }
        if (leaders.stream().distinct().count() == 1 && leaders.get(0) != 0L) {
          return;
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the members named the leaders " + leaders + " after " + timeout
              + " (0: none)\n" + logs());
        }
        Thread.sleep(50); // an election takes a second or so; bounded by the deadline
      }
    }
  }

  /** The last lines of every member's log, each under its name: for a failing test's message. */
  public String logs() {
    return members.stream().map(m -> "--- " + m.name() + ":\n" + m.tail()).collect(Collectors.joining("\n"));
  }

  /** Member {@code i}, to stop, kill or restart. */
  public EtcdServer member(int i) {
    return members.get(i);
  }

  @Override
  public void close() throws InterruptedException {
    for (EtcdServer m : members) {
      m.close();
    }
  }
}
