package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.NumericFields.given;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;
import java.util.Optional;

/**
 * NetworkPolicies (networking.k8s.io/v1), kube's {@code ValidateNetworkPolicySpec} (on create
 * and update): valid selectors; each port's protocol (TCP, UDP, SCTP), number or name, and
 * {@code endPort} (numeric ports only, not below {@code port}); each peer at least one of
 * {@code podSelector}, {@code namespaceSelector} and {@code ipBlock}, the last alone, with a
 * valid {@code cidr} and {@code except} entries strictly inside it; at most two
 * {@code policyTypes}, each Ingress or Egress. Stateless.
 */
final class NetworkPolicyStrategy implements RestStrategy {

  private static final List<String> PROTOCOLS = List.of("TCP", "UDP", "SCTP");
  private static final List<String> POLICY_TYPES = List.of("Ingress", "Egress");

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    JsonNode spec = obj.path("spec");
    LabelSelectorValidation.validate(spec.path("podSelector"), "spec.podSelector", errors);
    rules(spec.path("ingress"), "spec.ingress", "from", errors);
    rules(spec.path("egress"), "spec.egress", "to", errors);
    JsonNode types = spec.path("policyTypes");
    if (types.size() > POLICY_TYPES.size()) {
      List<String> shown = new java.util.ArrayList<>();
      types.forEach(t -> shown.add(t.asText("")));
      errors.add(FieldErrors.invalid("spec.policyTypes", new GoLiteral(FieldErrors.goValue(shown)
          .replace("[]string", "[]networking.PolicyType")), "may not specify more than two policyTypes"));
      return;
    }
    for (int i = 0; i < types.size(); i++) {
      String type = types.get(i).asText("");
      if (!POLICY_TYPES.contains(type)) {
        errors.add(FieldErrors.notSupported("spec.policyTypes[" + i + "]", type, POLICY_TYPES));
      }
    }
  }

  private static void rules(JsonNode rules, String path, String peers, List<Status.Cause> errors) {
    for (int i = 0; i < rules.size(); i++) {
      String at = path + "[" + i + "]";
      JsonNode ports = rules.get(i).path("ports");
      for (int j = 0; j < ports.size(); j++) {
        port(ports.get(j), at + ".ports[" + j + "]", errors);
      }
      JsonNode list = rules.get(i).path(peers);
      for (int j = 0; j < list.size(); j++) {
        peer(list.get(j), at + "." + peers + "[" + j + "]", errors);
      }
    }
  }

  /** kube's {@code ValidateNetworkPolicyPort}. */
  private static void port(JsonNode p, String path, List<Status.Cause> errors) {
    JsonNode protocol = p.path("protocol");
    if (given(protocol) && !PROTOCOLS.contains(protocol.asText(""))) {
      errors.add(FieldErrors.notSupported(path + ".protocol", protocol.asText(""), PROTOCOLS));
    }
    JsonNode port = p.path("port");
    JsonNode endPort = p.path("endPort");
    if (!given(port)) {
      if (given(endPort)) {
        errors.add(FieldErrors.invalid(path + ".endPort", endPort.asLong(), "may not be specified when `port` is not specified"));
      }
    } else if (port.isIntegralNumber()) {
      for (String msg : io.listwatch.api.validation.NameSyntax.isValidPortNum(port.asLong())) {
        errors.add(FieldErrors.invalid(path + ".port", port.asLong(), msg));
      }
      if (given(endPort)) {
        if (endPort.asLong() < port.asLong()) {
          // kube shows the port here, not the endPort
          errors.add(FieldErrors.invalid(path + ".endPort", port.asLong(), "must be greater than or equal to `port`"));
        }
        for (String msg : io.listwatch.api.validation.NameSyntax.isValidPortNum(endPort.asLong())) {
          errors.add(FieldErrors.invalid(path + ".endPort", endPort.asLong(), msg));
        }
      }
    } else {
      if (given(endPort)) {
        errors.add(FieldErrors.invalid(path + ".endPort", endPort.asLong(), "may not be specified when `port` is non-numeric"));
      }
      for (String msg : io.listwatch.api.validation.NameSyntax.isValidPortName(port.asText(""))) {
        errors.add(FieldErrors.invalid(path + ".port", port.asText(""), msg));
      }
    }
  }

  /** kube's {@code ValidateNetworkPolicyPeer}. */
  private static void peer(JsonNode peer, String path, List<Status.Cause> errors) {
    int peers = 0;
    for (String selector : new String[] {"podSelector", "namespaceSelector"}) {
      if (given(peer.path(selector))) {
        peers++;
        LabelSelectorValidation.validate(peer.path(selector), path + "." + selector, errors);
      }
    }
    JsonNode ipBlock = peer.path("ipBlock");
    if (given(ipBlock)) {
      peers++;
      ipBlock(ipBlock, path + ".ipBlock", errors);
    }
    if (peers == 0) {
      errors.add(FieldErrors.required(path, "must specify a peer"));
    } else if (peers > 1 && given(ipBlock)) {
      errors.add(FieldErrors.forbidden(path, "may not specify both ipBlock and another peer"));
    }
  }

  /** kube's {@code ValidateIPBlock}. */
  private static void ipBlock(JsonNode block, String path, List<Status.Cause> errors) {
    String cidr = block.path("cidr").asText("");
    if (cidr.isEmpty()) {
      errors.add(FieldErrors.required(path + ".cidr", ""));
      return;
    }
    Optional<Cidr> network = Cidr.parse(cidr);
    if (network.isEmpty()) {
      errors.add(FieldErrors.invalid(path + ".cidr", cidr, "not a valid CIDR"));
      return;
    }
    JsonNode except = block.path("except");
    for (int i = 0; i < except.size(); i++) {
      String at = path + ".except[" + i + "]";
      String value = except.get(i).asText("");
      Optional<Cidr> inner = Cidr.parse(value);
      if (inner.isEmpty()) {
        errors.add(FieldErrors.invalid(at, value, "not a valid CIDR"));
        return;
      }
      if (!network.get().strictlyContains(inner.get())) {
        errors.add(FieldErrors.invalid(at, value, "must be a strict subset of `cidr`"));
      }
    }
  }
}
