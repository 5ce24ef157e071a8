package io.listwatch.server.authn;

import io.listwatch.api.clock.Clock;
import io.listwatch.apiserver.cacher.Cacher;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import io.listwatch.apiserver.rest.ApiRoutes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's authentication settings, as kube-apiserver's flags name them, and the wiring
 * they produce: the token authenticators for the request filters, and the REST handlers of
 * TokenRequest ({@code serviceaccounts/token}), TokenReview and SelfSubjectReview. Immutable;
 * {@link #install} is called once per server start.
 *
 * <p>Defaults: no token file; service-account tokens signed by a key generated into the data
 * directory; issuer {@value #DEFAULT_ISSUER}; API audiences = the issuers; anonymous requests
 * allowed.
 */
public final class AuthenticationConfig {

  private static final Logger LOG = LoggerFactory.getLogger(AuthenticationConfig.class);

  /** kube's default {@code --service-account-issuer} for clusters that set none. */
  public static final String DEFAULT_ISSUER = "https://kubernetes.default.svc.cluster.local";
  private static final String AUTHENTICATION_GROUP = "authentication.k8s.io";

  private final Path tokenAuthFile;
  private final Path signingKeyFile;
  private final List<Path> keyFiles;
  private final List<String> issuers;
  private final List<String> apiAudiences;
  private final boolean anonymousAuth;

  private AuthenticationConfig(Builder b) {
    this.tokenAuthFile = b.tokenAuthFile;
    this.signingKeyFile = b.signingKeyFile;
    this.keyFiles = List.copyOf(b.keyFiles);
    this.issuers = b.issuers.isEmpty() ? List.of(DEFAULT_ISSUER) : List.copyOf(b.issuers);
    this.apiAudiences = b.apiAudiences.isEmpty() ? issuers : List.copyOf(b.apiAudiences);
    this.anonymousAuth = b.anonymousAuth;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** All defaults. */
  public static AuthenticationConfig defaults() {
    return builder().build();
  }

  /** {@code --anonymous-auth}. */
  public boolean anonymousAuth() {
    return anonymousAuth;
  }

  /** The audiences the API answers to ({@code --api-audiences}, default: the issuers). */
  public List<String> apiAudiences() {
    return apiAudiences;
  }

  /** The issuers; the first is written into new tokens, all are accepted. */
  public List<String> issuers() {
    return issuers;
  }

  /**
   * Loads the token file and the service-account keys (generating the signing key in
   * {@code dataDir} on first start), registers the authentication API's handlers with
   * {@code routes}, and returns the authenticators for the request filters, in order: static
   * tokens, then service-account tokens (behind one bearer-token authenticator). Client
   * certificates come before these. Service-account tokens are issued and checked on
   * {@code clock}, the server's clock.
   *
   * @throws IllegalArgumentException for a malformed token file or key file
   */
  public List<Authenticator> install(Path dataDir, ResourceRegistry registry, ApiRoutes routes,
      Cacher serviceAccountCache, Clock clock) {
    List<TokenAuthenticator> tokens = new ArrayList<>();
    if (tokenAuthFile != null) {
      TokenFileAuthenticator file = TokenFileAuthenticator.load(tokenAuthFile);
      LOG.info("static tokens: {} from {}", file.size(), tokenAuthFile);
      tokens.add(file);
    }
    ServiceAccountKeys keys = ServiceAccountKeys.load(signingKeyFile, keyFiles, dataDir);
    LOG.info("service account tokens: issuer {}, API audiences {}, {}", issuers.getFirst(), apiAudiences, keys);
    tokens.add(new ServiceAccountTokenAuthenticator(issuers, keys, ServiceAccountGetter.fromCache(serviceAccountCache),
        clock));
    BearerTokenAuthenticator bearer = new BearerTokenAuthenticator(tokens, apiAudiences);

    ServiceAccountTokenGenerator generator = new ServiceAccountTokenGenerator(issuers.getFirst(), keys, clock);
    routes.resources().register(serviceAccountCache.resource(), "token",
        new TokenRequestHandler(serviceAccountCache, generator, apiAudiences));
    routes.resources().register(find(registry, "tokenreviews"), "", new TokenReviewHandler(bearer));
    routes.resources().register(find(registry, "selfsubjectreviews"), "", new SelfSubjectReviewHandler());
    return List.of(bearer);
  }

  private static ResourceDefinition find(ResourceRegistry registry, String plural) {
    return registry.find(AUTHENTICATION_GROUP, "v1", plural)
        .orElseThrow(() -> new IllegalStateException("the registry has no " + plural + "." + AUTHENTICATION_GROUP));
  }

  /** Configures an {@link AuthenticationConfig}. */
  public static final class Builder {
    private Path tokenAuthFile;
    private Path signingKeyFile;
    private List<Path> keyFiles = List.of();
    private List<String> issuers = List.of();
    private List<String> apiAudiences = List.of();
    private boolean anonymousAuth = true;

    private Builder() {
    }

    /** {@code --token-auth-file}: static tokens in kube's CSV format; null for none. */
    public Builder tokenAuthFile(Path file) {
      this.tokenAuthFile = file;
      return this;
    }

    /** {@code --service-account-signing-key-file}: a PEM private key; null to generate one in the data dir. */
    public Builder serviceAccountSigningKeyFile(Path file) {
      this.signingKeyFile = file;
      return this;
    }

    /** {@code --service-account-key-file}: PEM files of further keys that verify tokens. */
    public Builder serviceAccountKeyFiles(List<Path> files) {
      this.keyFiles = List.copyOf(files);
      return this;
    }

    /** {@code --service-account-issuer}: the first issues tokens, all are accepted (default {@value #DEFAULT_ISSUER}). */
    public Builder serviceAccountIssuers(List<String> issuers) {
      issuers.forEach(i -> requireNonEmpty(i, "issuer"));
      this.issuers = List.copyOf(issuers);
      return this;
    }

    /** {@code --api-audiences} (default: the issuers). */
    public Builder apiAudiences(List<String> audiences) {
      audiences.forEach(a -> requireNonEmpty(a, "API audience"));
      this.apiAudiences = List.copyOf(audiences);
      return this;
    }

    /** {@code --anonymous-auth} (default true). */
    public Builder anonymousAuth(boolean on) {
      this.anonymousAuth = on;
      return this;
    }

    public AuthenticationConfig build() {
      return new AuthenticationConfig(this);
    }

    private static void requireNonEmpty(String s, String what) {
      if (s == null || s.isBlank()) {
        throw new IllegalArgumentException(what + " must not be empty");
      }
    }
  }
}
