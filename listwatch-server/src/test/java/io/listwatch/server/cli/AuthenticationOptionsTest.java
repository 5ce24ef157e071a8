package io.listwatch.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.server.authn.AuthenticationConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class AuthenticationOptionsTest {

  @TempDir
  Path dir;

  private static AuthenticationConfig parse(String... args) {
    ServerCommand command = new ServerCommand();
    new CommandLine(command).parseArgs(args);
    return command.authentication.config();
  }

  @Test
  void defaults_areKubes() {
    AuthenticationConfig c = parse();

    assertThat(c.anonymousAuth()).isTrue();
    assertThat(c.issuers()).containsExactly("https://kubernetes.default.svc.cluster.local");
    assertThat(c.apiAudiences()).containsExactly("https://kubernetes.default.svc.cluster.local");
  }

  @Test
  void flags_setAnonymousIssuersAndAudiences() {
    AuthenticationConfig c = parse("--anonymous-auth=false", "--service-account-issuer", "https://a",
        "--service-account-issuer", "https://b", "--api-audiences", "x,y");

    assertThat(c.anonymousAuth()).isFalse();
    assertThat(c.issuers()).containsExactly("https://a", "https://b");
    assertThat(c.apiAudiences()).containsExactly("x", "y");
    assertThat(parse("--service-account-issuer", "https://a").apiAudiences()).isEqualTo(List.of("https://a"));
  }

  @Test
  void malformedTokenFile_stopsTheServerWithTheLineAndNoStackTrace() throws Exception {
    Path tokens = Files.writeString(dir.resolve("tokens.csv"), "t1,alice,1\nt2,bob\n");
    StringWriter err = new StringWriter();

    int exit = new CommandLine(new ServerCommand()).setErr(new PrintWriter(err, true)).execute(
        "--data-dir", dir.resolve("data").toString(), "--http-port", "0", "--token-auth-file", tokens.toString());

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString()).isEqualTo("listwatch server: cannot start: token file '" + tokens + "' must have at "
        + "least 3 columns (token, user name, user uid), found 2 on line 2" + System.lineSeparator());
  }
}
