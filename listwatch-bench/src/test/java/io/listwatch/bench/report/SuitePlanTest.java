package io.listwatch.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.bench.Main;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class SuitePlanTest {

  @Test
  void plan_listsEachSuiteOnce_underItsBenchSubcommandName() {
    List<String> names = SuitePlan.ALL.stream().map(Suite::name).toList();

    assertThat(names).doesNotHaveDuplicates()
        .containsExactly("server-fanout", "server-list", "informer-sync", "server-writes", "storage");
    assertThat(new CommandLine(new Main()).getSubcommands().keySet()).containsAll(names).contains("report");
  }

  @Test
  void everyModesArguments_areOptionsTheSuiteAccepts() {
    for (Suite suite : SuitePlan.ALL) {
      for (boolean quick : List.of(true, false)) {
        // parsing only: throws a ParameterException for an option the suite does not have
        new CommandLine(suite.type()).parseArgs(suite.args(quick).toArray(String[]::new));
      }
    }
  }

  @Test
  void select_keepsThePlansOrder_andRejectsAnUnknownSuite() {
    assertThat(SuitePlan.select(List.of("storage", "server-fanout")).stream().map(Suite::name))
        .containsExactly("server-fanout", "storage");
    assertThat(SuitePlan.select(List.of())).isEqualTo(SuitePlan.ALL);
    assertThatThrownBy(() -> SuitePlan.select(List.of("nope"))).hasMessageContaining("unknown suites [nope]");
  }

  @Test
  void command_isTheLauncherCommandWithTheModesArguments() {
    Suite storage = SuitePlan.select(List.of("storage")).getFirst();

    assertThat(storage.command(true)).startsWith("./listwatch bench storage --writers 1,64 ");
    assertThat(storage.command(false)).isEqualTo("./listwatch bench storage --range-repeats 5");
  }
}
