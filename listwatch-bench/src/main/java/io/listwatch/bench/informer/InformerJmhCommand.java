package io.listwatch.bench.informer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code bench informer-jmh [JMH options]}: the JMH microbenchmarks of the informer's event
 * path ({@code io.listwatch.bench.informer.jmh}), run by JMH's own runner with this JVM's
 * classpath. It runs every benchmark of that package; every argument passes through to JMH
 * ({@code -h} lists them, e.g. {@code -p handlers=10}, {@code -f 1}, {@code -rf json}).
 *
 * <p>Confined to the thread that runs the command.
 */
@Command(
    name = "informer-jmh",
    description = "JMH: informer event throughput, watch stream -> DeltaFIFO -> indexer -> 1 and 10 handlers "
        + "(no network). Options are JMH's own.")
public final class InformerJmhCommand implements Callable<Integer> {

  /** The include pattern always passed: every benchmark of the package. */
  static final String BENCHMARKS = "io\\.listwatch\\.bench\\.informer\\.jmh\\..*";

  /** Every argument, in order, for JMH. */
  @Unmatched
  private List<String> jmhArgs = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    List<String> all = new ArrayList<>(jmhArgs);
    all.add(BENCHMARKS);
    org.openjdk.jmh.Main.main(all.toArray(String[]::new));
    return 0;
  }
}
