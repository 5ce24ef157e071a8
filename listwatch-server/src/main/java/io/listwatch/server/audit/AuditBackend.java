package io.listwatch.server.audit;

/**
 * Where audit events go (kube's {@code audit.Backend}). Implementations are thread-safe and
 * {@link #process} never blocks: it is called from event loops.
 */
public interface AuditBackend extends AutoCloseable {

  /** No auditing: events are not even built. */
  AuditBackend NONE = new AuditBackend() {
    @Override
    public boolean enabled() {
      return false;
    }

    @Override
    public void process(AuditEvent event) {
    }

    @Override
    public void close() {
    }
  };

  /** False when events would be thrown away, so callers need not build them. */
  default boolean enabled() {
    return true;
  }

  /** Takes one event. Returns at once (the event may be written later, or dropped when overloaded). */
  void process(AuditEvent event);

  /** Writes what was taken and releases the backend. Idempotent. */
  @Override
  void close();
}
