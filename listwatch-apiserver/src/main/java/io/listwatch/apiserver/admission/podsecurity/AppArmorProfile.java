package io.listwatch.apiserver.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Baseline {@code appArmorProfile} (kube's {@code check_appArmorProfile.go}), from v1.0: the pod
 * and its containers set {@code securityContext.appArmorProfile.type} only to
 * {@code RuntimeDefault} or {@code Localhost}, and the deprecated annotations
 * {@code container.apparmor.security.beta.kubernetes.io/*} only to {@code runtime/default},
 * {@code localhost/*} or "". Stateless.
 */
final class AppArmorProfile {

  static final String ANNOTATION_PREFIX = "container.apparmor.security.beta.kubernetes.io/";

  private AppArmorProfile() {
  }

  static Check check() {
    return Check.of("appArmorProfile", Level.BASELINE, 0, AppArmorProfile::v1_0);
  }

  private static boolean allowedType(JsonNode profile) {
    String type = profile.path("type").asText("");
    return type.equals("RuntimeDefault") || type.equals("Localhost");
  }

  private static boolean allowedAnnotation(String value) {
    return value.isEmpty() || value.equals("runtime/default") || value.startsWith("localhost/");
  }

  static CheckResult v1_0(JsonNode metadata, JsonNode spec) {
    TreeSet<String> badValues = new TreeSet<>();
    JsonNode podProfile = Containers.securityContext(spec).path("appArmorProfile");
    boolean badPod = Containers.set(podProfile) && !allowedType(podProfile);
    if (badPod) {
      badValues.add(podProfile.path("type").asText(""));
    }
    List<String> badContainers = new ArrayList<>();
    for (JsonNode c : Containers.of(spec)) {
      JsonNode profile = Containers.securityContext(c).path("appArmorProfile");
      if (Containers.set(profile) && !allowedType(profile)) {
        badContainers.add(Containers.name(c));
        badValues.add(profile.path("type").asText(""));
      }
    }
    List<String> setters = Messages.setters(badPod, badContainers);
    List<String> values = new ArrayList<>(badValues);
    TreeSet<String> annotations = new TreeSet<>();
    for (Map.Entry<String, JsonNode> a : metadata.path("annotations").properties()) {
      if (a.getKey().startsWith(ANNOTATION_PREFIX) && !allowedAnnotation(a.getValue().asText(""))) {
        annotations.add(Messages.keyValue(a.getKey(), a.getValue().asText("")));
      }
    }
    if (!annotations.isEmpty()) {
      values.addAll(annotations);
      setters.add(Messages.pluralize("annotation", "annotations", annotations.size()));
    }
    if (setters.isEmpty()) {
      return CheckResult.ALLOWED;
    }
    return CheckResult.forbidden(
        Messages.pluralize("forbidden AppArmor profile", "forbidden AppArmor profiles", values.size()),
        String.join(" and ", setters) + " must not set AppArmor profile type to " + Messages.joinQuote(values));
  }
}
