package io.listwatch.server.cli;

import io.listwatch.server.ApiServer;
import io.listwatch.server.authz.AuthorizationMode;
import io.listwatch.apiserver.cacher.CacherConfig;
import io.listwatch.server.filters.MaxInFlightLimit;
import io.listwatch.server.filters.WatchLimit;
import io.listwatch.server.tls.TlsConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./listwatch server}: runs the API server on the embedded store until SIGTERM or
 * Ctrl-C, then shuts down cleanly (watches end normally, the store is closed). It serves
 * HTTPS on {@code --secure-port} with certificates it creates in the data directory (or the
 * operator's), writes {@code <data-dir>/kubeconfig.yaml} for the admin, and serves plain HTTP
 * only when {@code --http-port} asks for it.
 */
@Command(name = "server", mixinStandardHelpOptions = true,
    description = "Runs the Kubernetes-compatible API server on the embedded store, or on an etcd cluster "
        + "(--etcd-servers) that several servers can share.")
public final class ServerCommand implements Callable<Integer> {

  @Option(names = "--data-dir", description = "Where the embedded store keeps its data (default: ${DEFAULT-VALUE}).")
  Path dataDir = Path.of("data");

  @Option(names = "--etcd-servers", split = ",", paramLabel = "URL",
      description = "etcd client URLs (http://host:port, comma-separated) to store objects in, instead of the "
          + "embedded store; servers given the same etcd serve one cluster.")
  List<java.net.URI> etcdServers = new ArrayList<>();

  @Option(names = "--etcd-prefix",
      description = "Prefix before every key stored in etcd, so that several clusters can share one etcd "
          + "(default: none; keys start with /registry).")
  String etcdPrefix = "";

  @Option(names = "--etcd-cafile", paramLabel = "FILE",
      description = "CA (PEM) that signed etcd's serving certificate, for https:// etcd servers.")
  Path etcdCaFile;

  @Option(names = "--etcd-certfile", paramLabel = "FILE",
      description = "Client certificate (PEM) for etcd, with --etcd-keyfile, when etcd asks for one.")
  Path etcdCertFile;

  @Option(names = "--etcd-keyfile", paramLabel = "FILE", description = "Private key (PEM) of --etcd-certfile.")
  Path etcdKeyFile;

  @Option(names = "--etcd-compaction-interval",
      description = "How often to compact etcd's history, e.g. 5m; 0 never (default: 5m, as kube's).")
  String etcdCompactionInterval = "5m";

  @Option(names = "--leader-elect", arity = "0..1", fallbackValue = "true",
      description = "Run the garbage collector, namespace and service accounts controllers only while this "
          + "server holds the Lease kube-system/listwatch-controller-manager, so that of several servers on one "
          + "etcd one runs them (default: true with --etcd-servers, false on the embedded store).")
  Boolean leaderElect;

  @Option(names = "--leader-elect-lease-duration", description = "How long a standby waits after the Lease "
      + "last changed before taking it (default: ${DEFAULT-VALUE}).")
  String leaderElectLeaseDuration = "15s";

  @Option(names = "--leader-elect-renew-deadline", description = "How long the leader keeps acting without "
      + "renewing the Lease (default: ${DEFAULT-VALUE}).")
  String leaderElectRenewDeadline = "10s";

  @Option(names = "--leader-elect-retry-period", description = "How often candidates try for the Lease, and "
      + "the leader renews it (default: ${DEFAULT-VALUE}).")
  String leaderElectRetryPeriod = "2s";

  @Option(names = "--bind-address",
      description = "Address the secure port listens on (default: ${DEFAULT-VALUE}, this machine only; "
          + "0.0.0.0 for all).")
  String bindAddress = "127.0.0.1";

  @Option(names = "--secure-port", description = "HTTPS port (default: ${DEFAULT-VALUE}).")
  int securePort = 6443;

  @Option(names = "--http-port",
      description = "Plain HTTP port on 127.0.0.1 where every request acts as the cluster admin; 0 turns it off "
          + "(default: ${DEFAULT-VALUE}).")
  int httpPort = 0;

  @Option(names = "--tls-cert-file",
      description = "Serving certificate (PEM, chain leaf first) instead of the generated one; "
          + "needs --tls-private-key-file.")
  Path tlsCertFile;

  @Option(names = "--tls-private-key-file", description = "Private key (PEM) of --tls-cert-file.")
  Path tlsPrivateKeyFile;

  @Option(names = "--client-ca-file",
      description = "CA certificates (PEM) that sign client certificates, instead of the generated CA; "
          + "no admin certificate or kubeconfig is generated then.")
  Path clientCaFile;

  @Option(names = "--tls-san",
      description = "Extra DNS name or IP address for the generated serving certificate (repeatable).")
  List<String> tlsSans = new ArrayList<>();

  @Option(names = "--tls-provider",
      description = "TLS implementation: jdk or openssl (default: openssl when netty-tcnative loads, else jdk).")
  String tlsProvider;

  @Option(names = "--watch-cache-size",
      description = "Events of history kept per resource for resuming watches (default: ${DEFAULT-VALUE}).")
  int watchCacheSize = CacherConfig.DEFAULTS.historyCapacity();

  @Option(names = "--watch-cache-history",
      description = "Longest age of that history, e.g. 75s, 5m (default: 75s, as kube's).")
  String watchCacheHistory = "75s";

  @Option(names = "--event-ttl",
      description = "Events are deleted this long after their last write, e.g. 1h, 10m (default: 1h, as kube's).")
  String eventTtl = "1h";

  @Option(names = "--watcher-queue",
      description = "Events queued per watcher before a slow watcher is closed (default: ${DEFAULT-VALUE}).")
  int watcherQueue = CacherConfig.DEFAULTS.watcherQueueCapacity();

  @Option(names = "--io-threads", paramLabel = "N",
      description = "Event loops serving connections (default: one per CPU the JVM may use).")
  Integer ioThreads;

  @Option(names = "--max-requests-inflight",
      description = "Read-only requests served at once before 429; 0 = unlimited (default: ${DEFAULT-VALUE}).")
  int maxRequestsInflight = MaxInFlightLimit.DEFAULT_MAX_REQUESTS_INFLIGHT;

  @Option(names = "--max-mutating-requests-inflight",
      description = "Mutating requests served at once before 429; 0 = unlimited (default: ${DEFAULT-VALUE}).")
  int maxMutatingRequestsInflight = MaxInFlightLimit.DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT;

  @Option(names = "--enable-priority-and-fairness", arity = "0..1", fallbackValue = "true",
      description = "API Priority and Fairness instead of the max-in-flight limits (default: ${DEFAULT-VALUE}).")
  boolean enablePriorityAndFairness = true;

  @Option(names = "--enable-garbage-collector", arity = "0..1", fallbackValue = "true",
      description = "Follow ownerReferences when objects are deleted, as kube-controller-manager's garbage collector;"
          + " false: nothing is collected, as kube-apiserver alone (default: ${DEFAULT-VALUE}).")
  boolean enableGarbageCollector = true;

  @Option(names = "--feature-gates", paramLabel = "Name=true,...", converter = FeatureGatesConverter.class,
      description = "kube's feature gates this server knows: AllowUnsafeMalformedObjectDeletion (default "
          + "false) and APIResponseCompression (default true), e.g. AllowUnsafeMalformedObjectDeletion=true.")
  io.listwatch.apiserver.features.FeatureGates featureGates = io.listwatch.apiserver.features.FeatureGates.DEFAULTS;

  @Option(names = "--max-watches-per-user",
      description = "Watches one user may hold open before 429; 0 = unlimited (default: ${DEFAULT-VALUE}).")
  int maxWatchesPerUser = WatchLimit.DEFAULT_MAX_WATCHES_PER_USER;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin
  AuthenticationOptions authentication = new AuthenticationOptions();

  @Option(names = "--authorization-mode", converter = AuthorizationModeConverter.class,
      description = "How requests are authorized: RBAC or AlwaysAllow (default: ${DEFAULT-VALUE}).")
  AuthorizationMode authorizationMode = AuthorizationMode.RBAC;

  @Option(names = "--audit-log-path",
      description = "Log every request as a kube audit event (audit.k8s.io/v1, level Metadata, one JSON line each) "
          + "to this file, appending; - means standard output. No audit policy: every request is logged.")
  String auditLogPath;

  @Option(names = "--ui", description = "Serve the live page of nodes and pods at /ui/ (a browser uses it "
      + "on the plain-HTTP listener, --http-port, where requests act as the admin).")
  boolean ui;

  @Option(names = "--service-cluster-ip-range",
      description = "The CIDR Services' cluster IPs come from, at most 20 host bits (default: ${DEFAULT-VALUE}).")
  String serviceClusterIpRange = "10.96.0.0/12";

  @Option(names = "--service-node-port-range",
      description = "The ports NodePort and LoadBalancer Services' node ports come from (default: ${DEFAULT-VALUE}).")
  String serviceNodePortRange = "30000-32767";

  @Option(names = "--endpoint-reconciler-type",
      description = "lease: the default/kubernetes endpoints name every live server; none: the Service only "
          + "(default: ${DEFAULT-VALUE}).")
  String endpointReconcilerType = "lease";

  @Override
  public Integer call() throws InterruptedException {
    CacherConfig cacher = new CacherConfig(watchCacheSize, parseDuration(watchCacheHistory), watcherQueue,
        CacherConfig.DEFAULTS.bookmarkInterval(), CacherConfig.DEFAULTS.freshnessTimeout());
    ApiServer.Builder builder = ApiServer.builder().dataDir(dataDir).bindAddress(bindAddress).port(securePort)
        .tls(tlsConfig()).cacherConfig(cacher).maxInFlight(maxRequestsInflight, maxMutatingRequestsInflight)
        .enablePriorityAndFairness(enablePriorityAndFairness).garbageCollector(enableGarbageCollector)
        .featureGates(featureGates)
        .maxWatchesPerUser(maxWatchesPerUser).eventTtl(parseDuration(eventTtl)).authentication(authentication.config())
        .authorizationMode(authorizationMode).ui(ui).serviceClusterIpRange(serviceClusterIpRange)
        .serviceNodePortRange(serviceNodePortRange).endpointReconcilerType(endpointReconcilerType);
    if (!etcdServers.isEmpty()) {
      if ((etcdCertFile == null) != (etcdKeyFile == null)
          || (etcdCaFile == null && etcdCertFile != null)) {
        spec.commandLine().getErr().println(
            "listwatch server: --etcd-certfile and --etcd-keyfile go together, and need --etcd-cafile");
        return 1;
      }
      if (etcdCaFile != null) {
        builder.etcdTls(etcdCaFile, etcdCertFile, etcdKeyFile);
      }
      builder.etcdServers(etcdServers).etcdPrefix(etcdPrefix)
          .etcdCompactionInterval("0".equals(etcdCompactionInterval.trim()) ? Duration.ZERO
              : parseDuration(etcdCompactionInterval));
    }
    if (leaderElect != null) {
      builder.leaderElect(leaderElect);
    }
    try {
      builder.leaderElectTiming(parseDuration(leaderElectLeaseDuration), parseDuration(leaderElectRenewDeadline),
          parseDuration(leaderElectRetryPeriod));
    } catch (IllegalArgumentException | CommandLine.TypeConversionException e) {
      spec.commandLine().getErr().println("listwatch server: --leader-elect-*: " + e.getMessage());
      return 1;
    }
    if (ioThreads != null) {
      if (ioThreads < 1) {
        spec.commandLine().getErr().println("listwatch server: --io-threads must be at least 1");
        return 1;
      }
      builder.ioThreads(ioThreads);
    }
    if (httpPort > 0) {
      builder.insecurePort(httpPort);
    }
    if (auditLogPath != null && !auditLogPath.isEmpty()) {
      builder.auditLog(Path.of(auditLogPath));
    }
    ApiServer server;
    try {
      server = builder.build().start();
    } catch (IllegalArgumentException | java.io.UncheckedIOException | io.listwatch.storage.StorageException e) {
      // a bad flag value or file (e.g. a malformed token file), or an etcd that does not answer:
      // say which, without a stack trace
      spec.commandLine().getErr().println("listwatch server: cannot start: " + e.getMessage());
      return 1;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("listwatch-shutdown").unstarted(() -> {
      System.out.println("listwatch: shutting down");
      server.close();
      stopped.countDown();
    }));
    System.out.println("listwatch API server listening on " + server.url() + (etcdServers.isEmpty()
        ? " (data in " + dataDir.toAbsolutePath() + ")"
        : " (objects in etcd at " + etcdServers + ", certificates and keys in " + dataDir.toAbsolutePath() + ")"));
    server.insecureUrl().ifPresent(u ->
        System.out.println("plain HTTP listening on " + u + " (every request there acts as the cluster admin)"));
    if (clientCaFile == null) {
      System.out.println("Try:");
      System.out.println("  export KUBECONFIG=" + server.kubeconfig().toAbsolutePath());
      System.out.println("  kubectl get namespaces");
    } else {
      System.out.println("Client certificates are signed by " + clientCaFile + "; give kubectl one of those.");
    }
    stopped.await();
    return 0;
  }

  private TlsConfig tlsConfig() {
    if ((tlsCertFile == null) != (tlsPrivateKeyFile == null)) {
      throw new CommandLine.ParameterException(new CommandLine(this),
          "--tls-cert-file and --tls-private-key-file go together");
    }
    TlsConfig tls = TlsConfig.DEFAULTS.withSubjectAltNames(tlsSans);
    if (tlsCertFile != null) {
      tls = tls.withServingCertificate(tlsCertFile, tlsPrivateKeyFile);
    }
    if (clientCaFile != null) {
      tls = tls.withClientCa(clientCaFile);
    }
    if (tlsProvider != null) {
      tls = tls.withProvider(switch (tlsProvider.toLowerCase(java.util.Locale.ROOT)) {
        case "jdk" -> TlsConfig.Provider.JDK;
        case "openssl" -> TlsConfig.Provider.OPENSSL;
        default -> throw new CommandLine.ParameterException(new CommandLine(this),
            "--tls-provider must be jdk or openssl, not " + tlsProvider);
      });
    }
    return tls;
  }

  /** Reads {@code --authorization-mode} as kube spells it. */
  static final class AuthorizationModeConverter implements CommandLine.ITypeConverter<AuthorizationMode> {
    @Override
    public AuthorizationMode convert(String value) {
      try {
        return AuthorizationMode.parse(value);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }

  /** Reads {@code --feature-gates} as kube spells it. */
  static final class FeatureGatesConverter implements CommandLine.ITypeConverter<io.listwatch.apiserver.features.FeatureGates> {
    @Override
    public io.listwatch.apiserver.features.FeatureGates convert(String value) {
      try {
        return io.listwatch.apiserver.features.FeatureGates.parse(value);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }

  static Duration parseDuration(String s) {
    String t = s.trim().toLowerCase(java.util.Locale.ROOT);
    try {
      if (t.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
      }
      long n = Long.parseLong(t.substring(0, t.length() - 1));
      return switch (t.charAt(t.length() - 1)) {
        case 's' -> Duration.ofSeconds(n);
        case 'm' -> Duration.ofMinutes(n);
        case 'h' -> Duration.ofHours(n);
        default -> throw new NumberFormatException();
      };
    } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
      throw new CommandLine.TypeConversionException("not a duration (use e.g. 75s, 5m, 1h): " + s);
    }
  }

  public static void main(String[] args) {
    // Netty's leak detector samples buffer allocations and records stack traces: a cost for
    // tests, not for a running server. Off unless the operator asks for it (before any buffer exists).
    if (System.getProperty("io.netty.leakDetection.level") == null) {
      System.setProperty("io.netty.leakDetection.level", "disabled");
    }
    System.exit(new CommandLine(new ServerCommand()).execute(args));
  }
}
