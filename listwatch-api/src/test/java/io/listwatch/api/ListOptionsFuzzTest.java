package io.listwatch.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Coverage-guided fuzzing (Jazzer) of what a list or watch reads from its query: label and
 * field selectors, continue tokens, resourceVersions and the list options together. The test
 * command replays the inputs under {@code ListOptionsFuzzTestInputs/<method>/};
 * {@code ./listwatch fuzz} runs campaigns that add to them.
 *
 * <p>Invariants: the only failure is a 4xx {@link StatusException} (never another exception);
 * what parses prints in a canonical form that parses to the same value (the form the client
 * sends, the form the server logs), and that form is at most a few times the input's size.
 */
class ListOptionsFuzzTest {

  /** No printed form may be more than this many times the input's length (plus a constant). */
  private static final int GROWTH = 4;

  @FuzzTest(maxDuration = "2m")
  void labelSelector(byte[] bytes) {
    String input = new String(bytes, StandardCharsets.UTF_8);
    LabelSelector parsed = parseOr4xx(() -> LabelSelector.parse(input));
    if (parsed != null) {
      String printed = parsed.toString();
      assertBounded(printed, input);
      assertThat(LabelSelector.parse(printed)).isEqualTo(parsed);
    }
  }

  @FuzzTest(maxDuration = "2m")
  void fieldSelector(byte[] bytes) {
    String input = new String(bytes, StandardCharsets.UTF_8);
    FieldSelector parsed = parseOr4xx(() -> FieldSelector.parse(input));
    if (parsed != null) {
      String printed = parsed.toString();
      assertBounded(printed, input);
      assertThat(FieldSelector.parse(printed)).isEqualTo(parsed);
    }
  }

  @FuzzTest(maxDuration = "2m")
  void continueToken(byte[] bytes) {
    String input = new String(bytes, StandardCharsets.UTF_8);
    ContinueToken token = parseOr4xx(() -> ContinueToken.decode(input));
    if (token != null) {
      String encoded = token.encode();
      assertBounded(encoded, input);
      assertThat(ContinueToken.decode(encoded)).isEqualTo(token);
    }
  }

  /**
   * A query string, split at {@code &} and {@code =} as the transport does, its values taken
   * as they are (already decoded).
   */
  @FuzzTest(maxDuration = "2m")
  void listOptions(byte[] bytes) {
    Map<String, List<String>> query = new TreeMap<>();
    for (String pair : new String(bytes, StandardCharsets.UTF_8).split("&")) {
      int eq = pair.indexOf('=');
      query.computeIfAbsent(eq < 0 ? pair : pair.substring(0, eq), n -> new ArrayList<>())
          .add(eq < 0 ? "" : pair.substring(eq + 1));
    }
    ListOptions options = parseOr4xx(() -> ListOptions.parse(query));
    if (options != null) {
      options.resourceVersionNumber(); // checked by the constructor: must not throw now
      assertThat(ListOptionsTest.parse(options.toQueryString())).isEqualTo(options);
    }
  }

  private static void assertBounded(String output, String input) {
    assertThat(output.length()).isLessThanOrEqualTo(GROWTH * input.length() + 64);
  }

  /** The parser's value, or null after a 4xx StatusException; anything else fails the input. */
  private static <T> T parseOr4xx(Supplier<T> parser) {
    try {
      return parser.get();
    } catch (StatusException e) {
      assertThat(e.code()).as("%s", e.getMessage()).isBetween(400, 499);
      return null;
    }
  }
}
