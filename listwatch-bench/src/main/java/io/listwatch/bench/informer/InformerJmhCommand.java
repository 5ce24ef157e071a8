package io.listwatch.bench.informer;

import io.listwatch.bench.JmhCommand;
import picocli.CommandLine.Command;

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
public final class InformerJmhCommand extends JmhCommand {
}
