package io.listwatch.bench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code bench server-fanout --topologies}: the names it takes and what it refuses, before starting anything. */
class FanOutTopologyTest {

  @Test
  void parse_takesTheLabelsInAnyCase() {
    assertThat(FanOutTopology.parse("rocksdb")).isEqualTo(FanOutTopology.ROCKSDB);
    assertThat(FanOutTopology.parse(" ETCD ")).isEqualTo(FanOutTopology.ETCD);
    assertThat(FanOutTopology.parse("etcd-2-haproxy")).isEqualTo(FanOutTopology.ETCD_2_HAPROXY);
    assertThatThrownBy(() -> FanOutTopology.parse("etcd-3"))
        .hasMessage("unknown topology 'etcd-3'; one of [rocksdb, etcd, etcd-2-haproxy]");
  }

  @Test
  void anUnknownTopology_isAUsageError() {
    StringWriter err = new StringWriter();
    CommandLine command = new CommandLine(new FanOutBenchmark()).setErr(new PrintWriter(err));

    int exit = command.execute("--transports", "http1", "--topologies", "rocksdb,etcd-3");

    assertThat(exit).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(err.toString()).contains("--topologies: unknown topology 'etcd-3'");
  }
}
