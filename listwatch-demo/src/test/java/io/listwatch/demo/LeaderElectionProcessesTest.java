package io.listwatch.demo;

import static io.listwatch.demo.DemoCluster.AWAIT;
import static io.listwatch.demo.DemoCluster.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.controllers.cli.ControllersCommand;
import io.listwatch.server.ApiServer;
import io.listwatch.server.tls.Kubeconfig;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code ./listwatch controllers --leader-elect} processes against one server, as two
 * kube-controller-managers run: separate JVMs that authenticate as two users
 * ({@code controllers-a} and {@code controllers-b}, client certificates in {@code system:masters}),
 * so that the server's audit log tells whose controllers wrote what. The leader is killed with
 * SIGKILL (it cannot release the Lease) and the standby takes over.
 *
 * <p>What the audit log must show: the controllers' writes (everything but the Lease: creates,
 * updates, patches and deletes of ReplicaSets, pods, Events, statuses) fall into terms of one user
 * each, and a term never starts before the previous holder's last Lease renewal plus the lease
 * duration, so the two never act at once; after the kill only the standby writes. A busy machine
 * can make a leader miss its renew deadline before the kill: it then stops acting and exits, the
 * other takes over (a term change the same rule checks), and the test starts a fresh process for
 * that user before killing the leader, as a restart policy would (and for the standby's user
 * after the kill).
 *
 * <p>Timings: a 6 s lease renewed every second with a 4 s renew deadline. A leader stops acting
 * at its renew deadline after its last renewal, a standby may take over only at the lease
 * duration after it, so the 2 s between them is the margin for a stopping leader's last writes.
 * No node agents: the Deployment and ReplicaSet controllers create the ReplicaSet and its pods
 * (which stay Pending), which is all the test needs to see who acts.
 */
@EndToEnd
class LeaderElectionProcessesTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int LEASE_SECONDS = 6;
  private static final int RENEW_DEADLINE_SECONDS = 4;
  private static final String LEASE = "listwatch-controllers";
  private static final Set<String> WRITE_VERBS = Set.of("create", "update", "patch", "delete", "deletecollection");
  private static final List<String> USERS = List.of("controllers-a", "controllers-b");

  @TempDir
  Path dir;
  private ApiServer server;
  /** Every process started, to stop them all; the current one per user; identities by user. */
  private final List<Process> started = new ArrayList<>();
  private final Map<String, Process> running = new LinkedHashMap<>();
  private final Map<String, String> identities = new LinkedHashMap<>();
  private boolean passed;

  @AfterEach
  void stop() throws Exception {
    for (Process p : started) {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
    if (server != null) {
      server.close();
    }
    if (!passed) {
      for (int i = 0; i < started.size(); i++) {
        Path out = dir.resolve("controllers-" + i + ".out");
        System.err.println("--- " + out.getFileName() + ":\n" + (Files.exists(out) ? Files.readString(out) : ""));
      }
    }
  }

  @Test
  void onlyOneProcessActsAtATime_andTheStandbyTakesOverOnlyAfterTheKilledLeadersLeaseExpired() throws Exception {
    assertThat(Kubectl.binary()).as("kubectl on PATH").isPresent();
    Path auditLog = dir.resolve("audit.log");
    server = ApiServer.builder().tls().dataDir(dir.resolve("data")).auditLog(auditLog).build().start();
    Kubectl kubectl = DemoCluster.kubectl(server.kubeconfig(), dir);
    for (String user : USERS) {
      startControllers(user);
    }
    Await.until("a leader holding the Lease", AWAIT, () -> holder(kubectl), h -> identities.containsValue(h));
    kubectl.ok("create", "deployment", "web", "--image=nginx", "--replicas=2");
    Await.until("2 pods of web", AWAIT, () -> pods(kubectl), n -> n == 2);

    String holder = Await.until("a running leader and a running standby", AWAIT, () -> {
      USERS.forEach(this::restartExited);
      return holder(kubectl);
    }, h -> identities.containsValue(h) && running.values().stream().allMatch(Process::isAlive));
    String leader = userOf(holder);
    String standby = USERS.get(0).equals(leader) ? USERS.get(1) : USERS.get(0);
    Process killed = running.get(leader);
    killed.destroyForcibly(); // SIGKILL: the leader cannot release the Lease
    assertThat(killed.waitFor(30, TimeUnit.SECONDS)).as("the leader is gone").isTrue();
    Instant killedAt = Instant.now();

    kubectl.ok("scale", "deployment", "web", "--replicas=4");
    Await.until("4 pods of web", AWAIT, () -> {
      restartExited(standby); // should the standby in turn miss a renew deadline, as above
      return pods(kubectl);
    }, n -> n == 4);
    assertThat(holder(kubectl)).as("the Lease's holder after the kill").isEqualTo(identities.get(standby));

    // the audit log is written in the background: wait until it shows the standby's new pods
    List<JsonNode> events = Await.until("the standby's pod creates after the kill in the audit log", AWAIT,
        () -> auditEvents(auditLog), ev -> ev.stream().filter(e -> user(e).equals(standby)
            && verb(e).equals("create") && resource(e).equals("pods") && !received(e).isBefore(killedAt)).count() >= 2);
    List<JsonNode> writes = events.stream()
        .filter(e -> WRITE_VERBS.contains(verb(e)) && USERS.contains(user(e)) && !resource(e).equals("leases"))
        .sorted(Comparator.comparing(LeaderElectionProcessesTest::received)).toList();

    assertThat(writes).as("writes before the kill").filteredOn(e -> received(e).isBefore(killedAt))
        .anySatisfy(e -> assertThat(verb(e) + " " + resource(e)).isEqualTo("create replicasets"))
        .anySatisfy(e -> assertThat(verb(e) + " " + resource(e)).isEqualTo("create pods"));
    assertThat(writes).as("writes after the kill").filteredOn(e -> !received(e).isBefore(killedAt)).isNotEmpty()
        .allSatisfy(e -> assertThat(user(e)).as(e.toString()).isEqualTo(standby));
    Instant lastTakeover = null;
    for (int i = 1; i < writes.size(); i++) {
      String from = user(writes.get(i - 1));
      if (from.equals(user(writes.get(i)))) {
        continue;
      }
      Instant first = received(writes.get(i));
      Instant lastRenewal = lastLeaseWrite(events, from, first);
      assertThat(first).as("%s's first write after %s's (%s) vs. %s's last Lease renewal (%s) + the lease duration",
          user(writes.get(i)), from, writes.get(i - 1), from, lastRenewal)
          .isAfterOrEqualTo(lastRenewal.plusSeconds(LEASE_SECONDS));
      lastTakeover = first;
    }
    assertThat(lastTakeover).as("the standby's term started after the kill").isNotNull().isAfterOrEqualTo(killedAt);
    passed = true;
  }

  /**
   * Starts a {@code ./listwatch controllers --leader-elect} JVM acting as {@code user} (in
   * {@code system:masters}) with a fresh identity, its output in a file.
   */
  private void startControllers(String user) throws IOException {
    Path kubeconfig = dir.resolve(user + ".kubeconfig");
    if (!Files.exists(kubeconfig)) {
      Kubeconfig.write(kubeconfig, server.url(), server.caCertificate(), user,
          server.issueClientCertificate(user, "system:masters"));
    }
    String identity = user + "-" + started.size();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path"), ControllersCommand.class.getName(),
        "--kubeconfig", kubeconfig.toString(), "--leader-elect", "--leader-elect-identity", identity,
        "--leader-elect-lease-duration", Integer.toString(LEASE_SECONDS),
        "--leader-elect-renew-deadline", Integer.toString(RENEW_DEADLINE_SECONDS),
        "--leader-elect-retry-period", "1");
    Process p = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(dir.resolve("controllers-" + started.size() + ".out").toFile()).start();
    started.add(p);
    running.put(user, p);
    identities.put(user, identity);
  }

  /** A process that lost the Lease exits (status 1): start a fresh one when {@code user}'s has. */
  private void restartExited(String user) {
    if (!running.get(user).isAlive()) {
      try {
        startControllers(user);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private String userOf(String identity) {
    return identities.entrySet().stream().filter(e -> e.getValue().equals(identity)).map(Map.Entry::getKey)
        .findFirst().orElseThrow(() -> new AssertionError("no running process is " + identity));
  }

  /** When the audit log last saw {@code user} write the Lease successfully before {@code before}. */
  private static Instant lastLeaseWrite(List<JsonNode> events, String user, Instant before) {
    return events.stream()
        .filter(e -> user(e).equals(user) && resource(e).equals("leases") && WRITE_VERBS.contains(verb(e))
            && e.path("responseStatus").path("code").asInt() / 100 == 2 && received(e).isBefore(before))
        .map(LeaderElectionProcessesTest::received).max(Comparator.naturalOrder())
        .orElseThrow(() -> new AssertionError(user + " wrote without ever holding the Lease"));
  }

  /** The holder of the controllers' Lease, or "" while there is none. */
  private static String holder(Kubectl kubectl) {
    Kubectl.Result r = kubectl.run("get", "lease", "-n", "kube-system", LEASE,
        "-o", "jsonpath={.spec.holderIdentity}");
    return r.exitCode() == 0 ? r.stdout().trim() : "";
  }

  /** How many pods of the web deployment exist. */
  private static int pods(Kubectl kubectl) {
    return json(kubectl, "get", "pods", "-l", "app=web").path("items").size();
  }

  /** The audit log's ResponseComplete events. */
  private static List<JsonNode> auditEvents(Path log) {
    try {
      List<JsonNode> events = new ArrayList<>();
      for (String line : Files.readAllLines(log)) {
        if (line.endsWith("}")) { // a line still being written is left for the next read
          JsonNode e = JSON.readTree(line);
          if (e.path("stage").asText().equals("ResponseComplete")) {
            events.add(e);
          }
        }
      }
      return events;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String user(JsonNode e) {
    return e.path("user").path("username").asText();
  }

  private static String verb(JsonNode e) {
    return e.path("verb").asText();
  }

  private static String resource(JsonNode e) {
    return e.path("objectRef").path("resource").asText();
  }

  private static Instant received(JsonNode e) {
    return Instant.parse(e.path("requestReceivedTimestamp").asText());
  }
}
