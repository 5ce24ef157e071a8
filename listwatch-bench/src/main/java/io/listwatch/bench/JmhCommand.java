package io.listwatch.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Unmatched;

/**
 * A {@code bench <what>-jmh [JMH options]} command: JMH's own runner, with this JVM's classpath,
 * over every benchmark of the {@code jmh} package below the subclass's own (for
 * {@code io.listwatch.bench.informer.InformerJmhCommand}, {@code io.listwatch.bench.informer.jmh}).
 * Every argument passes through to JMH ({@code -h} lists them, e.g. {@code -p handlers=10},
 * {@code -f 1}, {@code -rf json}); the package's include pattern is added after them. A subclass
 * carries the {@code @Command}.
 *
 * <p>Confined to the thread that runs the command.
 */
public abstract class JmhCommand implements Callable<Integer> {

  /** The include pattern always passed: every benchmark of the package. */
  private final String benchmarks = (getClass().getPackageName() + ".jmh").replace(".", "\\.") + "\\..*";

  /** Every argument, in order, for JMH. */
  @Unmatched
  private List<String> jmhArgs = new ArrayList<>();

  @Override
  public final Integer call() throws Exception {
    List<String> all = new ArrayList<>(jmhArgs);
    all.add(benchmarks);
    org.openjdk.jmh.Main.main(all.toArray(String[]::new));
    return 0;
  }
}
