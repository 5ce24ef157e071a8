package io.listwatch.apiserver.validation;

import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.registry.NameValidation;
import java.util.List;
import java.util.Objects;

/**
 * kube's per-type {@code ValidateNameFunc}: applies a resource's {@link NameValidation} to a
 * name or a {@code generateName}, with the syntax rules of {@link NameSyntax}. Stateless and
 * thread-safe; each method returns a fresh list.
 */
public final class NameRules {

  private NameRules() {
  }

  /**
   * kube's per-type {@code ValidateNameFunc}. With {@code prefix} the value is a
   * {@code generateName} that random characters will follow, so a trailing {@code '-'} is
   * allowed: like kube's {@code maskTrailingDash}, the last two characters are replaced by
   * {@code 'a'} before a DNS rule is checked (kube's exact, slightly odd, masking).
   */
  public static List<String> validateName(NameValidation rule, String value, boolean prefix) {
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(value, "value");
    return switch (rule) {
      case DNS1123_SUBDOMAIN -> NameSyntax.isDns1123Subdomain(prefix ? maskTrailingDash(value) : value);
      case DNS1123_LABEL -> NameSyntax.isDns1123Label(prefix ? maskTrailingDash(value) : value);
      case DNS1035_LABEL -> NameSyntax.isDns1035Label(prefix ? maskTrailingDash(value) : value);
      case PATH_SEGMENT -> prefix
          ? NameSyntax.isValidPathSegmentPrefix(value)
          : NameSyntax.isValidPathSegmentName(value);
    };
  }

  static String maskTrailingDash(String name) {
    if (name.length() > 1 && name.endsWith("-")) {
      return name.substring(0, name.length() - 2) + "a";
    }
    return name;
  }
}
