package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.InMemoryCore;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube 1.32's {@code validateWindowsSecurityContextOptions} (cases of kube's
 * {@code TestValidateWindowsSecurityContextOptions}): a pod's {@code runAsUserName} (written with
 * {@code /} for kube's backslash), each row with every cause kube gives, or none.
 */
class WindowsSecurityContextValidationTest {

  private static final String PATH = "spec.securityContext.windowsOptions.runAsUserName";
  /** The message of a user name with a forbidden character (it holds the table's delimiter). */
  private static final String CHARS = "runAsUserName's User cannot contain the following characters: \"/\\:;|=,+*?<>@[]";

  private static List<String> causes(String field, String value, boolean container) {
    ObjectNode pod = InMemoryCore.json("{\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}");
    ObjectNode sc = container
        ? ((ObjectNode) pod.path("spec").path("containers").get(0)).putObject("securityContext")
        : ((ObjectNode) pod.path("spec")).putObject("securityContext");
    sc.putObject("windowsOptions").put(field, value);
    return StrategyCases.create(new PodStrategy(), pod.toString());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
      Container. User                      |
      Container-User                       |
      NT AUTHORITY/NETWORK SERVICE         |
      BUILTIN/Administrator                |
      contoso.com/jdoe                     |
      ~~                                   | runAsUserName cannot be an empty string
      a/b/c                                | runAsUserName cannot contain more than one backslash
      .NetBios/user                        | runAsUserName's Domain doesn't match the NetBios nor the DNS format
      /user                                | runAsUserName's Domain doesn't match the NetBios nor the DNS format
      domain/                              | runAsUserName's User cannot be empty
      ...                                  | runAsUserName's User cannot contain only periods or spaces
      user[1]                              | CHARS
      a@b                                  | CHARS
      """)
  void runAsUserName(String name, String expected) {
    String message = "CHARS".equals(expected) ? CHARS : expected;
    String value = name == null ? "" : name.replace('/', '\\');
    assertThat(causes("runAsUserName", value, false)).containsExactlyElementsOf(message == null ? List.of()
        : List.of(PATH + ": Invalid value: " + io.listwatch.apiserver.validation.FieldErrors.goValue(value) + ": " + message));
  }

  @Test
  void lengths_andControlCharacters() {
    String longDomain = "a".repeat(256) + "\\user";
    assertThat(causes("runAsUserName", longDomain, false)).extracting(s -> s.substring(s.lastIndexOf(": ") + 2))
        .containsExactly("runAsUserName's Domain length must be under 256 characters",
            "runAsUserName's Domain doesn't match the NetBios nor the DNS format");
    assertThat(causes("runAsUserName", "u".repeat(105), false)).singleElement().asString()
        .endsWith(": runAsUserName's User length must not be longer than 104 characters");
    assertThat(causes("runAsUserName", "u".repeat(104), false)).isEmpty();
    assertThat(causes("runAsUserName", "us\u0007er", false)).singleElement().asString()
        .endsWith(": runAsUserName cannot contain control characters");
  }

  @Test
  void gmsa_inAContainer() {
    assertThat(causes("gmsaCredentialSpecName", "Not_A_Name", true)).singleElement().asString()
        .startsWith("spec.containers[0].securityContext.windowsOptions.gmsaCredentialSpecName: Invalid value: \"Not_A_Name\": "
            + "a lowercase RFC 1123 subdomain");
    assertThat(causes("gmsaCredentialSpec", "", true)).containsExactly(
        "spec.containers[0].securityContext.windowsOptions.gmsaCredentialSpec: Invalid value: \"\": "
            + "gmsaCredentialSpec cannot be an empty string");
    assertThat(causes("gmsaCredentialSpec", "x".repeat(64 * 1024 + 1), true)).singleElement().asString()
        .endsWith(": gmsaCredentialSpec size must be under 64 KiB");
    assertThat(causes("gmsaCredentialSpec", "{\"CmsPlugins\":[\"ActiveDirectory\"]}", true)).isEmpty();
  }
}
