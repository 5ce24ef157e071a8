package io.listwatch.bench.server;

import io.listwatch.server.ApiServer;
import io.listwatch.server.tls.TlsConfig;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * The API server of {@code bench server-fanout}, the main class of its child JVM: an
 * {@link ApiServer} with its builder defaults on the given data directory, plain HTTP only,
 * or HTTPS (certificates generated into {@code <data-dir>/tls/}) with a plain-HTTP listener
 * beside it for setting up. Prints {@code listening on <url>} for each listener, then runs
 * until SIGTERM, when it closes the server.
 *
 * <p>Arguments: {@code DATA_DIR [tls [default|jdk|openssl]]}. Used instead of
 * {@code ServerCommand} so the benchmark depends on the embeddable server's builder, not on
 * the command line's flags; the leak detector is turned off by the JVM option
 * {@link io.listwatch.bench.ServerJvm} always passes, as {@code ServerCommand} does.
 */
public final class FanOutServer {

  private FanOutServer() {
  }

  public static void main(String[] args) throws InterruptedException {
    ApiServer.Builder b = ApiServer.builder().dataDir(Path.of(args[0]));
    if (args.length > 1 && args[1].equals("tls")) {
      TlsConfig.Provider provider = args.length > 2
          ? TlsConfig.Provider.valueOf(args[2].toUpperCase(Locale.ROOT)) : TlsConfig.Provider.DEFAULT;
      b.tls(TlsConfig.DEFAULTS.withProvider(provider)).insecurePort(0);
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
