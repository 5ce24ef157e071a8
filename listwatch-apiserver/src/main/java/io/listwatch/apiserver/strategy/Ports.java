package io.listwatch.apiserver.strategy;

import java.util.ArrayList;
import java.util.List;

/**
 * kube's rules of a port given by number or by name ({@code IsValidPortNum},
 * {@code IsValidPortName} of apimachinery's validation), as lists of messages. Stateless.
 */
final class Ports {

  private Ports() {
  }

  /** kube's {@code IsValidPortNum}: 1 to 65535. */
  static List<String> numberProblems(long port) {
    return port >= 1 && port <= 65535 ? List.of() : List.of("must be between 1 and 65535, inclusive");
  }

  /**
   * kube's {@code IsValidPortName} (an IANA service name): at most 15 characters of
   * {@code [-a-z0-9]}, at least one letter, no {@code --}, no hyphen first or last.
   */
  static List<String> nameProblems(String port) {
    List<String> errs = new ArrayList<>(2);
    if (port.length() > 15) {
      errs.add("must be no more than 15 characters");
    }
    if (!port.matches("[-a-z0-9]+")) {
      errs.add("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
    }
    if (!port.matches(".*[a-z].*")) {
      errs.add("must contain at least one letter (a-z)");
    }
    if (port.contains("--")) {
      errs.add("must not contain consecutive hyphens");
    }
    if (!port.isEmpty() && (port.startsWith("-") || port.endsWith("-"))) {
      errs.add("must not begin or end with a hyphen");
    }
    return errs;
  }
}
