package io.listwatch.bench.server;

import io.listwatch.server.ApiServer;
import io.listwatch.server.tls.TlsConfig;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * The API server of {@code bench server-fanout}, the main class of its child JVM: an
 * {@link ApiServer} with its builder defaults on the given data directory, storing in the
 * embedded store or, with {@code etcd=<url>}, in that etcd (several of these servers may share
 * one, as replicas behind a load balancer do); plain HTTP only, or HTTPS (certificates
 * generated into {@code <data-dir>/tls/}, or with {@code tls-of=DIR} the serving certificate
 * and client CA another such server generated into {@code DIR/tls/}, as replicas share them)
 * with a plain-HTTP listener beside it for setting up. Prints {@code listening on <url>} for
 * each listener, then runs until SIGTERM, when it closes the server.
 *
 * <p>Arguments: {@code DATA_DIR [etcd=URL] [tls [default|jdk|openssl] [tls-of=DIR]]}. Used
 * instead of {@code ServerCommand} so the benchmark depends on the embeddable server's
 * builder, not on the command line's flags; the leak detector is turned off by the JVM option
 * {@link io.listwatch.bench.ServerJvm} always passes, as {@code ServerCommand} does.
 */
public final class FanOutServer {

  /** The argument's prefix before etcd's client URL. */
  static final String ETCD = "etcd=";
  /** The argument's prefix before the data directory of the server whose TLS material to share. */
  static final String TLS_OF = "tls-of=";

  private FanOutServer() {
  }

  public static void main(String[] args) throws InterruptedException {
    // no garbage collector, as kube-apiserver alone: the pods name ReplicaSets that are not there
    ApiServer.Builder b = ApiServer.builder().dataDir(Path.of(args[0])).garbageCollector(false);
    TlsConfig tls = null;
    for (String arg : List.of(args).subList(1, args.length)) {
      if (arg.startsWith(ETCD)) {
        b.etcdServers(List.of(URI.create(arg.substring(ETCD.length()))));
      } else if (arg.equals("tls")) {
        tls = TlsConfig.DEFAULTS;
      } else if (arg.startsWith(TLS_OF)) {
        Path dir = Path.of(arg.substring(TLS_OF.length()), "tls");
        tls = tls.withServingCertificate(dir.resolve("server.crt"), dir.resolve("server.key"))
            .withClientCa(dir.resolve("ca.crt"));
      } else {
        tls = tls.withProvider(TlsConfig.Provider.valueOf(arg.toUpperCase(Locale.ROOT)));
      }
    }
    if (tls != null) {
      b.tls(tls).insecurePort(0);
    }
    ApiServer server = b.build().start();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("fanout-server-shutdown").unstarted(() -> {
      server.close();
      stopped.countDown();
    }));
    System.out.println("listening on " + server.url());
    server.insecureUrl().ifPresent(u -> System.out.println("listening on " + u));
    System.out.flush();
    stopped.await();
  }
}
