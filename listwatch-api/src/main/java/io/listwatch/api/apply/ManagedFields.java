package io.listwatch.api.apply;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Reading an object's {@code metadata.managedFields}, and kube's order of its entries.
 *
 * <p>Stateless and thread-safe.
 */
public final class ManagedFields {

  /**
   * kube's order of entries: by operation (Apply before Update), time in seconds (none
   * first), manager, apiVersion, subresource.
   */
  public static final Comparator<ManagedFieldsEntry> KUBE_ORDER = Comparator
      .comparing(ManagedFieldsEntry::operation)
      .thenComparing(e -> e.time() == null ? Instant.EPOCH : e.time())
      .thenComparing(ManagedFieldsEntry::manager)
      .thenComparing(ManagedFieldsEntry::apiVersion)
      .thenComparing(ManagedFieldsEntry::subresource);

  private ManagedFields() {
  }

  /**
   * The entries of {@code object} (a mutable copy; empty when it has none).
   *
   * @throws IllegalArgumentException when managedFields is not a list of valid entries
   */
  public static List<ManagedFieldsEntry> read(JsonNode object) {
    JsonNode list = object.path("metadata").path("managedFields");
    List<ManagedFieldsEntry> out = new ArrayList<>();
    if (list.isMissingNode() || list.isNull()) {
      return out;
    }
    if (!list.isArray()) {
      throw new IllegalArgumentException("metadata.managedFields must be a list");
    }
    list.forEach(e -> out.add(ManagedFieldsEntry.fromJson(e)));
    return out;
  }
}
