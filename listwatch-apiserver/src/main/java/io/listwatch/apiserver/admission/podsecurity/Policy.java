package io.listwatch.apiserver.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A namespace's Pod Security policy (kube's {@code api.Policy}): the level and version each mode
 * evaluates pods against. {@code enforce} refuses a pod that violates it, {@code warn} answers
 * with a warning, {@code audit} notes the violation in the audit event.
 *
 * @param enforce what a pod must satisfy to be created
 * @param audit what violations the audit event notes
 * @param warn what violations the client is warned of
 *
 * <p>Immutable.
 */
public record Policy(LevelVersion enforce, LevelVersion audit, LevelVersion warn) {

  /** kube's default configuration: every mode {@code privileged:latest}, so everything goes. */
  public static final Policy DEFAULT = new Policy(new LevelVersion(Level.PRIVILEGED, Version.LATEST),
      new LevelVersion(Level.PRIVILEGED, Version.LATEST), new LevelVersion(Level.PRIVILEGED, Version.LATEST));

  static final String PREFIX = "pod-security.kubernetes.io/";
  static final String ENFORCE = PREFIX + "enforce";
  static final String ENFORCE_VERSION = PREFIX + "enforce-version";
  static final String AUDIT = PREFIX + "audit";
  static final String AUDIT_VERSION = PREFIX + "audit-version";
  static final String WARN = PREFIX + "warn";
  static final String WARN_VERSION = PREFIX + "warn-version";

  /**
   * A policy read from a namespace's labels, and what was wrong with them.
   *
   * @param policy always a policy to evaluate: a bad enforce level reads as {@code restricted}
   *     (fail closed), a bad warn or audit level as {@code privileged} (fail open), a bad version
   *     as {@code latest}
   * @param errors kube's field errors on {@code metadata.labels[...]}, empty when all is valid
   */
  public record Parsed(Policy policy, List<Status.Cause> errors) {
  }

  /** Whether no mode checks anything. */
  public boolean fullyPrivileged() {
    return enforce.level() == Level.PRIVILEGED && audit.level() == Level.PRIVILEGED
        && warn.level() == Level.PRIVILEGED;
  }

  /**
   * kube's {@code PolicyToEvaluate}: the policy of a namespace whose {@code metadata.labels} are
   * {@code labels} (missing or null for none), modes it does not label taking {@link #DEFAULT}'s.
   */
  public static Parsed fromLabels(JsonNode labels) {
    List<Status.Cause> errors = new ArrayList<>();
    Label labelsRead = new Label(labels == null ? MissingNode.getInstance() : labels, errors);
    LevelVersion enforce = new LevelVersion(labelsRead.level(ENFORCE, DEFAULT.enforce.level(), Level.RESTRICTED),
        labelsRead.version(ENFORCE_VERSION, DEFAULT.enforce.version()));
    LevelVersion audit = new LevelVersion(labelsRead.level(AUDIT, DEFAULT.audit.level(), Level.PRIVILEGED),
        labelsRead.version(AUDIT_VERSION, DEFAULT.audit.version()));
    LevelVersion warn = new LevelVersion(labelsRead.level(WARN, DEFAULT.warn.level(), Level.PRIVILEGED),
        labelsRead.version(WARN_VERSION, DEFAULT.warn.version()));
    return new Parsed(new Policy(enforce, audit, warn), List.copyOf(errors));
  }

  /** Reads the labels of one namespace, noting each bad value. */
  private record Label(JsonNode labels, List<Status.Cause> errors) {

    Level level(String key, Level unset, Level whenInvalid) {
      return read(key, Level::parse, Level.INVALID).orElse(labels.hasNonNull(key) ? whenInvalid : unset);
    }

    Version version(String key, Version unset) {
      return read(key, Version::parse, Version.INVALID).orElse(labels.hasNonNull(key) ? Version.LATEST : unset);
    }

    private <T> Optional<T> read(String key, Function<String, Optional<T>> parse, String invalid) {
      if (!labels.hasNonNull(key)) {
        return Optional.empty();
      }
      String value = labels.get(key).asText();
      Optional<T> parsed = parse.apply(value);
      if (parsed.isEmpty()) {
        errors.add(FieldErrors.invalid("metadata.labels[" + key + "]", value, invalid));
      }
      return parsed;
    }
  }
}
