package io.listwatch.server;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.server.authn.AuthenticationConfig;
import io.listwatch.server.authn.Authenticator;
import io.listwatch.server.authn.Impersonation;
import io.listwatch.server.authz.AuthorizationMode;
import io.listwatch.server.authn.X509Authenticator;
import io.listwatch.server.authz.Authorizer;
import io.listwatch.apiserver.cacher.Cacher;
import io.listwatch.apiserver.cacher.CacherConfig;
import io.listwatch.server.filters.HandlerChain;
import io.listwatch.server.filters.MaxInFlightLimit;
import io.listwatch.server.filters.WatchLimit;
import io.listwatch.server.http.ConnectionOptions;
import io.listwatch.server.http.HttpServerInitializer;
import io.listwatch.server.rbac.Rbac;
import io.listwatch.server.http.SecureServerInitializer;
import io.listwatch.server.metrics.ServerMetrics;
import io.listwatch.apiserver.request.ApiResponse;
import io.netty.channel.socket.nio.NioChannelOption;
import java.time.Duration;
import jdk.net.ExtendedSocketOptions;
import io.listwatch.apiserver.request.ConnectionInfo;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.GenericApiServer;
import io.listwatch.apiserver.registry.ResourceRegistry;
import io.listwatch.apiserver.rest.ApiRoutes;
import io.listwatch.server.tls.CertifiedKey;
import io.listwatch.server.tls.Kubeconfig;
import io.listwatch.server.tls.ServerSslContexts;
import io.listwatch.server.tls.TlsConfig;
import io.listwatch.server.tls.TlsMaterial;
import io.listwatch.storage.Storage;
import io.listwatch.storage.etcd.EtcdStorage;
import io.listwatch.storage.rocksdb.RocksDbStorage;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listwatch API server, embeddable: a Java program or a test starts it in-process.
 *
 * <pre>{@code
 * try (ApiServer server = ApiServer.builder().build().start()) {
 *   String url = server.url();   // http://127.0.0.1:<free port>
 * }
 * }</pre>
 *
 * <p>With {@link Builder#tls()} the main listener serves HTTPS (HTTP/2 and HTTP/1.1 by ALPN,
 * client certificates as credentials) with certificates kept in the data directory, and
 * writes {@code <data-dir>/kubeconfig.yaml} for the admin; a plain-HTTP listener on 127.0.0.1,
 * where every request acts as the cluster admin, is added only on request
 * ({@link Builder#insecurePort(int)}). Tests act as any user with
 * {@link #clientSslContext(String, String...)}.
 *
 * <p>Lifecycle: {@link #start()} opens the store, fills every resource's watch cache,
 * creates the namespaces kube always has and the default RBAC roles, and binds the listener.
 * {@link #close()} ends every watch normally, stops the listener and closes the store (acknowledged writes are
 * durable). Thread-safe; start and close are called once each.
 */
public final class ApiServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);
  private static final String KUBECONFIG = "kubeconfig.yaml";

  private final Builder config;
  /** The API machinery this server fronts: caches, routes, custom resources. */
  private GenericApiServer core;
  private ResourceRegistry registry;
  private Path dataDir;
  private boolean deleteDataDir;
  private Storage storage;
  private EventLoopGroup boss;
  private EventLoopGroup workers;
  /** Accepted connections, closed by {@link #close()}; channels leave the group when they close. */
  private final ChannelGroup connections = new DefaultChannelGroup("api-connections", GlobalEventExecutor.INSTANCE);
  private Channel listener;
  /** The plain-HTTP listener beside the TLS one, when asked for. */
  private Channel insecureListener;
  private TlsMaterial tls;
  private SecureServerInitializer secure;
  private volatile ApiRoutes routes;
  private ServerMetrics metrics;
  private ConnectionOptions connectionOptions;
  private io.listwatch.server.audit.AuditBackend audit = io.listwatch.server.audit.AuditBackend.NONE;
  /** TCP keepalive idle time and probe interval on accepted connections (kube's period). */
  private static final int KEEPALIVE_SECONDS = 180;
  private Rbac rbac;
  private io.listwatch.server.controllers.ControllerLeadership leadership;
  private io.listwatch.server.controllers.GarbageCollector garbageCollector;
  private io.listwatch.server.controllers.NamespaceController namespaceController;
  private io.listwatch.server.controllers.RootCaCertPublisher rootCaCertPublisher;
  private io.listwatch.server.controllers.certificates.CertificateSigningController csrSigning;
  private io.listwatch.server.controllers.certificates.CertificateSigningRequestCleaner csrCleaner;
  private io.listwatch.server.controllers.EventTtl eventTtl;
  private io.listwatch.server.controllers.ValidatingAdmissionPolicyStatusController policyStatus;
  /** The request filters every listener shares (authentication, limits, authorization). */
  private HandlerChain chain;
  /** API Priority and Fairness, when on; its status writer stops with the server. */
  private io.listwatch.apiserver.flowcontrol.FlowControl flowControl;

  private ApiServer(Builder config) {
    this.config = config;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Starts the server; returns this once it accepts requests. */
  public ApiServer start() {
    try {
      dataDir = config.dataDir;
      if (dataDir == null) {
        dataDir = Files.createTempDirectory("listwatch-server-");
        deleteDataDir = true;
      }
      storage = config.storage != null ? config.storage
          : config.etcdServers.isEmpty() ? RocksDbStorage.builder(dataDir).open() : openEtcd();
      metrics = new ServerMetrics(info -> routes != null && routes.resources().serves(info), config.clock);
      core = GenericApiServer.builder(storage).cacherConfig(config.cacherConfig).clock(config.clock)
          .serviceIpRange(config.serviceClusterIpRange).nodePortRange(config.serviceNodePortRange)
          .wrapRequests(metrics::instrument).build();
      registry = core.registry();
      metrics.registerWatchCaches(core.cachers().values());
      routes = core.routes();
      routes.registerNonResource("/metrics",
          () -> new ApiResponse(200, new ApiResponse.Text(metrics.exposition(), ServerMetrics.CONTENT_TYPE)));
      if (config.ui) {
        io.listwatch.server.ui.UiHandler.install(routes);
      }
      // kube's order: client certificates, then bearer tokens (static, then service accounts)
      List<Authenticator> authenticators = new java.util.ArrayList<>(List.of(new X509Authenticator()));
      authenticators.addAll(config.authentication.install(dataDir, registry, routes,
          cacher("", "serviceaccounts"), config.clock));
      rbac = Rbac.install(config.authorizationMode, registry, routes, core.cachers());
      createInitialNamespaces();
      rbac.start();
      startControllers();
      Authorizer authorizer = config.authorizer != null ? config.authorizer : rbac.authorizer();
      routes.resources().authorizer(io.listwatch.server.authz.AdmissionAuthorization.of(authorizer));
      routes.resources().featureGates(config.featureGates);
      chain = HandlerChain.builder()
          .flowControl(startFlowControl())
          .authenticators(authenticators)
          .anonymousAuth(config.authentication.anonymousAuth())
          .impersonation(new Impersonation(authorizer))
          .authorizer(authorizer)
          .maxInFlight(new MaxInFlightLimit(config.maxRequestsInflight, config.maxMutatingRequestsInflight))
          .watchLimit(new WatchLimit(config.maxWatchesPerUser))
          .build();
      metrics.registerInFlight(chain.inFlightLimit());
      if (config.auditLog != null) {
        audit = io.listwatch.server.audit.AuditLogBackend.open(config.auditLog.toString());
      }
      connectionOptions = new ConnectionOptions(config.idleConnectionTimeout, metrics.requests(), config.clock, audit,
          config.featureGates.apiResponseCompression());
      metrics.registerConnections(connectionOptions::readingPaused);
      boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
      workers = new MultiThreadIoEventLoopGroup(config.ioThreads, NioIoHandler.newFactory());
      HttpServerInitializer plain = new HttpServerInitializer(routes, chain, ConnectionInfo.Listener.INSECURE,
          connectionOptions);
      if (config.tls == null) {
        listener = bind(config.bindAddress, config.port, plain);
      } else {
        tls = TlsMaterial.load(dataDir, config.tls, List.of(config.bindAddress));
        secure = new SecureServerInitializer(ServerSslContexts.build(tls, config.tls.provider()),
            config.tls.handshakeTimeout(), routes, chain, connectionOptions);
        listener = bind(config.bindAddress, config.port, secure);
        rootCaCertPublisher = new io.listwatch.server.controllers.RootCaCertPublisher(core.store("", "v1", "namespaces"),
            core.store("", "v1", "configmaps"), tls.servingCaPem(), leadership, config.clock);
        rootCaCertPublisher.start();
        if (tls.clientCa().isPresent()) {
          csrSigning = new io.listwatch.server.controllers.certificates.CertificateSigningController(
              core.store("certificates.k8s.io", "v1", "certificatesigningrequests"),
              tls.clientCa().get().certifiedKey(), leadership, config.clock);
          csrSigning.start();
        }
        LOG.info("TLS by {}; certificates in {}", ServerSslContexts.describe(config.tls.provider()), tls.directory());
        if (config.insecurePort >= 0) {
          insecureListener = bind("127.0.0.1", config.insecurePort, plain);
          LOG.warn("plain HTTP on {}: every request there acts as the cluster admin (system:masters)",
              insecureUrl().get());
        }
        if (tls.admin().isPresent()) {
          Kubeconfig.write(dataDir.resolve(KUBECONFIG), url(), tls.servingCa(), TlsMaterial.ADMIN_USER,
              tls.admin().get());
        }
      }
      advertiseAddress(config.bindAddress).ifPresentOrElse(ip -> core.startKubernetesService(ip, port(),
          config.endpointReconcilerType.equals("lease")),
          () -> LOG.warn("no address to advertise (bind address {} and no other interface): no default/kubernetes "
              + "Service endpoints", config.bindAddress));
      LOG.info("listwatch API server listening on {} ({} in {})", url(),
          config.etcdServers.isEmpty() ? "data" : "objects in etcd at " + config.etcdServers + ", certificates",
          dataDir);
      return this;
    } catch (java.io.IOException | RuntimeException e) {
      close();
      throw e instanceof RuntimeException r ? r : new IllegalStateException("cannot start the server", e);
    }
  }

  private Channel bind(String address, int port, ChannelHandler pipeline) {
    return new ServerBootstrap()
        .group(boss, workers)
        .channel(NioServerSocketChannel.class)
        .option(ChannelOption.SO_BACKLOG, 1024)
        .childOption(ChannelOption.TCP_NODELAY, true)
        // half-open connections (a peer gone without a FIN) are found by TCP keepalive, as kube's 3 min
        .childOption(ChannelOption.SO_KEEPALIVE, true)
        .childOption(NioChannelOption.of(ExtendedSocketOptions.TCP_KEEPIDLE), KEEPALIVE_SECONDS)
        .childOption(NioChannelOption.of(ExtendedSocketOptions.TCP_KEEPINTERVAL), KEEPALIVE_SECONDS)
        .childHandler(trackingConnections(pipeline))
        .bind(new InetSocketAddress(address, port))
        .syncUninterruptibly()
        .channel();
  }

  /** Adds every accepted connection to {@link #connections}, then runs {@code pipeline}. */
  private ChannelInitializer<SocketChannel> trackingConnections(ChannelHandler pipeline) {
    return new ChannelInitializer<>() {
      @Override
      protected void initChannel(SocketChannel ch) {
        connections.add(ch);
        ch.pipeline().addLast(pipeline);
      }
    };
  }

  /**
   * Creates the namespaces kube always has, each with its {@code default} service account (as
   * the core's service accounts controller does for every namespace later), unless they exist.
   */
  private void createInitialNamespaces() {
    core.createInitialNamespaces();
  }

  private Storage openEtcd() {
    EtcdStorage.Builder etcd = EtcdStorage.builder(config.etcdServers).namespace(config.etcdPrefix)
        .compactionInterval(config.etcdCompactionInterval);
    if (config.etcdCaFile != null) {
      etcd.tls(config.etcdCaFile, config.etcdCertFile, config.etcdKeyFile);
    }
    return etcd.open();
  }

  /**
   * The garbage collector and the namespace controller, over the stores of every stored
   * resource, the CertificateSigningRequest cleaner, and the core's (the service accounts
   * controller), all while this server leads. (The CSR signer needs the client CA: it starts
   * with TLS.)
   */
  /**
   * API Priority and Fairness when it is on (kube's default): its configuration follows the
   * stored FlowSchemas and PriorityLevelConfigurations; null when it is off.
   */
  private io.listwatch.apiserver.flowcontrol.FlowControl startFlowControl() {
    int seats = config.maxRequestsInflight + config.maxMutatingRequestsInflight;
    if (!config.enablePriorityAndFairness || seats == 0
        || registry.find("flowcontrol.apiserver.k8s.io", "v1", "flowschemas").isEmpty()) {
      return null;
    }
    var holder = new java.util.concurrent.atomic.AtomicReference<io.listwatch.apiserver.flowcontrol.FlowControl>();
    var fc = new io.listwatch.apiserver.flowcontrol.FlowControl(seats,
        io.listwatch.apiserver.flowcontrol.FlowControl.DEFAULT_QUEUE_WAIT_LIMIT, config.clock, core::objectCount,
        metrics.registerFlowControl(holder::get));
    holder.set(fc);
    fc.start(core.store("flowcontrol.apiserver.k8s.io", "v1", "flowschemas"),
        core.store("flowcontrol.apiserver.k8s.io", "v1", "prioritylevelconfigurations"));
    flowControl = fc;
    return fc;
  }

  /**
   * The ValidatingAdmissionPolicy type checker over the kinds served now: resources mapped to
   * kinds by the registry, schemas as {@code /openapi/v3} publishes them.
   */
  private io.listwatch.apiserver.apiextensions.cel.TypeChecker policyTypeChecker() {
    var schemas = new io.listwatch.apiserver.openapi.OpenApiSchemaResolver(() -> routes.resources().registry(),
        routes.schemas());
    return new io.listwatch.apiserver.apiextensions.cel.TypeChecker(
        (group, version, resource) -> routes.resources().registry().find(group, version, resource)
            .map(def -> new io.listwatch.apiserver.apiextensions.cel.TypeChecker.GroupVersionKind(def.group(),
                def.version(), def.kind()))
            .stream().toList(),
        gvk -> schemas.resolveSchema(gvk.group(), gvk.version(), gvk.kind()));
  }

  private void startControllers() {
    List<io.listwatch.apiserver.rest.ResourceStore> stores = core.cachers().keySet().stream().map(routes.resources()::store)
        .toList();
    leadership = leaderElects()
        ? io.listwatch.server.controllers.ControllerLeadership.elected(
            routes.resources().store(registry.find("coordination.k8s.io", "v1", "leases").orElseThrow()),
            config.leaderElectIdentity, config.clock, config.leaderElectTiming)
        : io.listwatch.server.controllers.ControllerLeadership.always();
    if (config.garbageCollector) {
      garbageCollector = new io.listwatch.server.controllers.GarbageCollector(stores, leadership);
      garbageCollector.start();
    }
    namespaceController = new io.listwatch.server.controllers.NamespaceController(
        routes.resources().store(registry.find("", "v1", "namespaces").orElseThrow()), routes.resources()::stores, config.clock, leadership);
    namespaceController.start();
    csrCleaner = new io.listwatch.server.controllers.certificates.CertificateSigningRequestCleaner(
        core.store("certificates.k8s.io", "v1", "certificatesigningrequests"), leadership, config.clock);
    csrCleaner.start();
    eventTtl = new io.listwatch.server.controllers.EventTtl(List.of(core.store("", "v1", "events"),
        core.store("events.k8s.io", "v1", "events")), config.eventTtl, leadership, config.clock);
    eventTtl.start();
    policyStatus = new io.listwatch.server.controllers.ValidatingAdmissionPolicyStatusController(
        core.store("admissionregistration.k8s.io", "v1", "validatingadmissionpolicies"), policyTypeChecker(),
        leadership, config.clock);
    policyStatus.start();
    leadership.start();
    io.listwatch.server.controllers.GarbageCollector gc = garbageCollector;
    io.listwatch.server.controllers.NamespaceController nc = namespaceController;
    core.start(List.of(new io.listwatch.apiserver.apiextensions.CustomResourceServing.Listener() {
      @Override
      public void served(io.listwatch.apiserver.rest.ResourceStore store) {
        if (gc != null) {
          gc.serve(store);
        }
        nc.serve(store);
      }

      @Override
      public void unserved(io.listwatch.apiserver.rest.ResourceStore store) {
        if (gc != null) {
          gc.unserve(store);
        }
      }
    }), leadership);
  }

  /**
   * The address the {@code default/kubernetes} endpoints name for this server (kube's
   * {@code --advertise-address} default, {@code ResolveBindAddress}): the bind address when it
   * is a specific address other than loopback, else the first IPv4 address of an interface that
   * is up and not loopback; empty when there is none.
   */
  static Optional<String> advertiseAddress(String bindAddress) {
    byte[] literal = io.listwatch.apiserver.validation.IpAddresses.parse(bindAddress);
    if (literal != null) { // else a host name: choose an interface's address as for the wildcard
      try {
        java.net.InetAddress bind = java.net.InetAddress.getByAddress(literal);
        if (!bind.isAnyLocalAddress() && !bind.isLoopbackAddress() && !bind.isLinkLocalAddress()) {
          return Optional.of(bind.getHostAddress());
        }
      } catch (java.net.UnknownHostException impossible) {
        throw new IllegalStateException(impossible);
      }
    }
    try {
      for (var nic : java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces())) {
        if (!nic.isUp() || nic.isLoopback()) {
          continue;
        }
        for (var a : java.util.Collections.list(nic.getInetAddresses())) {
          if (a instanceof java.net.Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
            return Optional.of(a.getHostAddress());
          }
        }
      }
    } catch (java.net.SocketException e) {
      LOG.warn("cannot list the network interfaces: {}", e.toString());
    }
    return Optional.empty();
  }

  /** Whether the controllers are leader-elected: as the builder says, else when on etcd. */
  private boolean leaderElects() {
    return config.leaderElect != null ? config.leaderElect : !config.etcdServers.isEmpty();
  }

  /**
   * Whether this server's garbage collector, namespace controller and service accounts
   * controller act now: always for a server alone on its store; for servers sharing etcd, only
   * for the one holding the Lease {@code kube-system/listwatch-controller-manager}.
   */
  public boolean leadsControllers() {
    return leadership != null && leadership.isLeading();
  }



  /** The main listener's base URL, e.g. {@code http://127.0.0.1:8080} or, with TLS, {@code https://127.0.0.1:6443}. */
  public String url() {
    return url(tls != null ? "https" : "http", listener);
  }

  /** The plain-HTTP listener beside the TLS one, when the builder asked for it. */
  public Optional<String> insecureUrl() {
    return Optional.ofNullable(insecureListener).map(l -> url("http", l));
  }

  private static String url(String scheme, Channel listener) {
    InetSocketAddress a = (InetSocketAddress) listener.localAddress();
    String host = a.getAddress().isAnyLocalAddress() ? "127.0.0.1" : a.getHostString();
    return scheme + "://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
  }

  /**
   * TLS mode: {@code <data-dir>/kubeconfig.yaml}, the admin's kubeconfig, written at every
   * start. Not there when client certificates come from the operator's CA.
   */
  public Path kubeconfig() {
    requireTls();
    if (tls.admin().isEmpty()) {
      throw new IllegalStateException("no kubeconfig: client certificates are signed by the operator's CA");
    }
    return dataDir.resolve(KUBECONFIG);
  }

  /** TLS mode: the certificate clients trust to verify this server (the generated CA, or the operator's). */
  public X509Certificate caCertificate() {
    requireTls();
    return tls.servingCa();
  }

  /**
   * TLS mode: a new client certificate for {@code user} in {@code groups}, signed by the
   * server's client CA, so a test or tool can act as any user. Not available with
   * an operator's {@code --client-ca-file} (the server does not hold that CA's key).
   */
  public CertifiedKey issueClientCertificate(String user, String... groups) {
    requireTls();
    return tls.clientCa().orElseThrow(() -> new IllegalStateException("the client CA is the operator's"))
        .issueClient(user, List.of(groups));
  }

  /** TLS mode: a client {@link javax.net.ssl.SSLContext} acting as {@code user} in {@code groups}, trusting this server. */
  public javax.net.ssl.SSLContext clientSslContext(String user, String... groups) {
    return issueClientCertificate(user, groups).clientSslContext(caCertificate());
  }

  /**
   * TLS mode: a client {@link javax.net.ssl.SSLContext} that trusts this server and presents no
   * certificate (for clients that authenticate with a bearer token, or not at all).
   */
  public javax.net.ssl.SSLContext trustingSslContext() {
    try {
      java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      trust.setCertificateEntry("ca", caCertificate());
      javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance(
          javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);
      javax.net.ssl.SSLContext ssl = javax.net.ssl.SSLContext.getInstance("TLS");
      ssl.init(null, tmf.getTrustManagers(), null);
      return ssl;
    } catch (java.io.IOException | java.security.GeneralSecurityException e) {
      throw new IllegalStateException("cannot build a TLS context trusting the server's CA", e);
    }
  }

  /** TLS mode: how many connections negotiated each protocol by ALPN ({@code h2}, {@code http/1.1}), for tests. */
  public Map<String, Long> negotiatedProtocols() {
    requireTls();
    return secure.negotiatedProtocols();
  }

  private void requireTls() {
    if (tls == null) {
      throw new IllegalStateException("the server was not started with TLS (ApiServer.builder().tls())");
    }
  }

  public int port() {
    return ((InetSocketAddress) listener.localAddress()).getPort();
  }

  /** The watch cache of a resource, for tests and benchmarks. */
  public Cacher cacher(String group, String plural) {
    return core.cacher(group, plural);
  }

  /**
   * The request paths (with query) of the watches this server serves over WebSocket right
   * now, one per connection; for tests and diagnostics.
   */
  public List<String> webSocketWatches() {
    return connections.stream().map(HttpServerInitializer::webSocketWatch).flatMap(java.util.Optional::stream)
        .toList();
  }

  public Path dataDir() {
    return dataDir;
  }

  /** The routes, for in-process callers (registering handlers, tests serving them on another listener). */
  public ApiRoutes routes() {
    return routes;
  }

  /** What every connection of the listener shares (idle timeout, request metrics). */
  public ConnectionOptions connectionOptions() {
    return connectionOptions;
  }

  /** Ends watches, stops listening, closes the store. Idempotent. */
  @Override
  public synchronized void close() {
    if (listener != null) {
      listener.close().syncUninterruptibly();
      listener = null;
    }
    if (insecureListener != null) {
      insecureListener.close().syncUninterruptibly();
      insecureListener = null;
    }
    // end every watch and let its last chunk reach the socket before the event loops stop
    // (a stopping event loop closes its connections before running queued writes)
    try {
      if (core != null) {
        core.endWatches().get(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      LOG.warn("some watches did not end within 5 s; closing their connections");
    }
    // Close every connection before the event loops stop: a request that arrived meanwhile
    // must fail at the client (connection closed), not wait on a socket nobody reads.
    long closeWaitMs = HttpServerInitializer.GRACEFUL_SHUTDOWN_MILLIS + 1_000;
    if (!connections.close().awaitUninterruptibly(closeWaitMs, TimeUnit.MILLISECONDS)) {
      LOG.warn("some connections did not close within {} ms; stopping the event loops anyway", closeWaitMs);
    }
    if (leadership != null) {
      leadership.close(); // stops this server's controllers, then hands the Lease on
    }
    if (rbac != null) {
      rbac.close();
    }
    if (flowControl != null) {
      flowControl.close();
    }
    if (garbageCollector != null) {
      garbageCollector.close();
      namespaceController.close();
    }
    if (rootCaCertPublisher != null) {
      rootCaCertPublisher.close();
    }
    if (csrSigning != null) {
      csrSigning.close();
    }
    if (policyStatus != null) {
      policyStatus.close();
    }
    if (eventTtl != null) {
      eventTtl.close();
    }
    if (csrCleaner != null) {
      csrCleaner.close();
    }
    if (core != null) {
      core.close();
    }
    if (workers != null) {
      workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
      boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
      workers = null;
    }
    audit.close(); // after the event loops: the last requests and watches have been logged
    if (storage != null) {
      if (storage != config.storage) { // a store the builder was given is its owner's to close
        storage.close();
      }
      storage = null;
    }
    if (deleteDataDir && dataDir != null) {
      deleteRecursively(dataDir);
      deleteDataDir = false;
    }
  }

  private static void deleteRecursively(Path dir) {
    try (var paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (java.io.IOException e) {
      LOG.warn("cannot delete {}", dir, e);
    }
  }

  /** Configures an {@link ApiServer}. */
  public static final class Builder {
    private Path dataDir;
    private List<java.net.URI> etcdServers = List.of();
    private Storage storage;
    private String etcdPrefix = "";
    private Duration etcdCompactionInterval = EtcdStorage.DEFAULT_COMPACTION_INTERVAL;
    private Path etcdCaFile;
    private Path etcdCertFile;
    private Path etcdKeyFile;
    /** null: elect when on etcd. */
    private Boolean leaderElect;
    private io.listwatch.server.controllers.ControllerLeadership.Timing leaderElectTiming =
        io.listwatch.server.controllers.ControllerLeadership.Timing.DEFAULTS;
    private String leaderElectIdentity = io.listwatch.api.leaderelection.LeaderElector.defaultIdentity();
    private String bindAddress = "127.0.0.1";
    private String serviceClusterIpRange = io.listwatch.apiserver.allocation.ServiceIpRange.DEFAULT;
    private String serviceNodePortRange = io.listwatch.apiserver.allocation.NodePortRange.DEFAULT;
    private String endpointReconcilerType = "lease";
    private int port;
    /**
     * One event loop per CPU the JVM may use: on a server given one CPU two loops only took turns
     * on it a scheduler tick at a time, and a GET read by the one waiting waited for the tick
     * (docs/reliability.md, "Where the node's GET waits under the flood").
     */
    private int ioThreads = Runtime.getRuntime().availableProcessors();
    private CacherConfig cacherConfig = CacherConfig.DEFAULTS;
    private AuthenticationConfig authentication = AuthenticationConfig.defaults();
    /** Overrides the authorizer {@link #authorizationMode} chooses; null: none given. */
    private Authorizer authorizer;
    private AuthorizationMode authorizationMode = AuthorizationMode.RBAC;
    private TlsConfig tls;
    private int insecurePort = -1;
    private boolean ui;
    private int maxRequestsInflight = MaxInFlightLimit.DEFAULT_MAX_REQUESTS_INFLIGHT;
    private int maxMutatingRequestsInflight = MaxInFlightLimit.DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT;
    private int maxWatchesPerUser = WatchLimit.DEFAULT_MAX_WATCHES_PER_USER;
    private Duration eventTtl = io.listwatch.server.controllers.EventTtl.DEFAULT_TTL;
    private boolean enablePriorityAndFairness = true;
    private boolean garbageCollector = true;
    private io.listwatch.apiserver.features.FeatureGates featureGates = io.listwatch.apiserver.features.FeatureGates.DEFAULTS;
    private Duration idleConnectionTimeout = ConnectionOptions.DEFAULT_IDLE_TIMEOUT;
    private Clock clock = Clock.system();
    private Path auditLog;

    private Builder() {
    }

    /** Token files, service-account keys and issuer, anonymous access (default: {@link AuthenticationConfig#defaults()}). */
    public Builder authentication(AuthenticationConfig authentication) {
      this.authentication = Objects.requireNonNull(authentication);
      return this;
    }

    /** Decides what authenticated users may do, impersonation included (default: the one {@link #authorizationMode} chooses); for tests. */
    public Builder authorizer(Authorizer authorizer) {
      this.authorizer = Objects.requireNonNull(authorizer);
      return this;
    }

    /** {@code --authorization-mode}: RBAC (default) or AlwaysAllow. */
    public Builder authorizationMode(AuthorizationMode mode) {
      this.authorizationMode = Objects.requireNonNull(mode);
      return this;
    }

    /** Serve HTTPS on the main listener with generated certificates (see {@link TlsConfig#DEFAULTS}). */
    public Builder tls() {
      return tls(TlsConfig.DEFAULTS);
    }

    /** Serve HTTPS on the main listener as {@code tls} says. */
    public Builder tls(TlsConfig tls) {
      this.tls = Objects.requireNonNull(tls);
      return this;
    }

    /**
     * With TLS: also serve plain HTTP on 127.0.0.1 at this port (0: a free port), where every
     * request acts as the cluster admin. Default: no plain listener.
     */
    public Builder insecurePort(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port out of range: " + port);
      }
      this.insecurePort = port;
      return this;
    }

    /**
     * {@code --max-requests-inflight} and {@code --max-mutating-requests-inflight} (kube's
     * defaults 400 and 200; 0 = unlimited). See {@link MaxInFlightLimit}.
     */
    public Builder maxInFlight(int readOnly, int mutating) {
      if (readOnly < 0 || mutating < 0) {
        throw new IllegalArgumentException("in-flight limits must be >= 0 (0 = unlimited)");
      }
      this.maxRequestsInflight = readOnly;
      this.maxMutatingRequestsInflight = mutating;
      return this;
    }

    /**
     * {@code --enable-priority-and-fairness} (default true): API Priority and Fairness instead
     * of the max-in-flight limit, its seats the sum of the two in-flight limits (both 0: off).
     */
    public Builder enablePriorityAndFairness(boolean on) {
      this.enablePriorityAndFairness = on;
      return this;
    }

    /**
     * kube-controller-manager's {@code --enable-garbage-collector} (default true): the server
     * follows ownerReferences (background, foreground and orphan deletion, dependents whose owners
     * are gone). Off, as kube-apiserver alone: nothing is collected, and an object deleted in the
     * foreground or orphaning keeps its finalizer until a client removes it.
     */
    public Builder garbageCollector(boolean on) {
      this.garbageCollector = on;
      return this;
    }

    /** {@code --feature-gates} (default: kube's, every gate this server knows off). */
    public Builder featureGates(io.listwatch.apiserver.features.FeatureGates gates) {
      this.featureGates = Objects.requireNonNull(gates);
      return this;
    }

    /**
     * kube's {@code --event-ttl}: Events are deleted this long after their last write (default
     * 1 hour).
     */
    public Builder eventTtl(Duration ttl) {
      if (ttl.isNegative() || ttl.isZero()) {
        throw new IllegalArgumentException("eventTtl must be positive");
      }
      this.eventTtl = ttl;
      return this;
    }

    /** {@code --max-watches-per-user} (default 1000; 0 = unlimited). See {@link WatchLimit}. */
    public Builder maxWatchesPerUser(int max) {
      if (max < 0) {
        throw new IllegalArgumentException("maxWatchesPerUser must be >= 0 (0 = unlimited)");
      }
      this.maxWatchesPerUser = max;
      return this;
    }

    /** How long a connection may sit with nothing to do before it is closed (default 60 s). */
    public Builder idleConnectionTimeout(Duration timeout) {
      if (timeout.isZero() || timeout.isNegative()) {
        throw new IllegalArgumentException("the idle connection timeout must be positive");
      }
      this.idleConnectionTimeout = timeout;
      return this;
    }

    /**
     * Stores objects in the etcd cluster at these client URLs (http://host:port) instead of the
     * embedded store, so that several servers can serve one cluster (kube's
     * {@code --etcd-servers}); the data directory then holds only the TLS material and keys.
     */
    public Builder etcdServers(List<java.net.URI> endpoints) {
      this.etcdServers = List.copyOf(endpoints);
      return this;
    }

    /**
     * Serves the objects of {@code storage} (any {@link Storage}: an in-memory one for tests, a
     * store opened by the caller) instead of opening the embedded store or etcd. The server does
     * not close it. The data directory still holds the TLS material.
     */
    public Builder storage(Storage storage) {
      this.storage = java.util.Objects.requireNonNull(storage, "storage");
      return this;
    }

    /**
     * Whether the controllers this server runs for kube-controller-manager (garbage collector,
     * namespace controller, service accounts controller) act only while this server holds the
     * Lease {@code kube-system/listwatch-controller-manager} (kube-controller-manager's
     * {@code --leader-elect}). Default: yes on etcd, where several servers may share the store;
     * no on the embedded store.
     */
    public Builder leaderElect(boolean elect) {
      this.leaderElect = elect;
      return this;
    }

    /** The election's lease duration, renew deadline and retry period (default 15 s, 10 s, 2 s). */
    public Builder leaderElectTiming(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
      this.leaderElectTiming = new io.listwatch.server.controllers.ControllerLeadership.Timing(
          leaseDuration, renewDeadline, retryPeriod);
      return this;
    }

    /** This server's identity in the election (default: host name plus a unique suffix). */
    public Builder leaderElectIdentity(String identity) {
      if (identity == null || identity.isEmpty()) {
        throw new IllegalArgumentException("the leader election identity must not be empty");
      }
      this.leaderElectIdentity = identity;
      return this;
    }

    /** kube's {@code --service-cluster-ip-range}: the Services' cluster IPs (default {@code 10.96.0.0/12}). */
    public Builder serviceClusterIpRange(String cidr) {
      io.listwatch.apiserver.allocation.ServiceIpRange.parse(cidr); // refused here if not a range
      this.serviceClusterIpRange = cidr;
      return this;
    }

    /** kube's {@code --service-node-port-range}: the Services' node ports (default {@code 30000-32767}). */
    public Builder serviceNodePortRange(String range) {
      io.listwatch.apiserver.allocation.NodePortRange.parse(range);
      this.serviceNodePortRange = range;
      return this;
    }

    /**
     * kube's {@code --endpoint-reconciler-type}: {@code lease} (the default: the
     * {@code default/kubernetes} endpoints name every live server, each holding a lease) or
     * {@code none} (the Service only, no endpoints, nothing written at shutdown).
     */
    public Builder endpointReconcilerType(String type) {
      if (!type.equals("lease") && !type.equals("none")) {
        throw new IllegalArgumentException("--endpoint-reconciler-type must be lease or none, not " + type);
      }
      this.endpointReconcilerType = type;
      return this;
    }

    /** A prefix before every key this server stores in etcd, so several clusters can share one etcd. */
    public Builder etcdPrefix(String prefix) {
      this.etcdPrefix = Objects.requireNonNull(prefix);
      return this;
    }

    /**
     * TLS towards etcd (https:// servers), as kube's {@code --etcd-cafile}, {@code --etcd-certfile}
     * and {@code --etcd-keyfile}: the CA that signed etcd's serving certificate, and this server's
     * client certificate and key (PEM; both null when etcd does not ask for one).
     */
    public Builder etcdTls(Path caFile, Path certFile, Path keyFile) {
      if ((certFile == null) != (keyFile == null)) {
        throw new IllegalArgumentException("--etcd-certfile and --etcd-keyfile go together");
      }
      this.etcdCaFile = Objects.requireNonNull(caFile, "caFile");
      this.etcdCertFile = certFile;
      this.etcdKeyFile = keyFile;
      return this;
    }

    /** How often this server compacts etcd's history (kube's {@code --etcd-compaction-interval}); 0: never. */
    public Builder etcdCompactionInterval(Duration interval) {
      this.etcdCompactionInterval = Objects.requireNonNull(interval);
      return this;
    }

    /** Where the embedded store keeps its data; default: a temporary directory deleted on close. */
    public Builder dataDir(Path dir) {
      this.dataDir = Objects.requireNonNull(dir);
      return this;
    }

    /** The address to listen on (default 127.0.0.1). */
    public Builder bindAddress(String address) {
      this.bindAddress = Objects.requireNonNull(address);
      return this;
    }

    /** The port (default 0: a free port). */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port out of range: " + port);
      }
      this.port = port;
      return this;
    }

    public Builder ioThreads(int threads) {
      if (threads < 1) {
        throw new IllegalArgumentException("ioThreads must be >= 1");
      }
      this.ioThreads = threads;
      return this;
    }

    public Builder cacherConfig(CacherConfig config) {
      this.cacherConfig = Objects.requireNonNull(config);
      return this;
    }

    /**
     * The clock the server reads time from: metadata timestamps, watch deadlines, the watch
     * cache's timing, idle-connection timeouts and the issue and expiry times of
     * service-account tokens (default: the system clock; request latency metrics always use
     * the system's monotonic time). Tests pass a {@code FakeClock}.
     */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock);
      return this;
    }

    /**
     * {@code --audit-log-path}: log every request to this file as kube's audit events
     * ({@code audit.k8s.io/v1}, level Metadata, one JSON line each; see
     * {@link io.listwatch.server.audit.AuditLogBackend}), appending; {@code -} means standard
     * output. Default: no audit log.
     */
    public Builder auditLog(Path path) {
      this.auditLog = Objects.requireNonNull(path);
      return this;
    }

    /** Serve the live page at {@code /ui/} (see {@link io.listwatch.server.ui.UiHandler}); default: off. */
    public Builder ui(boolean on) {
      this.ui = on;
      return this;
    }

    public ApiServer build() {
      return new ApiServer(this);
    }
  }
}
