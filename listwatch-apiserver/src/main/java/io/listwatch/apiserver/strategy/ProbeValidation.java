package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.NumericFields.nonNegative;
import static io.listwatch.apiserver.strategy.PodSpecValidation.set;
import static io.listwatch.apiserver.strategy.PodSpecValidation.text;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;
import java.util.regex.Pattern;

/**
 * kube 1.32's rules for a container's probes and lifecycle hooks ({@code validateLivenessProbe},
 * {@code validateReadinessProbe}, {@code validateStartupProbe}, {@code validateLifecycle},
 * {@code validateHandler}): exactly one handler ({@code exec} with a command, {@code httpGet}
 * with a path, a port and scheme HTTP/HTTPS, {@code tcpSocket} or {@code grpc} with a port; a
 * hook may also {@code sleep} within the pod's grace period); the probe's counters not
 * negative; {@code successThreshold} 1 for liveness and startup probes; no
 * {@code terminationGracePeriodSeconds} on a readiness probe. The counters' defaults
 * ({@code PodSpecDefaults}) are filled before. Stateless.
 */
final class ProbeValidation {

  private static final Pattern HEADER_NAME = Pattern.compile("[-A-Za-z0-9]+");
  private static final String HEADER_NAME_ERR = "a valid HTTP header must consist of alphanumeric characters or "
      + "'-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')";

  private ProbeValidation() {
  }

  /** The lifecycle hooks and the three probes of container {@code c}, found at {@code at}. */
  static void lifecycleAndProbes(JsonNode c, String at, Long gracePeriod, List<Status.Cause> errors) {
    if (set(c, "lifecycle")) {
      JsonNode lifecycle = c.path("lifecycle");
      for (String hook : List.of("postStart", "preStop")) {
        if (set(lifecycle, hook)) {
          handler(lifecycle.path(hook), true, gracePeriod, at + ".lifecycle." + hook, errors);
        }
      }
    }
    if (set(c, "livenessProbe")) {
      probe(c.path("livenessProbe"), gracePeriod, at + ".livenessProbe", errors);
      successThresholdOne(c.path("livenessProbe"), at + ".livenessProbe", errors);
    }
    if (set(c, "readinessProbe")) {
      JsonNode probe = c.path("readinessProbe");
      probe(probe, gracePeriod, at + ".readinessProbe", errors);
      if (set(probe, "terminationGracePeriodSeconds")) {
        errors.add(FieldErrors.invalid(at + ".readinessProbe.terminationGracePeriodSeconds",
            probe.path("terminationGracePeriodSeconds").asLong(), "must not be set for readinessProbes"));
      }
    }
    if (set(c, "startupProbe")) {
      probe(c.path("startupProbe"), gracePeriod, at + ".startupProbe", errors);
      successThresholdOne(c.path("startupProbe"), at + ".startupProbe", errors);
    }
  }

  private static void successThresholdOne(JsonNode probe, String path, List<Status.Cause> errors) {
    long threshold = probe.path("successThreshold").asLong(0);
    if (threshold != 1) {
      errors.add(FieldErrors.invalid(path + ".successThreshold", threshold, "must be 1"));
    }
  }

  private static void probe(JsonNode probe, Long gracePeriod, String path, List<Status.Cause> errors) {
    handler(probe, false, gracePeriod, path, errors);
    for (String counter : List.of("initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold",
        "failureThreshold")) {
      nonNegative(probe.path(counter), path + "." + counter, errors);
    }
    JsonNode grace = probe.path("terminationGracePeriodSeconds");
    if (grace.isIntegralNumber() && grace.longValue() <= 0) {
      errors.add(FieldErrors.invalid(path + ".terminationGracePeriodSeconds", grace.longValue(), "must be greater than 0"));
    }
  }

  /** kube's {@code validateHandler}: a probe's handlers, or (with {@code sleep}) a lifecycle hook's. */
  private static void handler(JsonNode h, boolean hook, Long gracePeriod, String path, List<Status.Cause> errors) {
    int handlers = 0;
    for (String type : hook ? List.of("exec", "httpGet", "tcpSocket", "sleep") : List.of("exec", "httpGet", "tcpSocket", "grpc")) {
      if (!set(h, type)) {
        continue;
      }
      if (handlers > 0) {
        errors.add(FieldErrors.forbidden(path + "." + type, "may not specify more than 1 handler type"));
        continue;
      }
      handlers++;
      JsonNode action = h.path(type);
      String at = path + "." + type;
      switch (type) {
        case "exec" -> {
          if (action.path("command").isEmpty()) {
            errors.add(FieldErrors.required(at + ".command", ""));
          }
        }
        case "httpGet" -> httpGet(action, at, errors);
        case "tcpSocket" -> portNumOrName(action.path("port"), at + ".port", errors);
        case "grpc" -> ContainerValidation.portNumber(action.path("port").asLong(0), at + ".port", errors);
        default -> sleep(action, gracePeriod, at, errors);
      }
    }
    if (handlers == 0) {
      errors.add(FieldErrors.required(path, "must specify a handler type"));
    }
  }

  private static void httpGet(JsonNode http, String path, List<Status.Cause> errors) {
    if (text(http, "path").isEmpty()) {
      errors.add(FieldErrors.required(path + ".path", ""));
    }
    portNumOrName(http.path("port"), path + ".port", errors);
    String scheme = text(http, "scheme");
    if (!scheme.equals("HTTP") && !scheme.equals("HTTPS")) {
      errors.add(FieldErrors.notSupported(path + ".scheme", scheme, List.of("HTTP", "HTTPS")));
    }
    for (JsonNode header : http.path("httpHeaders")) {
      String name = text(header, "name");
      if (!HEADER_NAME.matcher(name).matches()) {
        errors.add(FieldErrors.invalid(path + ".httpHeaders", name, HEADER_NAME_ERR));
      }
    }
  }

  /** kube's {@code ValidatePortNumOrName}: a number 1-65535, or a port name. */
  private static void portNumOrName(JsonNode port, String path, List<Status.Cause> errors) {
    if (port.isTextual()) {
      for (String msg : io.listwatch.api.validation.NameSyntax.isValidPortName(port.textValue())) {
        errors.add(FieldErrors.invalid(path, port.textValue(), msg));
      }
    } else {
      ContainerValidation.portNumber(port.asLong(0), path, errors);
    }
  }

  /** kube's {@code validateSleepAction}: more than 0 seconds, at most the pod's grace period. */
  private static void sleep(JsonNode sleep, Long gracePeriod, String path, List<Status.Cause> errors) {
    long seconds = sleep.path("seconds").asLong(0);
    if (gracePeriod != null && (seconds <= 0 || seconds > gracePeriod)) {
      errors.add(FieldErrors.invalid(path, seconds, "must be greater than 0 and less than terminationGracePeriodSeconds ("
          + gracePeriod + "). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep."));
    }
  }
}
