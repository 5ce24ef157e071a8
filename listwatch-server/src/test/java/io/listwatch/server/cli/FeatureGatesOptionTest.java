package io.listwatch.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code --feature-gates} on the command line: kube's syntax, and an unknown gate stops the server before it starts. */
class FeatureGatesOptionTest {

  @Test
  void theFlagSetsTheGate_andKubesDefaultIsOff() {
    ServerCommand none = new ServerCommand();
    new CommandLine(none).parseArgs();
    assertThat(none.featureGates.allowUnsafeMalformedObjectDeletion()).isFalse();

    ServerCommand on = new ServerCommand();
    new CommandLine(on).parseArgs("--feature-gates=AllowUnsafeMalformedObjectDeletion=true");
    assertThat(on.featureGates.allowUnsafeMalformedObjectDeletion()).isTrue();
  }

  @Test
  void anUnknownGate_isAUsageError_namingIt() {
    StringWriter err = new StringWriter();

    int exit = new CommandLine(new ServerCommand()).setErr(new PrintWriter(err, true))
        .execute("--feature-gates", "WatchList=true");

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString()).contains("--feature-gates").contains("unrecognized feature gate: WatchList");
  }
}
