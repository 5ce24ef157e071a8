package io.listwatch.server.filters;

import io.listwatch.api.StatusException;
import io.listwatch.server.audit.RequestAudit;
import io.listwatch.server.authn.Authenticator;
import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.server.authz.Attributes;
import io.listwatch.server.authz.Authorizer;
import io.listwatch.server.authz.Decision;
import io.listwatch.server.authz.Forbidden;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.ConnectionInfo;
import io.listwatch.apiserver.request.RequestInfo;
import io.listwatch.apiserver.flowcontrol.Classification;
import io.listwatch.apiserver.flowcontrol.FlowControl;
import io.listwatch.apiserver.flowcontrol.Ticket;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

/**
 * The filters every request passes before its handler, in kube-apiserver's order:
 * authentication, impersonation, the in-flight limit, authorization. Admission (defaults,
 * validation, namespace lifecycle) runs inside the handler. One instance per server; every
 * transport (HTTP/1.1, HTTP/2 streams, WebSocket upgrades) calls {@link #admitAsync} the same way.
 *
 * <p>With API Priority and Fairness ({@link Builder#flowControl}, kube's default) the
 * max-in-flight limit is not applied: the request waits in its priority level's queue instead
 * ({@link #admitAsync} completes when it may execute, or fails with a
 * {@link io.listwatch.apiserver.flowcontrol.Rejection}). Unlike kube, which classifies before
 * authorization, the request is authorized first, so a request that would be refused 403 takes
 * no seat. Long-running requests other than watches (exec, attach, log, port-forward, proxy)
 * pass APF untracked, as in kube.
 *
 * <p>Thread-safe; runs on event loops, so no step blocks.
 */
public final class HandlerChain {

  private final List<Authenticator> authenticators;
  private final boolean anonymousAuth;
  private final UnaryOperator<ApiRequest> impersonation;
  private final Authorizer authorizer;
  private final MaxInFlightLimit inFlight;
  private final WatchLimit watchLimit;
  private final FlowControl flowControl;

  private HandlerChain(Builder b) {
    this.authenticators = List.copyOf(b.authenticators);
    this.anonymousAuth = b.anonymousAuth;
    this.impersonation = b.impersonation;
    this.authorizer = b.authorizer;
    // with APF the in-flight limit only counts the requests executing (apiserver_current_inflight_requests)
    this.inFlight = b.flowControl == null ? b.inFlight : new MaxInFlightLimit(0, 0);
    this.watchLimit = b.watchLimit;
    this.flowControl = b.flowControl;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A request that passed the filters. */
  public interface Admission {
    /** The request as the handler sees it: the user set, impersonation applied. */
    ApiRequest request();

    /**
     * Ends the request's hold on the limits: call when a non-watch response is complete, and
     * when a watch ends (for any reason). Idempotent.
     */
    void release();

    /**
     * A watch has sent its initial events: it gives back its API Priority and Fairness seats
     * (kube's watch initialization signal) and keeps its place in the watch limit until
     * {@link #release()}. Idempotent.
     */
    default void initialized() {
    }

    /** kube's {@code X-Kubernetes-PF-*} headers of the request's classification (none without APF). */
    default Map<String, String> responseHeaders() {
      return Map.of();
    }
  }

  /**
   * {@link #admit(ApiRequest, RequestInfo, RequestAudit)}, then API Priority and Fairness when
   * it is on: completes when the request may execute, or fails with a
   * {@link io.listwatch.apiserver.flowcontrol.Rejection} (429). The filters before it throw
   * their refusals at once. Cancelling the returned future (the client went away while the
   * request waited) takes the request out of its queue.
   */
  public CompletableFuture<Admission> admitAsync(ApiRequest request, RequestInfo info, RequestAudit audit) {
    Admission admitted = admit(request, info, audit);
    if (flowControl == null || (MaxInFlightLimit.isLongRunning(info) && !info.verb().equals("watch"))) {
      return CompletableFuture.completedFuture(admitted);
    }
    UserInfo user = admitted.request().user();
    Ticket ticket = flowControl.admit(user, info, request.query());
    CompletableFuture<Void> dispatched = ticket.dispatched();
    if (dispatched.isDone() && !dispatched.isCancelled()) {
      // executes at once, or refused at once (its queue full): answered without a stage that
      // waits. In a flood the server refuses thousands a second, and every stage whenComplete
      // returns for a refusal would carry a CompletionException with a stack trace of its own
      if (dispatched.isCompletedExceptionally()) {
        admitted.release();
        return CompletableFuture.failedFuture(dispatched.exceptionNow());
      }
      return CompletableFuture.completedFuture(new Classified(admitted, ticket, inFlight.acquire(user, info)));
    }
    CompletableFuture<Admission> result = new CompletableFuture<>();
    dispatched.handle((v, e) -> {
      if (e != null) {
        admitted.release();
        result.completeExceptionally(e);
        return null;
      }
      Classified classified = new Classified(admitted, ticket, inFlight.acquire(user, info));
      if (!result.complete(classified)) {
        classified.release(); // cancelled while it waited
      }
      return null;
    });
    result.handle((a, e) -> {
      if (e instanceof java.util.concurrent.CancellationException) {
        ticket.cancel();
        admitted.release();
      }
      return null;
    });
    return result;
  }

  /** The headers naming {@code c}'s FlowSchema and priority level by UID, as kube's APF filter sets them. */
  public static Map<String, String> responseHeaders(Optional<Classification> c) {
    return c.map(x -> Map.of(Classification.FLOW_SCHEMA_UID_HEADER, x.flowSchemaUid(),
        Classification.PRIORITY_LEVEL_UID_HEADER, x.priorityLevelUid())).orElse(Map.of());
  }

  /**
   * Runs the filters. Returns the admitted request, or throws the Status to answer with: 401
   * for missing or invalid credentials, 403 when the user may not do this, 429 when the server
   * is at its in-flight limit or the user at the watch limit.
   */
  public Admission admit(ApiRequest request, RequestInfo info) {
    return admit(request, info, null);
  }

  /**
   * {@link #admit(ApiRequest, RequestInfo)}, telling {@code audit} (when not null) who
   * authentication found and who the request impersonates as soon as each is known, so that a
   * request refused later is audited with its user.
   */
  public Admission admit(ApiRequest request, RequestInfo info, RequestAudit audit) {
    ApiRequest authenticated = request.withUser(authenticate(request, info));
    if (audit != null) {
      audit.authenticated(authenticated.user());
    }
    ApiRequest effective = impersonation.apply(authenticated);
    if (audit != null && effective != authenticated) { // impersonation returns the request itself when not asked for
      audit.impersonated(effective.user());
    }
    MaxInFlightLimit.Slot slot = flowControl == null ? inFlight.acquire(effective.user(), info)
        : MaxInFlightLimit.Slot.NONE;
    try {
      authorize(effective, info, audit);
      MaxInFlightLimit.Slot watch = info.verb().equals("watch")
          ? watchLimit.acquire(effective.user()) : MaxInFlightLimit.Slot.NONE;
      return new Admitted(effective, slot, watch);
    } catch (RuntimeException e) {
      slot.release();
      throw e;
    }
  }

  /** API Priority and Fairness, if it is on (for its metrics). */
  public Optional<FlowControl> flowControl() {
    return Optional.ofNullable(flowControl);
  }

  /** The in-flight limit (for its metrics). */
  public MaxInFlightLimit inFlightLimit() {
    return inFlight;
  }

  private UserInfo authenticate(ApiRequest request, RequestInfo info) {
    if (request.connection().listener() == ConnectionInfo.Listener.INSECURE) {
      LocalHostCheck.check(request.host());
      return UserInfo.UNSECURED;
    }
    for (Authenticator a : authenticators) {
      Optional<UserInfo> user = a.authenticate(request);
      if (user.isPresent()) {
        return user.get().authenticated();
      }
    }
    if (anonymousAuth) {
      return UserInfo.ANONYMOUS;
    }
    throw StatusException.unauthorized();
  }

  /** kube's authorization filter's audit annotations: its decision, and the authorizer's reason. */
  static final String DECISION_ANNOTATION = "authorization.k8s.io/decision";
  static final String REASON_ANNOTATION = "authorization.k8s.io/reason";

  private void authorize(ApiRequest request, RequestInfo info, RequestAudit audit) {
    UserInfo user = request.user();
    if (user.inGroup(UserInfo.MASTERS)) {
      annotate(audit, "allow", ""); // kube's privileged-groups authorizer comes first, and gives no reason
      return;
    }
    Attributes attributes = Attributes.of(user, info, request.query());
    Decision d = authorizer.authorize(attributes);
    if (d.allowed()) {
      annotate(audit, "allow", d.reason());
      return;
    }
    annotate(audit, "forbid", d.reason());
    if (user.name().equals(UserInfo.ANONYMOUS_NAME)) {
      // a request without credentials that anonymous may not make: ask for credentials
      throw StatusException.unauthorized();
    }
    throw Forbidden.of(attributes, d.reason());
  }

  private static void annotate(RequestAudit audit, String decision, String reason) {
    if (audit != null) {
      audit.annotations().add(DECISION_ANNOTATION, decision);
      audit.annotations().add(REASON_ANNOTATION, reason == null ? "" : reason);
    }
  }

  /** Thread-safe: release runs at most once. */
  private static final class Admitted implements Admission {
    private final java.util.concurrent.atomic.AtomicBoolean released = new java.util.concurrent.atomic.AtomicBoolean();
    private final ApiRequest request;
    private final MaxInFlightLimit.Slot inFlight;
    private final MaxInFlightLimit.Slot watch;

    Admitted(ApiRequest request, MaxInFlightLimit.Slot inFlight, MaxInFlightLimit.Slot watch) {
      this.request = request;
      this.inFlight = inFlight;
      this.watch = watch;
    }

    @Override
    public ApiRequest request() {
      return request;
    }

    @Override
    public void release() {
      if (released.compareAndSet(false, true)) {
        inFlight.release();
        watch.release();
      }
    }
  }

  /** An admission holding seats in API Priority and Fairness as well. Thread-safe. */
  private static final class Classified implements Admission {
    private final Admission admitted;
    private final Ticket ticket;
    /** Counts the request in {@code apiserver_current_inflight_requests} while it executes. */
    private final MaxInFlightLimit.Slot executing;
    private final java.util.concurrent.atomic.AtomicBoolean counted = new java.util.concurrent.atomic.AtomicBoolean(true);

    Classified(Admission admitted, Ticket ticket, MaxInFlightLimit.Slot executing) {
      this.admitted = admitted;
      this.ticket = ticket;
      this.executing = executing;
    }

    private void stopCounting() {
      if (counted.compareAndSet(true, false)) {
        executing.release();
      }
    }

    @Override
    public ApiRequest request() {
      return admitted.request();
    }

    @Override
    public void release() {
      ticket.finish();
      stopCounting();
      admitted.release();
    }

    @Override
    public void initialized() {
      ticket.finish();
      stopCounting();
    }

    @Override
    public Map<String, String> responseHeaders() {
      return HandlerChain.responseHeaders(ticket.classification());
    }
  }

  /**
   * Configures a {@link HandlerChain}. Defaults: no authenticators, anonymous on, no
   * impersonation, AlwaysAllow, kube's in-flight limits, {@link WatchLimit#DEFAULT_MAX_WATCHES_PER_USER}.
   */
  public static final class Builder {
    private List<Authenticator> authenticators = List.of();
    private boolean anonymousAuth = true;
    private UnaryOperator<ApiRequest> impersonation = UnaryOperator.identity();
    private Authorizer authorizer = Authorizer.ALWAYS_ALLOW;
    private MaxInFlightLimit inFlight = new MaxInFlightLimit(MaxInFlightLimit.DEFAULT_MAX_REQUESTS_INFLIGHT,
        MaxInFlightLimit.DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT);
    private WatchLimit watchLimit = new WatchLimit(WatchLimit.DEFAULT_MAX_WATCHES_PER_USER);
    private FlowControl flowControl;

    private Builder() {
    }

    /** Asked in order; the first that recognizes the request's credentials decides. */
    public Builder authenticators(List<Authenticator> authenticators) {
      this.authenticators = List.copyOf(authenticators);
      return this;
    }

    /** {@code --anonymous-auth}: requests without credentials act as system:anonymous (default true). */
    public Builder anonymousAuth(boolean on) {
      this.anonymousAuth = on;
      return this;
    }

    /** Applies {@code Impersonate-*} headers (throws 403 when the user may not impersonate). */
    public Builder impersonation(UnaryOperator<ApiRequest> impersonation) {
      this.impersonation = Objects.requireNonNull(impersonation);
      return this;
    }

    public Builder authorizer(Authorizer authorizer) {
      this.authorizer = Objects.requireNonNull(authorizer);
      return this;
    }

    /**
     * {@code --max-requests-inflight} and {@code --max-mutating-requests-inflight}; with
     * {@link #flowControl} they only size it, and the chain counts without limiting.
     */
    public Builder maxInFlight(MaxInFlightLimit limit) {
      this.inFlight = Objects.requireNonNull(limit);
      return this;
    }

    /**
     * API Priority and Fairness ({@code --enable-priority-and-fairness}), which replaces the
     * max-in-flight limit; null (the default here) keeps max-in-flight.
     */
    public Builder flowControl(FlowControl flowControl) {
      this.flowControl = flowControl;
      return this;
    }

    /** {@code --max-watches-per-user}. */
    public Builder watchLimit(WatchLimit limit) {
      this.watchLimit = Objects.requireNonNull(limit);
      return this;
    }

    public HandlerChain build() {
      return new HandlerChain(this);
    }
  }
}
