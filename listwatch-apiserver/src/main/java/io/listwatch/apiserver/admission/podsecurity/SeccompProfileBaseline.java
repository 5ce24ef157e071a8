package io.listwatch.apiserver.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Baseline {@code seccompProfile_baseline} (kube's {@code check_seccompProfile_baseline.go}): a
 * seccomp profile, where one is set, is the runtime's default or a local one. v1.0 to v1.18 read
 * the alpha annotations ({@code seccomp.security.alpha.kubernetes.io/pod},
 * {@code container.seccomp.security.alpha.kubernetes.io/<name>}: {@code runtime/default},
 * {@code docker/default}, {@code localhost/*}); from v1.19 the fields
 * ({@code securityContext.seccompProfile.type}: {@code RuntimeDefault}, {@code Localhost}).
 * Restricted replaces it with {@link SeccompProfileRestricted} from v1.19. Stateless.
 */
final class SeccompProfileBaseline {

  static final String ID = "seccompProfile_baseline";
  static final String POD_ANNOTATION = "seccomp.security.alpha.kubernetes.io/pod";
  static final String CONTAINER_ANNOTATION_PREFIX = "container.seccomp.security.alpha.kubernetes.io/";

  private SeccompProfileBaseline() {
  }

  static Check check() {
    return new Check(ID, Level.BASELINE, List.of(
        new Check.Versioned(Version.of(0), SeccompProfileBaseline::v1_0, List.of()),
        new Check.Versioned(Version.of(19), SeccompProfileBaseline::v1_19, List.of())));
  }

  private static boolean validAnnotation(String value) {
    return value.equals("runtime/default") || value.equals("docker/default") || value.startsWith("localhost/");
  }

  static CheckResult v1_0(JsonNode metadata, JsonNode spec) {
    JsonNode annotations = metadata.path("annotations");
    List<String> keys = new ArrayList<>();
    keys.add(POD_ANNOTATION);
    for (JsonNode c : Containers.of(spec)) {
      keys.add(CONTAINER_ANNOTATION_PREFIX + Containers.name(c));
    }
    TreeSet<String> forbidden = new TreeSet<>();
    for (String key : keys) {
      if (annotations.hasNonNull(key) && !validAnnotation(annotations.get(key).asText())) {
        forbidden.add(Messages.keyValue(key, annotations.get(key).asText()));
      }
    }
    return forbidden.isEmpty() ? CheckResult.ALLOWED : CheckResult.forbidden("seccompProfile", "forbidden "
        + Messages.pluralize("annotation", "annotations", forbidden.size()) + " " + String.join(", ", forbidden));
  }

  /**
   * The seccomp profiles a pod sets explicitly (the fields, v1.19 on).
   *
   * @param badPod whether the pod's profile is set to a bad type
   * @param podValid whether the pod's profile is set to a good type
   * @param badContainers the containers whose profile is set to a bad type
   * @param unsetContainers the containers that set no profile
   * @param badValues the bad types, sorted
   */
  record Explicit(boolean badPod, boolean podValid, List<String> badContainers, List<String> unsetContainers,
      TreeSet<String> badValues) {

    static Explicit of(JsonNode spec) {
      TreeSet<String> badValues = new TreeSet<>();
      JsonNode podProfile = Containers.securityContext(spec).path("seccompProfile");
      boolean podSet = Containers.set(podProfile);
      boolean podValid = podSet && valid(podProfile);
      if (podSet && !podValid) {
        badValues.add(podProfile.path("type").asText(""));
      }
      List<String> bad = new ArrayList<>();
      List<String> unset = new ArrayList<>();
      for (JsonNode c : Containers.of(spec)) {
        JsonNode profile = Containers.securityContext(c).path("seccompProfile");
        if (!Containers.set(profile)) {
          unset.add(Containers.name(c));
        } else if (!valid(profile)) {
          bad.add(Containers.name(c));
          badValues.add(profile.path("type").asText(""));
        }
      }
      return new Explicit(podSet && !podValid, podValid, bad, unset, badValues);
    }

    private static boolean valid(JsonNode profile) {
      String type = profile.path("type").asText("");
      return type.equals("RuntimeDefault") || type.equals("Localhost");
    }

    /** The failure for the bad types set, if any was. */
    Optional<CheckResult> failure() {
      List<String> setters = Messages.setters(badPod, badContainers);
      return setters.isEmpty() ? Optional.empty() : Optional.of(CheckResult.forbidden(
          "seccompProfile", String.join(" and ", setters) + " must not set securityContext.seccompProfile.type to "
              + Messages.joinQuote(badValues)));
    }
  }

  static CheckResult v1_19(JsonNode metadata, JsonNode spec) {
    return Explicit.of(spec).failure().orElse(CheckResult.ALLOWED);
  }
}
