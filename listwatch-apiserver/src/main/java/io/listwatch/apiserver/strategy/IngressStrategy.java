package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.NumericFields.given;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Ingresses (networking.k8s.io/v1), kube's {@code ValidateIngressSpec} (on create and update):
 * rules or a default backend; each rule's host a DNS name (a wildcard {@code *.} first label
 * allowed, an IP address not), its HTTP paths with a {@code pathType} of Exact, Prefix or
 * ImplementationSpecific and an absolute path (for Exact and Prefix without {@code //},
 * {@code /./}, {@code /../}, {@code %2f} and not ending in {@code /..} or {@code /.}); each
 * backend a service (a DNS-1035 name, a port name or number but not both) or a resource, not
 * both; TLS hosts and secret names; the class name. A {@code /status} write: kube's
 * {@code ValidateIngressStatusUpdate} ({@link #prepareForStatusUpdate}). Stateless.
 */
final class IngressStrategy implements RestStrategy {

  private static final List<String> INVALID_PATH_SEQUENCES = List.of("//", "/./", "/../", "%2f", "%2F");
  private static final List<String> INVALID_PATH_SUFFIXES = List.of("/..", "/.");
  private static final String SUBDOMAIN_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
  private static final Pattern WILDCARD_SUBDOMAIN = Pattern.compile("\\*\\." + SUBDOMAIN_FMT);
  private static final String WILDCARD_MESSAGE = "a wildcard DNS-1123 subdomain must start with '*.', followed by a "
      + "valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an "
      + "alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\." + SUBDOMAIN_FMT + "')";

  /**
   * kube's {@code ValidateIngressStatusUpdate}: the load balancer's ingress IPs and hostnames
   * ({@link LoadBalancerStatusValidation}), refused in one 422.
   */
  @Override
  public void prepareForStatusUpdate(ObjectNode obj, ObjectNode old) {
    List<Status.Cause> errors = new java.util.ArrayList<>();
    LoadBalancerStatusValidation.ingress(obj.path("status").path("loadBalancer"), "status.loadBalancer", errors);
    StatusValidation.refuse("networking.k8s.io", "Ingress", obj, errors);
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    JsonNode spec = obj.path("spec");
    JsonNode rules = spec.path("rules");
    JsonNode defaultBackend = spec.path("defaultBackend");
    if (rules.isEmpty() && !given(defaultBackend)) {
      errors.add(FieldErrors.invalid("spec", new GoLiteral(rules.isArray() ? "[]networking.IngressRule{}"
          : "[]networking.IngressRule(nil)"), "either `defaultBackend` or `rules` must be specified"));
    }
    if (given(defaultBackend)) {
      backend(defaultBackend, "spec.defaultBackend", errors);
    }
    for (int i = 0; i < rules.size(); i++) {
      rule(rules.get(i), "spec.rules[" + i + "]", errors);
    }
    JsonNode tls = spec.path("tls");
    for (int i = 0; i < tls.size(); i++) {
      String at = "spec.tls[" + i + "]";
      JsonNode hosts = tls.get(i).path("hosts");
      for (int j = 0; j < hosts.size(); j++) {
        host(hosts.get(j).asText(""), at + ".hosts[" + j + "]", errors);
      }
      String secretName = tls.get(i).path("secretName").asText("");
      if (!secretName.isEmpty()) {
        invalidAll(at + ".secretName", secretName, NameSyntax.isDns1123Subdomain(secretName), errors);
      }
    }
    JsonNode className = spec.path("ingressClassName");
    if (given(className)) {
      invalidAll("spec.ingressClassName", className.asText(""), NameSyntax.isDns1123Subdomain(className.asText("")), errors);
    }
  }

  private static void rule(JsonNode rule, String path, List<Status.Cause> errors) {
    String host = rule.path("host").asText("");
    if (!host.isEmpty()) {
      if (Cidr.parseIp(host).isPresent()) {
        errors.add(FieldErrors.invalid(path + ".host", host, "must be a DNS name, not an IP address"));
      }
      host(host, path + ".host", errors);
    }
    JsonNode http = rule.path("http");
    if (!given(http)) {
      return;
    }
    JsonNode paths = http.path("paths");
    if (paths.isEmpty()) {
      errors.add(FieldErrors.required(path + ".http.paths", ""));
    }
    for (int i = 0; i < paths.size(); i++) {
      httpPath(paths.get(i), path + ".http.paths[" + i + "]", errors);
    }
  }

  /** A host of a rule or of TLS: a DNS-1123 subdomain, or one with a {@code *.} wildcard first. */
  private static void host(String host, String path, List<Status.Cause> errors) {
    if (!host.contains("*")) {
      invalidAll(path, host, NameSyntax.isDns1123Subdomain(host), errors);
      return;
    }
    List<String> problems = new ArrayList<>();
    if (host.length() > NameSyntax.DNS1123_SUBDOMAIN_MAX_LENGTH) {
      problems.add("must be no more than 253 characters");
    }
    if (!WILDCARD_SUBDOMAIN.matcher(host).matches()) {
      problems.add(WILDCARD_MESSAGE);
    }
    invalidAll(path, host, problems, errors);
  }

  /** kube's {@code validateHTTPIngressPath}. */
  private static void httpPath(JsonNode p, String path, List<Status.Cause> errors) {
    JsonNode pathType = p.path("pathType");
    if (!given(pathType)) {
      errors.add(FieldErrors.required(path + ".pathType", "pathType must be specified"));
      return;
    }
    String value = p.path("path").asText("");
    switch (pathType.asText("")) {
      case "Exact", "Prefix" -> {
        if (!value.startsWith("/")) {
          errors.add(FieldErrors.invalid(path + ".path", value, "must be an absolute path"));
        }
        for (String seq : INVALID_PATH_SEQUENCES) {
          if (value.contains(seq)) {
            errors.add(FieldErrors.invalid(path + ".path", value, "must not contain '" + seq + "'"));
          }
        }
        for (String suffix : INVALID_PATH_SUFFIXES) {
          if (value.endsWith(suffix)) {
            errors.add(FieldErrors.invalid(path + ".path", value, "cannot end with '" + suffix + "'"));
          }
        }
      }
      case "ImplementationSpecific" -> {
        if (!value.isEmpty() && !value.startsWith("/")) {
          errors.add(FieldErrors.invalid(path + ".path", value, "must be an absolute path"));
        }
      }
      default -> errors.add(FieldErrors.notSupported(path + ".pathType", pathType.asText(""),
          List.of("Exact", "ImplementationSpecific", "Prefix")));
    }
    backend(p.path("backend"), path + ".backend", errors);
  }

  /** kube's {@code validateIngressBackend}. */
  private static void backend(JsonNode backend, String path, List<Status.Cause> errors) {
    JsonNode service = backend.path("service");
    JsonNode resource = backend.path("resource");
    if (given(service) && given(resource)) {
      errors.add(FieldErrors.invalid(path, "", "cannot set both resource and service backends"));
    } else if (given(resource)) {
      resource(resource, path + ".resource", errors);
    } else if (given(service)) {
      String name = service.path("name").asText("");
      if (name.isEmpty()) {
        errors.add(FieldErrors.required(path + ".service.name", ""));
      } else {
        invalidAll(path + ".service.name", name, NameSyntax.isDns1035Label(name), errors);
      }
      String portName = service.path("port").path("name").asText("");
      long portNumber = service.path("port").path("number").asLong(0);
      if (!portName.isEmpty() && portNumber != 0) {
        errors.add(FieldErrors.invalid(path, "", "cannot set both port name & port number"));
      } else if (!portName.isEmpty()) {
        invalidAll(path + ".service.port.name", portName, io.listwatch.api.validation.NameSyntax.isValidPortName(portName), errors);
      } else if (portNumber != 0) {
        for (String msg : io.listwatch.api.validation.NameSyntax.isValidPortNum(portNumber)) {
          errors.add(FieldErrors.invalid(path + ".service.port.number", portNumber, msg));
        }
      } else {
        errors.add(FieldErrors.required(path, "port name or number is required"));
      }
    } else {
      errors.add(FieldErrors.invalid(path, "", "resource or service backend is required"));
    }
  }

  /** kube's {@code validateIngressTypedLocalObjectReference}. */
  private static void resource(JsonNode ref, String path, List<Status.Cause> errors) {
    JsonNode apiGroup = ref.path("apiGroup");
    if (given(apiGroup)) {
      invalidAll(path + ".apiGroup", apiGroup.asText(""), NameSyntax.isDns1123Subdomain(apiGroup.asText("")), errors);
    }
    for (String field : new String[] {"kind", "name"}) {
      String value = ref.path(field).asText("");
      if (value.isEmpty()) {
        errors.add(FieldErrors.required(path + "." + field, field + " is required"));
      } else {
        invalidAll(path + "." + field, value, NameSyntax.isValidPathSegmentName(value), errors);
      }
    }
  }

  private static void invalidAll(String path, String value, List<String> problems, List<Status.Cause> errors) {
    for (String msg : problems) {
      errors.add(FieldErrors.invalid(path, value, msg));
    }
  }
}
