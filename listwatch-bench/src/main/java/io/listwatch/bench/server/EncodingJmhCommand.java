package io.listwatch.bench.server;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code bench encoding-jmh [JMH options]}: the JMH microbenchmarks of the server's encodings
 * ({@code io.listwatch.bench.server.jmh}), run by JMH's own runner with this JVM's classpath;
 * every argument passes through to JMH ({@code -p objectBytes=1024}, {@code -f 1}, ...).
 *
 * <p>Confined to the thread that runs the command.
 */
@Command(
    name = "encoding-jmh",
    description = "JMH: CPU per object of JSON and kube protobuf (JSON -> protobuf, protobuf -> JSON, JSON "
        + "parse+write) and their sizes. Options are JMH's own.")
public final class EncodingJmhCommand implements Callable<Integer> {

  /** The include pattern always passed: every benchmark of the package. */
  static final String BENCHMARKS = "io\\.listwatch\\.bench\\.server\\.jmh\\..*";

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
