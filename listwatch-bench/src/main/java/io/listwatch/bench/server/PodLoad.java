package io.listwatch.bench.server;

import static io.listwatch.bench.Format.count;

import io.listwatch.bench.CpuMonitor;
import io.listwatch.bench.Format;
import io.listwatch.bench.Report;
import io.listwatch.bench.ResultTable;
import java.net.InetSocketAddress;
import picocli.CommandLine.Option;

/**
 * How the benchmarks that measure the API server at several pod counts ({@code server-list},
 * {@code informer-sync}) fill it, as a picocli mixin ({@code @Mixin}) with the options
 * {@code --object-bytes} and {@code --load-connections}: pods of about {@code --object-bytes}
 * ({@link Pods}), named {@code pod-000000} on, created in namespace {@value Pods#NAMESPACE} through
 * HTTP with {@code --load-connections} in flight, up to each count in turn; and the report's
 * "Loading" table, a row per count.
 *
 * <p>Confined to the thread that runs the benchmark; the creates run on virtual threads.
 */
public final class PodLoad {

  @Option(names = "--object-bytes", defaultValue = "1024", paramLabel = "N",
      description = "Approximate JSON size of each pod as stored (default: ${DEFAULT-VALUE}).")
  private int objectBytes;

  @Option(names = "--load-connections", defaultValue = "64", paramLabel = "N",
      description = "Creates in flight while loading (default: ${DEFAULT-VALUE}).")
  private int connections;

  private ResultTable table;
  private Pods template;
  /** How many pods the server holds. */
  private int loaded;

  /** The approximate JSON size of each pod ({@code --object-bytes}). */
  public int objectBytes() {
    return objectBytes;
  }

  /** The creates in flight ({@code --load-connections}). */
  public int connections() {
    return connections;
  }

  /**
   * Adds the "Loading" table to {@code report}, its title ending with {@code titleEnd}; call
   * it before {@link #upTo}.
   */
  public void addTable(Report report, String titleEnd) {
    table = report.table(new ResultTable(String.format(
        "Loading: pods of ~%,d bytes created through POST /api/v1/namespaces/%s/pods, %d in flight",
        objectBytes, Pods.NAMESPACE, connections) + titleEnd,
        "pods", "created", "seconds", "creates/s", "errors"));
  }

  /**
   * Creates the pods from the last count up to {@code size} on {@code server}, recording the
   * phase ("creating pods up to N" and {@code phaseEnd}) and a row of the table.
   */
  public Pods.LoadResult upTo(int size, InetSocketAddress server, Report report, String phaseEnd)
      throws InterruptedException {
    if (template == null) {
      template = new Pods(objectBytes);
    }
    report.progress("creating pods %,d..%,d", loaded, size);
    CpuMonitor cpu = CpuMonitor.now();
    Pods.LoadResult r = Pods.createAll(server, "/api/v1/namespaces/" + Pods.NAMESPACE + "/pods", loaded, size,
        connections, i -> template.create(Pods.NAMESPACE, String.format("pod-%06d", i), i));
    report.phase("creating pods up to " + count(size) + phaseEnd, cpu);
    table.row(count(size), count(r.created()), String.format("%.1f", r.seconds()),
        count(r.created() / r.seconds()), Format.errorCell(r.errors(), null)
            + (r.errors() > 0 ? " " + r.firstError() : ""));
    loaded = size;
    return r;
  }
}
