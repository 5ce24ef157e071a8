package io.listwatch.server.cli;

import io.listwatch.server.ApiServer;
import io.listwatch.server.cacher.CacherConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./listwatch server}: runs the API server on the embedded store until SIGTERM or
 * Ctrl-C, then shuts down cleanly (watches end normally, the store is closed).
 */
@Command(name = "server", mixinStandardHelpOptions = true,
    description = "Runs the Kubernetes-compatible API server on the embedded store.")
public final class ServerCommand implements Callable<Integer> {

  @Option(names = "--data-dir", description = "Where the embedded store keeps its data (default: ${DEFAULT-VALUE}).")
  Path dataDir = Path.of("data");

  @Option(names = "--bind-address", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
  String bindAddress = "127.0.0.1";

  @Option(names = "--http-port", description = "Plain HTTP port (default: ${DEFAULT-VALUE}).")
  int httpPort = 8080;

  @Option(names = "--watch-cache-size",
      description = "Events of history kept per resource for resuming watches (default: ${DEFAULT-VALUE}).")
  int watchCacheSize = CacherConfig.DEFAULTS.historyCapacity();

  @Option(names = "--watch-cache-history",
      description = "Longest age of that history, e.g. 5m, 75s (default: 5m).")
  String watchCacheHistory = "5m";

  @Option(names = "--watcher-queue",
      description = "Events queued per watcher before a slow watcher is closed (default: ${DEFAULT-VALUE}).")
  int watcherQueue = CacherConfig.DEFAULTS.watcherQueueCapacity();

  @Override
  public Integer call() throws InterruptedException {
    CacherConfig cacher = new CacherConfig(watchCacheSize, parseDuration(watchCacheHistory), watcherQueue,
        CacherConfig.DEFAULTS.bookmarkInterval(), CacherConfig.DEFAULTS.freshnessTimeout());
    ApiServer server = ApiServer.builder().dataDir(dataDir).bindAddress(bindAddress).port(httpPort)
        .cacherConfig(cacher).build().start();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("listwatch-shutdown").unstarted(() -> {
      System.out.println("listwatch: shutting down");
      server.close();
      stopped.countDown();
    }));
    System.out.println("listwatch API server listening on " + server.url() + " (data in " + dataDir.toAbsolutePath() + ")");
    System.out.println("Try: kubectl --server=" + server.url() + " get namespaces");
    stopped.await();
    return 0;
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
