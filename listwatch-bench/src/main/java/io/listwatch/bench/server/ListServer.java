package io.listwatch.bench.server;

import io.listwatch.api.ListOptions;
import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.bench.Report;
import io.listwatch.server.ApiServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The API server of {@code bench server-list}, the main class of its child JVM: an
 * {@link ApiServer} with its builder defaults on the data directory given as the only
 * argument, plain HTTP on 127.0.0.1. Prints {@code listening on <url>}, then answers commands
 * on its standard input, one a line:
 * <ul>
 *   <li>{@value #HEAP}: collects (full GCs until the heap settles) and prints
 *       {@code heap <used bytes> <cached pods> <their JSON bytes> <their approximateBytes()>},
 *       the pods read from the watch cache ({@code cacher("", "pods")}) at resourceVersion 0.
 * </ul>
 * It closes the server and ends on SIGTERM or at the end of its standard input (the benchmark
 * ended).
 *
 * <p>Confined to its main thread.
 */
public final class ListServer {

  /** The command that asks for the heap and the cached pods' JSON. */
  static final String HEAP = "heap";

  private ListServer() {
  }

  public static void main(String[] args) throws IOException {
    // no garbage collector, as kube-apiserver alone: the pods name ReplicaSets that are not there
    ApiServer server = ApiServer.builder().dataDir(Path.of(args[0])).garbageCollector(false).build().start();
    Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("list-server-shutdown").unstarted(server::close));
    System.out.println("listening on " + server.url());
    System.out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (line.equals(HEAP)) {
        long heap = Report.heapAfterGc();
        List<CachedObject> items = server.cacher("", "pods")
            .list("", ListOptions.parse(Map.of("resourceVersion", List.of("0")))).join().items();
        long json = 0;
        long approx = 0;
        for (CachedObject o : items) {
          json += o.json().length;
          approx += o.approximateBytes();
        }
        System.out.println(HEAP + " " + heap + " " + items.size() + " " + json + " " + approx);
      } else {
        System.out.println("unknown command: " + line);
      }
      System.out.flush();
    }
    System.exit(0); // the benchmark ended: the shutdown hook closes the server
  }
}
