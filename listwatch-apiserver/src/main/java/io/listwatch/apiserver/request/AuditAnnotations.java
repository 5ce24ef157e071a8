package io.listwatch.apiserver.request;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.api.validation.NameSyntax;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit annotations of one request: the {@code annotations} its audit event carries (kube's
 * audit annotations, kept in the request's context, which admission plug-ins add through
 * {@code admission.Attributes.AddAnnotation} and the server's filters through
 * {@code audit.AddAuditAnnotation}). The transport that audits the request reads them when it
 * logs the event; a request nobody audits collects them for no one.
 *
 * <p>kube's rules: a key is a qualified name with a prefix ({@code pod-security.kubernetes.io/enforce-policy});
 * a key keeps its first value, and a later add of another value is logged and ignored (the
 * same add again is a no-op). An annotation is added at kube's audit level {@code Metadata},
 * so every event of a logged request carries it.
 *
 * <p>Thread-safe: a write's steps may run on different threads.
 */
public final class AuditAnnotations {

  private static final Logger LOG = LoggerFactory.getLogger(AuditAnnotations.class);
  /**
   * Keys found well formed: every request adds the same few (the authorization filter's two, each
   * plug-in's constants), which need not be checked again each time. Bounded, since a webhook's
   * keys come from its configuration.
   */
  private static final Set<String> CHECKED_KEYS = ConcurrentHashMap.newKeySet();
  private static final int MAX_CHECKED_KEYS = 1024;

  /** The annotations by key. */
  @GuardedBy("this")
  private final Map<String, String> values = new TreeMap<>();

  /**
   * kube's {@code AddAnnotation}: notes {@code key: value} for the request's audit event.
   *
   * @return false when {@code key} already has another value, which it keeps (logged, as kube does)
   * @throws IllegalArgumentException with kube's message when {@code key} is not a prefixed
   *     qualified name (kube's {@code checkKeyFormat}): a plug-in's keys are its constants
   */
  public boolean add(String key, String value) {
    checkKeyFormat(key);
    String kept;
    synchronized (this) {
      kept = values.putIfAbsent(key, value);
    }
    if (kept == null || kept.equals(value)) {
      return true;
    }
    LOG.warn("admission annotations are not allowed to be overwritten, key:\"{}\", old value: \"{}\", new value: \"{}\"",
        key, kept, value);
    return false;
  }

  /** The annotations so far, by key in order (as kube's event serializes its map). */
  public synchronized Map<String, String> map() {
    return Collections.unmodifiableMap(new TreeMap<>(values));
  }

  /** kube's {@code checkKeyFormat}: one {@code /}, and a qualified name as a whole. */
  static void checkKeyFormat(String key) {
    if (CHECKED_KEYS.contains(key)) {
      return;
    }
    if (key.split("/", -1).length != 2) {
      throw new IllegalArgumentException("annotation key has invalid format, the right format is a DNS subdomain "
          + "prefix and '/' and key name. (e.g. 'podsecuritypolicy.admission.k8s.io/admit-policy')");
    }
    List<String> msgs = NameSyntax.isQualifiedName(key);
    if (!msgs.isEmpty()) {
      throw new IllegalArgumentException("annotation key has invalid format " + String.join(",", msgs)
          + ". A qualified name like 'podsecuritypolicy.admission.k8s.io/admit-policy' is required.");
    }
    if (CHECKED_KEYS.size() < MAX_CHECKED_KEYS) {
      CHECKED_KEYS.add(key);
    }
  }
}
