package io.listwatch.bench.server;

import io.listwatch.bench.JmhCommand;
import picocli.CommandLine.Command;

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
public final class EncodingJmhCommand extends JmhCommand {
}
