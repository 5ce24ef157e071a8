package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import java.util.regex.Pattern;

/**
 * A DaemonSet's template generation, as kube 1.32 keeps it: kube's internal
 * {@code spec.templateGeneration}, which apps/v1 carries in the annotation
 * {@code deprecated.daemonset.template.generation} (its conversion reads the annotation into
 * the field and writes the field back into the annotation, so every stored DaemonSet has it).
 * The strategy owns the value: a create gets the client's value if it is at least 1, else 1;
 * an update (and a {@code /status} write) keeps the stored value, plus one when the pod
 * template changed. A client's value that is not a Go {@code int64}
 * ({@code strconv.ParseInt}) is refused 400 as kube's decoder refuses it. kube's validation of
 * the field (not negative; on update not decremented, incremented exactly when the template
 * changes) can therefore never fail through the API, and is not ported. Stateless.
 */
final class DaemonSetTemplateGeneration {

  /** kube's {@code appsv1.DeprecatedTemplateGeneration}. */
  static final String ANNOTATION = "deprecated.daemonset.template.generation";
  private static final Pattern INT64 = Pattern.compile("[+-]?[0-9]+");

  private DaemonSetTemplateGeneration() {
  }

  /** kube's {@code PrepareForCreate}: the client's generation if at least 1, else 1. */
  static void onCreate(ObjectNode obj) {
    long given = clientValue(obj);
    set(obj, Math.max(given, 1));
  }

  /**
   * kube's {@code PrepareForUpdate} ({@code templateChanges}) and the status strategy's (not):
   * the stored generation, plus one when the template changed.
   */
  static void onUpdate(ObjectNode obj, ObjectNode old, boolean templateChanges) {
    clientValue(obj);
    long stored = stored(old);
    boolean changed = templateChanges && !obj.path("spec").path("template").equals(old.path("spec").path("template"));
    set(obj, changed ? stored + 1 : stored);
  }

  /** The generation the client's annotation gives (0 without one), or the decoder's 400. */
  private static long clientValue(ObjectNode obj) {
    JsonNode value = obj.path("metadata").path("annotations").get(ANNOTATION);
    if (value == null || !value.isTextual()) {
      return 0;
    }
    String text = value.textValue();
    String error = null;
    if (!INT64.matcher(text).matches()) {
      error = "invalid syntax";
    } else {
      try {
        return Long.parseLong(text);
      } catch (NumberFormatException e) {
        error = "value out of range";
      }
    }
    throw StatusException.badRequest("DaemonSet in version \"v1\" cannot be handled as a DaemonSet: strconv.ParseInt: parsing "
        + io.listwatch.apiserver.validation.FieldErrors.goValue(text) + ": " + error);
  }

  /** The stored object's generation (0 for one stored without the annotation). */
  private static long stored(ObjectNode old) {
    try {
      return Long.parseLong(old.path("metadata").path("annotations").path(ANNOTATION).asText("0"));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static void set(ObjectNode obj, long generation) {
    ObjectNode metadata = Fields.object(obj, "metadata", true);
    Fields.object(metadata, "annotations", true).put(ANNOTATION, Long.toString(generation));
  }
}
