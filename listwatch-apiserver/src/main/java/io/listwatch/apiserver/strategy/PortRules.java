package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.ArrayList;
import java.util.List;

/**
 * kube's checks of a network port as Services, Endpoints and EndpointSlices share them:
 * {@code IsValidPortNum}, the supported protocols, {@code ValidatePortNumOrName} (a number or
 * an IANA_SVC_NAME, {@code IsValidPortName}) and an {@code appProtocol} (a qualified name).
 * Stateless.
 */
final class PortRules {

  /** kube's {@code supportedPortProtocols}, sorted as kube lists them. */
  static final List<String> PROTOCOLS = List.of("SCTP", "TCP", "UDP");

  private static final String PORT_RANGE = "must be between 1 and 65535, inclusive";

  private PortRules() {
  }

  /** {@code IsValidPortNum} of an integer field; a missing one is Go's zero. */
  static void number(JsonNode port, String path, List<Status.Cause> errors) {
    long n = port.asLong(0);
    if (n < 1 || n > 65535) {
      errors.add(FieldErrors.invalid(path, n, PORT_RANGE));
    }
  }

  /** A port's {@code protocol}: required, one of {@link #PROTOCOLS}. */
  static void protocol(JsonNode protocol, String path, List<Status.Cause> errors) {
    String p = protocol.asText("");
    if (p.isEmpty()) {
      errors.add(FieldErrors.required(path, ""));
    } else if (!PROTOCOLS.contains(p)) {
      errors.add(FieldErrors.notSupported(path, p, PROTOCOLS));
    }
  }

  /** kube's {@code ValidatePortNumOrName}: a port number, or an IANA_SVC_NAME. */
  static void numberOrName(JsonNode port, String path, List<Status.Cause> errors) {
    if (port.isTextual()) {
      for (String msg : NameSyntax.isValidPortName(port.textValue())) {
        errors.add(FieldErrors.invalid(path, port.textValue(), msg));
      }
    } else {
      number(port, path, errors);
    }
  }

  /** An {@code appProtocol}, when given: kube's {@code ValidateQualifiedName}. */
  static void appProtocol(JsonNode appProtocol, String path, List<Status.Cause> errors) {
    if (appProtocol.isTextual()) {
      for (String msg : NameSyntax.isQualifiedName(appProtocol.textValue())) {
        errors.add(FieldErrors.invalid(path, appProtocol.textValue(), msg));
      }
    }
  }
}
