package io.listwatch.server.authn;

import io.listwatch.apiserver.request.UserInfo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TokenFileAuthenticatorTest {

  private static final Set<String> AUDIENCES = Set.of("api");

  private static UserInfo user(TokenFileAuthenticator file, String token) {
    return file.authenticateToken(token, AUDIENCES).orElseThrow().user();
  }

  @Test
  void lines_giveUserUidAndQuotedGroups() {
    TokenFileAuthenticator file = TokenFileAuthenticator.parse("""
        t1,alice,uid-1,"dev,ops"
        t2,bob,uid-2
        t3,carol,uid-3,viewers
        """, "tokens.csv");

    assertThat(file.size()).isEqualTo(3);
    assertThat(user(file, "t1")).isEqualTo(new UserInfo("alice", "uid-1", List.of("dev", "ops"), java.util.Map.of()));
    assertThat(user(file, "t2").groups()).isEmpty();
    assertThat(user(file, "t2").uid()).isEqualTo("uid-2");
    assertThat(user(file, "t3").groups()).containsExactly("viewers");
  }

  @Test
  void quotedFields_mayHoldQuotesCommasAndNewlines_andBlankLinesAndCrlfAreSkipped() {
    TokenFileAuthenticator file = TokenFileAuthenticator.parse(
        "\r\n\"to,ken\",\"the \"\"admin\"\"\",1,\"a,\nb\"\r\n\nt2,u,2,g,ignored-extra-column\n", "tokens.csv");

    assertThat(user(file, "to,ken").name()).isEqualTo("the \"admin\"");
    assertThat(user(file, "to,ken").groups()).containsExactly("a", "\nb");
    assertThat(user(file, "t2").groups()).containsExactly("g");
  }

  @Test
  void unknownToken_isNotThisAuthenticatorsToken() {
    TokenFileAuthenticator file = TokenFileAuthenticator.parse("t1,alice,1\n", "tokens.csv");

    assertThat(file.authenticateToken("t2", AUDIENCES)).isEmpty();
    assertThat(file.authenticateToken("t1x", AUDIENCES)).isEmpty();
    assertThat(file.authenticateToken("t1", AUDIENCES)).map(r -> r.audiences()).contains(List.of());
  }

  @Test
  void lineWithFewerThanThreeColumns_isAStartupErrorNamingTheLine() {
    assertThatThrownBy(() -> TokenFileAuthenticator.parse("t1,alice,1\n\nt2,bob\n", "/etc/tokens.csv"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("token file '/etc/tokens.csv' must have at least 3 columns (token, user name, user uid), "
            + "found 2 on line 3");
  }

  @Test
  void bareQuote_andUnterminatedQuote_areParseErrorsWithLineAndColumn() {
    assertThatThrownBy(() -> TokenFileAuthenticator.parse("t1,ali\"ce,1\n", "tokens.csv"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("token file 'tokens.csv': parse error on line 1, column 7: bare \" in non-quoted-field");
    assertThatThrownBy(() -> TokenFileAuthenticator.parse("t0,a,0\nt1,alice,1,\"dev\n", "tokens.csv"))
        .hasMessage("token file 'tokens.csv': parse error on line 2, column 12: extraneous or missing \" in quoted-field");
    assertThatThrownBy(() -> TokenFileAuthenticator.parse("t1,\"alice\"x,1\n", "tokens.csv"))
        .hasMessageContaining("line 1, column 11: extraneous or missing \" in quoted-field");
  }

  @Test
  void emptyToken_isSkipped_andADuplicateTokenTakesTheLaterLine() {
    TokenFileAuthenticator file = TokenFileAuthenticator.parse(",nobody,0\nt,first,1\nt,second,2\n", "tokens.csv");

    assertThat(file.size()).isEqualTo(1);
    assertThat(file.authenticateToken("", AUDIENCES)).isEqualTo(Optional.empty());
    assertThat(user(file, "t").name()).isEqualTo("second");
  }
}
