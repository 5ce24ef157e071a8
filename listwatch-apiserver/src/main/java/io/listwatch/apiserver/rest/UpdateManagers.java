package io.listwatch.apiserver.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.apply.FieldManager;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.request.ApiRequest;
import java.time.Instant;

/**
 * Ownership of ordinary writes (create, update, JSON and merge patches): each records an
 * entry with operation Update in {@code metadata.managedFields} for its manager
 * ({@link FieldManager#update}), so that server-side apply conflicts with imperative writers as
 * in kube. The manager is the {@code fieldManager} parameter, else the program name the
 * User-Agent starts with (what precedes its first {@code /}, without unprintable characters,
 * at most 128 bytes), as kube names it: {@code kubectl/v1.32.0 (linux/amd64) ...} is
 * {@code kubectl}.
 *
 * <p>What the write may not change is taken from the stored object before the comparison, as
 * kube resets those fields: the status of the main resource of a kind with a status
 * subresource; on {@code /status}, everything but the status (and, for built-in kinds, the
 * metadata). Stateless; thread-safe.
 */
final class UpdateManagers {

  /** kube's {@code FieldManagerMaxLength}. */
  private static final int MAX_LENGTH = 128;

  private UpdateManagers() {
  }

  /** The manager of a write: the {@code fieldManager} parameter, else from the User-Agent. */
  static String manager(ApiRequest request) {
    String given = request.param("fieldManager");
    if (!given.isEmpty()) {
      return given;
    }
    String agent = request.header("User-Agent");
    if (agent == null) {
      return "";
    }
    int slash = agent.indexOf('/');
    String program = slash < 0 ? agent : agent.substring(0, slash);
    StringBuilder out = new StringBuilder();
    int bytes = 0;
    for (int i = 0; i < program.length(); ) {
      int cp = program.codePointAt(i);
      i += Character.charCount(cp);
      if (!isPrint(cp)) {
        continue;
      }
      int size = new String(Character.toChars(cp)).getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
      if (bytes + size > MAX_LENGTH) {
        break;
      }
      bytes += size;
      out.appendCodePoint(cp);
    }
    return out.toString();
  }

  /** Go's {@code unicode.IsPrint}: letters, marks, numbers, punctuation, symbols and the ASCII space. */
  private static boolean isPrint(int cp) {
    if (cp == ' ') {
      return true;
    }
    return switch (Character.getType(cp)) {
      case Character.UNASSIGNED, Character.CONTROL, Character.FORMAT, Character.PRIVATE_USE, Character.SURROGATE,
          Character.SPACE_SEPARATOR, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR -> false;
      default -> true;
    };
  }

  /**
   * {@code written} with its managedFields recording this write.
   *
   * @param live the stored object, null for a create
   * @param subresource the subresource the write came through ("" for the main resource); a
   *     subresource other than {@code status} takes {@code written} as it is, already reduced to
   *     what it may change
   */
  static ObjectNode record(ResourceDefinition def, FieldManager fieldManager, String manager, ObjectNode live,
      ObjectNode written, String subresource, Instant now) {
    boolean status = subresource.equals("status") || subresource.equals("approval"); // both write the status
    ObjectNode compared = written;
    if (live != null && def.hasStatus()) {
      compared = written.deepCopy();
      if (status) {
        for (var it = live.properties().iterator(); it.hasNext(); ) {
          var e = it.next();
          boolean kept = e.getKey().equals("status")
              || e.getKey().equals("metadata") && def.customResource().isEmpty();
          if (!kept) {
            compared.set(e.getKey(), e.getValue().deepCopy());
          }
        }
        if (def.customResource().isPresent()) {
          JsonNode managed = written.path("metadata").get("managedFields");
          ObjectNode meta = live.path("metadata").deepCopy();
          if (managed == null) {
            meta.remove("managedFields");
          } else {
            meta.set("managedFields", managed);
          }
          compared.set("metadata", meta);
        }
      } else if (live.has("status")) {
        compared.set("status", live.get("status").deepCopy());
      } else {
        compared.remove("status");
      }
    }
    JsonNode base = live == null ? null : live;
    try {
      return (ObjectNode) fieldManager.update(base, compared, manager, def.apiVersion(), subresource, now).object();
    } catch (IllegalArgumentException e) {
      // kube's UpdateNoErrors: an object the field manager cannot read as its type (a list
      // element without its merge key, a null element) is no reason to fail the write; its
      // managedFields are cleared, and validation decides about the object itself
      long second = now.getEpochSecond();
      if (LAST_LOGGED_SECOND.getAndSet(second) != second) {
        LOG.error("[SHOULD NOT HAPPEN] failed to update managedFields of {} {}: {}", def.kind(),
            written.path("metadata").path("name").asText(""), e.getMessage());
      }
      if (written.get("metadata") instanceof ObjectNode meta) {
        meta.remove("managedFields");
      }
      return written;
    }
  }

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(UpdateManagers.class);
  /** At most one such error a second in the log, as kube. */
  private static final java.util.concurrent.atomic.AtomicLong LAST_LOGGED_SECOND =
      new java.util.concurrent.atomic.AtomicLong();
}
