package io.listwatch.apiserver.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.registry.ResourceRegistry;
import java.util.concurrent.CompletionException;

/** Attributes of writes and the refusals of a plug-in's two phases, for the plug-ins' unit tests. Stateless. */
final class Admissions {

  private Admissions() {
  }

  /** A create of {@code json} in {@code namespace} of {@code group}/{@code version}/{@code plural}. */
  static AdmissionAttributes create(String group, String version, String plural, String namespace, String json) {
    return write(AdmissionAttributes.Operation.CREATE, group, version, plural, namespace, json, null);
  }

  /** An update of {@code oldJson} to {@code json}. */
  static AdmissionAttributes update(String group, String version, String plural, String namespace, String json,
      String oldJson) {
    return write(AdmissionAttributes.Operation.UPDATE, group, version, plural, namespace, json, oldJson);
  }

  private static AdmissionAttributes write(AdmissionAttributes.Operation op, String group, String version,
      String plural, String namespace, String json, String oldJson) {
    ObjectNode obj = InMemoryCore.json(json);
    return new AdmissionAttributes(op, ResourceRegistry.builtins().find(group, version, plural).orElseThrow(), "",
        namespace, obj.path("metadata").path("name").asText(""), obj, oldJson == null ? null : InMemoryCore.json(oldJson),
        AdmissionAttributes.SERVER, false);
  }

  /** A pod create of {@code json} in {@code ns}. */
  static AdmissionAttributes createPod(String ns, String json) {
    return create("", "v1", "pods", ns, json);
  }

  /** Both phases of {@code plugin}; the refusal, or null when admitted. */
  static StatusException refusal(AdmissionPlugin plugin, AdmissionAttributes a) {
    Throwable e = catchThrowable(() -> {
      plugin.admit(a);
      plugin.validate(a).join();
    });
    if (e == null) {
      return null;
    }
    Throwable cause = e instanceof CompletionException ? e.getCause() : e;
    assertThat(cause).isInstanceOf(StatusException.class);
    return (StatusException) cause;
  }

  /** Both phases of {@code plugin}, which must let {@code a} through; returns its object. */
  static ObjectNode admitted(AdmissionPlugin plugin, AdmissionAttributes a) {
    assertThat(refusal(plugin, a)).as("refusal").isNull();
    return a.object();
  }
}
