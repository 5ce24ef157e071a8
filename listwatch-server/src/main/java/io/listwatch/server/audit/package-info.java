/**
 * kube-apiserver's audit log: one {@code audit.k8s.io/v1} {@link io.listwatch.server.audit.AuditEvent}
 * per request at level {@code Metadata}, written as a JSON line.
 * <ul>
 *   <li>{@link io.listwatch.server.audit.RequestAudit}: one request's audit state, from arrival
 *       (its {@code Audit-Id}) to its response, fed by the transport, with the audit annotations
 *       the core's admission plug-ins note (each event's {@code annotations});
 *   <li>{@link io.listwatch.server.audit.AuditBackend}: where events go;
 *       {@link io.listwatch.server.audit.AuditLogBackend} writes them to a file or standard output
 *       from one background thread, so that no event loop waits on the disk.
 * </ul>
 */
package io.listwatch.server.audit;
