/**
 * JMH microbenchmarks of the server's encodings: {@link io.listwatch.bench.server.jmh.EncodingBenchmark}
 * (JSON and kube's protobuf, CPU per object and sizes). Run by {@code ./listwatch bench encoding-jmh}.
 */
package io.listwatch.bench.server.jmh;
