package io.listwatch.api.patch;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.JsonLimits;
import io.listwatch.api.StatusException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Coverage-guided fuzzing (Jazzer) of the three patch types on their own, many times faster than
 * through the server ({@code ApiRequestFuzzTest} covers them there too). One input is
 * <pre>
 * media-type group/version/Kind
 * {the live object, one line of JSON}
 * the patch...
 * </pre>
 * e.g. {@code application/strategic-merge-patch+json /v1/Pod}, as the seeds under
 * {@code PatcherFuzzTestInputs/patch/}.
 *
 * <p>Invariants: the only failure is a 4xx {@link StatusException}; the live object is not
 * changed (a refused patch leaves nothing behind); the result is bounded: no more than
 * {@value #GROWTH} times the live object and the patch together, plus the
 * {@link JsonPatch#MAX_COPY_BYTES} a JSON Patch may copy; and it can be written as JSON.
 */
class PatcherFuzzTest {

  private static final int GROWTH = 4;
  private static final ObjectMapper JSON = JsonLimits.mapper();

  @FuzzTest(maxDuration = "2m")
  void patch(byte[] input) throws JsonProcessingException {
    String[] lines = new String(input, StandardCharsets.UTF_8).split("\n", 3);
    if (lines.length < 3) {
      return;
    }
    String[] head = lines[0].split(" ", 2);
    String[] gvk = head.length < 2 ? new String[0] : head[1].split("/", 3);
    Optional<PatchSchema> schema = gvk.length == 3 ? PatchSchemas.forKind(gvk[0], gvk[1], gvk[2]) : Optional.empty();
    JsonNode live;
    JsonNode patch;
    try {
      live = JSON.readTree(lines[1]);
      patch = JSON.readTree(lines[2]);
    } catch (JsonProcessingException e) {
      return; // the server refuses a body that is not JSON before any patch code runs
    }
    if (!(live instanceof ObjectNode liveObject) || patch == null) {
      return;
    }
    ObjectNode before = liveObject.deepCopy();
    try {
      ObjectNode out = Patcher.forRequest(head[0], patch, schema).applyTo(liveObject);
      long size = JSON.writeValueAsBytes(out).length;
      assertThat(size).as("patched object size")
          .isLessThanOrEqualTo(GROWTH * (long) (lines[1].length() + lines[2].length()) + JsonPatch.MAX_COPY_BYTES);
    } catch (StatusException e) {
      assertThat(e.code()).as("%s", e.getMessage()).isBetween(400, 499);
    }
    assertThat(liveObject).as("the live object").isEqualTo(before);
  }
}
