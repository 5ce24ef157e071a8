package io.listwatch.apiserver.strategy;

import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;

/**
 * A bad value kube prints as Go prints it, where {@link FieldErrors#goValue} cannot build it from
 * a plain Java value: a struct ({@code core.Taint{Key:"k", ...}}), a slice of a named type
 * ({@code []core.ResourceQuotaScope{"BestEffort"}}), or a value kube prints with its own
 * {@code String()} (a label selector, an int-or-string). {@link FieldErrors#goValue} prints its
 * {@link #toString} as it is, without the quotes of a string. Immutable.
 */
record GoLiteral(String text) {

  /** Go's {@code %#v} of a struct whose fields are given as name, printed value, name, ... */
  static GoLiteral struct(String type, String... namesAndValues) {
    StringBuilder b = new StringBuilder(type).append('{');
    for (int i = 0; i < namesAndValues.length; i += 2) {
      b.append(i > 0 ? ", " : "").append(namesAndValues[i]).append(':').append(namesAndValues[i + 1]);
    }
    return new GoLiteral(b.append('}').toString());
  }

  /** Go's {@code %#v} of a slice of strings of the named type {@code type}. */
  static GoLiteral strings(String type, List<String> values) {
    return new GoLiteral("[]" + type + FieldErrors.goValue(values).substring("[]string".length()));
  }

  /**
   * Go's {@code %#v} of a pointer field inside a struct: {@code (*type)(nil)}, or, when set, an
   * address, which Go prints and kube's messages carry; shown as the zero address.
   */
  static String pointer(String type, boolean set) {
    return "(*" + type + ")(" + (set ? "0xc000000000" : "nil") + ")";
  }

  @Override
  public String toString() {
    return text;
  }
}
