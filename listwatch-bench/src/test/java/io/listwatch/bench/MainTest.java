package io.listwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;
import picocli.CommandLine;

class MainTest {

  /**
   * picocli formats each line of help as a format string: a bare {@code %} in a description makes
   * {@code --help} print a warning and the line unformatted.
   */
  @Test
  @ResourceLock(Resources.SYSTEM_ERR)
  void everySubcommandsHelp_printsWithoutAWarning() {
    CommandLine bench = new CommandLine(new Main());
    Map<String, String> warnings = new LinkedHashMap<>();
    Map<String, String> usages = new LinkedHashMap<>();
    PrintStream err = System.err;
    try {
      bench.getSubcommands().forEach((name, sub) -> {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        usages.put(name, sub.getUsageMessage());
        String printed = captured.toString(StandardCharsets.UTF_8);
        if (!printed.isEmpty()) {
          warnings.put(name, printed);
        }
      });
    } finally {
      System.setErr(err);
    }

    assertThat(usages).containsKeys("apf", "server-list", "informer-sync");
    assertThat(warnings).isEmpty();
    assertThat(usages.get("apf")).contains("14-26%").doesNotContain("%%");
    assertThat(usages.get("informer-sync")).contains("/tmp/sync-%p.jfr");
  }
}
