package io.listwatch.bench.server.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.bench.JmhBenchmark;
import io.listwatch.bench.server.Pods;
import io.listwatch.apiserver.protobuf.KubeProtobuf;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * CPU per object of the server's two encodings, for the benchmark pod ({@link Pods}, padded to
 * {@code objectBytes} of JSON): what a protobuf answer or watch event costs the server (the
 * stored JSON converted to kube's protobuf: {@link #jsonToProtobuf}), what a protobuf request
 * body costs (the reverse, {@link #protobufToJson}), and, for scale, reading and writing the
 * same object as JSON ({@link #jsonParseAndWrite}, what a JSON request body costs). A JSON
 * answer or event costs no encoding at all: the cached bytes are written as they are. The sizes
 * of both forms are printed once per trial.
 *
 * <p>Run with {@code ./listwatch bench encoding-jmh}. Confined to JMH's benchmark thread.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g", "-XX:+UseG1GC"})
public class EncodingBenchmark extends JmhBenchmark {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** Size of the pod's JSON. */
  @Param({"1024", "4096"})
  public int objectBytes;

  private byte[] json;
  private byte[] protobuf;

  @Setup
  public void setUp() throws Exception {
    json = new Pods(objectBytes).create("default", "bench-00042", 42);
    protobuf = KubeProtobuf.encode(json);
    System.out.printf("%n[sizes] pod JSON %d bytes, protobuf (with envelope) %d bytes%n", json.length,
        protobuf.length);
  }

  @Benchmark
  public byte[] jsonToProtobuf() {
    return KubeProtobuf.encode(json);
  }

  @Benchmark
  public byte[] protobufToJson() throws Exception {
    return MAPPER.writeValueAsBytes(KubeProtobuf.decodeAny(protobuf));
  }

  @Benchmark
  public byte[] jsonParseAndWrite() throws Exception {
    JsonNode tree = MAPPER.readTree(json);
    return MAPPER.writeValueAsBytes(tree);
  }
}
