package io.listwatch.server.audit;

import io.listwatch.api.Status;
import io.listwatch.api.clock.Clock;
import io.listwatch.apiserver.request.AuditAnnotations;
import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.apiserver.request.RequestInfo;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.util.NetUtil;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One request's audit record, as kube's audit filters keep it in the request context: created
 * when the request arrives (which fixes its {@link #auditId()} and received time), told what the
 * request is ({@link #requestInfo}) and who sent it ({@link #authenticated}, {@link #impersonated})
 * as the filters learn it, collecting the request's {@link #annotations()} (which admission
 * plug-ins add to), and handed to the {@link AuditBackend} when the response starts (a
 * watch) and when it is complete. Each stage is logged at most once.
 *
 * <p>Confined to the thread that serves the request (its connection's event loop).
 */
public final class RequestAudit {

  /** kube's header for the audit id, read from the request (when a proxy set one) and always answered. */
  public static final String AUDIT_ID_HEADER = "Audit-Id";

  private final AuditBackend backend;
  private final Clock clock;
  private final String auditId;
  private final Instant received;
  private final String method;
  private final String requestUri;
  /** Read from the request at once (its headers are not kept for a watch's whole life); null when not auditing. */
  private final List<String> sourceIps;
  private final String userAgent;
  /** Thread-safe itself: the core adds to it on whichever thread runs the write. */
  private final AuditAnnotations annotations = new AuditAnnotations();
  private RequestInfo info;
  private UserInfo user;
  private UserInfo impersonatedUser;
  private boolean started;
  private boolean completed;

  private RequestAudit(AuditBackend backend, Clock clock, String method, String requestUri, HttpHeaders headers,
      SocketAddress remote) {
    this.backend = backend;
    this.clock = clock;
    this.received = clock.now();
    String sent = headers.get(AUDIT_ID_HEADER);
    this.auditId = sent != null && !sent.isBlank() ? sent.trim() : randomId();
    this.method = method;
    this.requestUri = requestUri;
    this.sourceIps = backend.enabled() ? sourceIps(headers, remote) : null;
    this.userAgent = headers.get("User-Agent");
  }

  /** A request that has just arrived with this method, URI and headers from {@code remote}. */
  public static RequestAudit begin(AuditBackend backend, Clock clock, String method, String requestUri,
      HttpHeaders headers, SocketAddress remote) {
    return new RequestAudit(backend, clock, method, requestUri, headers, remote);
  }

  /**
   * A random (version 4) UUID. Audit ids only need to be unique, not unguessable, so they come
   * from the thread's fast generator rather than the shared secure one.
   */
  static String randomId() {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    long msb = (r.nextLong() & ~0xF000L) | 0x4000L;
    long lsb = (r.nextLong() & ~(0xC000000000000000L)) | 0x8000000000000000L;
    return new UUID(msb, lsb).toString();
  }

  public String auditId() {
    return auditId;
  }

  /**
   * Where the request's audit annotations are collected: the core's request
   * ({@link io.listwatch.apiserver.request.ApiRequest#auditAnnotations()}) is made with these, and
   * each event logged carries what they hold by then (kube: level Metadata and above).
   */
  public AuditAnnotations annotations() {
    return annotations;
  }

  /** Sets the {@code Audit-Id} header on a response to this request. */
  public void stamp(HttpResponse response) {
    response.headers().set(AUDIT_ID_HEADER, auditId);
  }

  /** What the request is (unknown for a request whose path could not be read). */
  public void requestInfo(RequestInfo info) {
    this.info = info;
  }

  /** Who authentication found the request came from. */
  public void authenticated(UserInfo user) {
    this.user = user;
  }

  /** Who the request acts as through {@code Impersonate-*} headers. */
  public void impersonated(UserInfo user) {
    this.impersonatedUser = user;
  }

  /** A long-running request's response head was sent with {@code code}: stage ResponseStarted. */
  public void responseStarted(int code) {
    if (started || completed) {
      return;
    }
    started = true;
    log(AuditEvent.RESPONSE_STARTED, AuditEvent.ResponseStatus.of(code));
  }

  /** The response is complete; {@code status} is the Status it carried, if it was one (else null). */
  public void responseComplete(int code, Status status) {
    if (completed) {
      return;
    }
    completed = true;
    log(AuditEvent.RESPONSE_COMPLETE, AuditEvent.ResponseStatus.of(code, status));
  }

  private void log(String stage, AuditEvent.ResponseStatus status) {
    if (!backend.enabled()) {
      return;
    }
    String verb = info != null ? info.verb() : method.toLowerCase(Locale.ROOT);
    backend.process(new AuditEvent(AuditEvent.KIND, AuditEvent.API_VERSION, AuditEvent.LEVEL_METADATA, auditId,
        stage, requestUri, verb, user == null ? AuditEvent.User.NONE : AuditEvent.User.of(user),
        impersonatedUser == null ? null : AuditEvent.User.of(impersonatedUser), sourceIps,
        userAgent, AuditEvent.ObjectReference.of(info), status, AuditEvent.microTime(received),
        AuditEvent.microTime(clock.now()), annotations.map()));
  }

  /**
   * kube's source IPs: the {@code X-Forwarded-For} addresses in order, else {@code X-Real-Ip},
   * then the connection's peer unless it is the last one already.
   */
  static List<String> sourceIps(HttpHeaders headers, SocketAddress remote) {
    List<String> ips = new ArrayList<>();
    String forwarded = headers.get("X-Forwarded-For");
    if (forwarded != null) {
      for (String part : forwarded.split(",")) {
        String ip = part.trim();
        if (NetUtil.isValidIpV4Address(ip) || NetUtil.isValidIpV6Address(ip)) {
          ips.add(ip);
        }
      }
    }
    if (ips.isEmpty()) {
      String real = headers.get("X-Real-Ip");
      if (real != null && (NetUtil.isValidIpV4Address(real.trim()) || NetUtil.isValidIpV6Address(real.trim()))) {
        ips.add(real.trim());
      }
    }
    if (remote instanceof InetSocketAddress a && a.getAddress() != null) {
      String peer = NetUtil.toAddressString(a.getAddress());
      if (ips.isEmpty() || !ips.getLast().equals(peer)) {
        ips.add(peer);
      }
    }
    return ips;
  }
}
