package io.listwatch.apiserver.admission.podsecurity;

import io.listwatch.api.Strconv;
import java.util.Collection;
import java.util.List;

/**
 * The wording helpers of kube's checks ({@code joinQuote}, {@code pluralize}), so that details
 * read as kube's: {@code containers "a", "b" must ...}. Stateless.
 */
final class Messages {

  private Messages() {
  }

  /** {@code "a", "b"}: each item in plain double quotes (no escaping, as kube's joinQuote). */
  static String joinQuote(Collection<String> items) {
    return items.isEmpty() ? "" : "\"" + String.join("\", \"", items) + "\"";
  }

  /** {@code singular} for a count of 1, else {@code plural}. */
  static String pluralize(String singular, String plural, int count) {
    return count == 1 ? singular : plural;
  }

  /** {@code containers "a", "b"} (or {@code container "a"}). */
  static String containers(List<String> names) {
    return pluralize("container", "containers", names.size()) + " " + joinQuote(names);
  }

  /** {@code key="value"}, the value quoted as Go's {@code %q} quotes it. */
  static String keyValue(String key, String value) {
    return key + "=" + Strconv.quote(value);
  }

  /**
   * Who set a forbidden value: {@code pod}, {@code containers "a", "b"}, or both joined by
   * {@code and}; empty when nobody did.
   */
  static List<String> setters(boolean pod, List<String> containers) {
    List<String> setters = new java.util.ArrayList<>();
    if (pod) {
      setters.add("pod");
    }
    if (!containers.isEmpty()) {
      setters.add(containers(containers));
    }
    return setters;
  }
}
