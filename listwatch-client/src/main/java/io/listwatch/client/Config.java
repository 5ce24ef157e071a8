package io.listwatch.client;

import io.listwatch.client.internal.Pem;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How to reach and authenticate to one API server: client-go's {@code rest.Config}.
 * Immutable and thread-safe; build one with {@link #builder(String)} or load one:
 *
 * <ul>
 *   <li>{@link #load()}: {@code $KUBECONFIG} (a colon-separated list, merged first-wins),
 *       else {@code ~/.kube/config}, else the in-cluster service account;
 *   <li>{@link #fromKubeconfig(Path, String)}: one kubeconfig file and context;
 *   <li>{@link #inCluster()}: the pod's service account;
 *   <li>{@link #forUrl(String)}: a URL and nothing else (plain http, tests).
 * </ul>
 *
 * <p>Files named by the builder (CA, client certificate and key) are read when named; the
 * token file is re-read by the client at most once a minute, so a rotated service-account
 * token is picked up (as client-go does). {@link #toString()} never shows secrets.
 */
public final class Config {

  /** The namespace used when none is configured. */
  public static final String DEFAULT_NAMESPACE = "default";
  /** The request timeout used when none is configured. */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);

  private final URI server;
  private final String caCertPem;
  private final String clientCertPem;
  private final String clientKeyPem;
  private final String token;
  private final Path tokenFile;
  private final String username;
  private final String password;
  private final boolean insecureSkipTlsVerify;
  private final String namespace;
  private final boolean http2;
  private final Duration requestTimeout;

  private Config(Builder b) {
    this.server = b.server;
    this.caCertPem = b.caCertPem;
    this.clientCertPem = b.clientCertPem;
    this.clientKeyPem = b.clientKeyPem;
    this.token = b.token;
    this.tokenFile = b.tokenFile;
    this.username = b.username;
    this.password = b.password;
    this.insecureSkipTlsVerify = b.insecureSkipTlsVerify;
    this.namespace = b.namespace;
    this.http2 = b.http2;
    this.requestTimeout = b.requestTimeout;
  }

  /** A builder for the server at {@code serverUrl} ({@code http://} or {@code https://}). */
  public static Builder builder(String serverUrl) {
    return new Builder(serverUrl);
  }

  /** A config with only a URL: no TLS settings, no credentials. */
  public static Config forUrl(String serverUrl) {
    return builder(serverUrl).build();
  }

  /**
   * The default config, as kubectl finds it: {@code $KUBECONFIG} (colon-separated files,
   * merged, the first file to set a value wins), else {@code ~/.kube/config} if it exists,
   * else in-cluster.
   *
   * @throws IllegalArgumentException if a kubeconfig is malformed, or none is found and this
   *     is not a pod
   */
  public static Config load() {
    return KubeConfigLoader.system().load();
  }

  /**
   * The config of {@code context} (or the file's {@code current-context} when null) in one
   * kubeconfig file; relative paths in it resolve against the file's directory.
   *
   * @throws IllegalArgumentException if the file is unreadable or malformed, or the context,
   *     its cluster or its user is missing
   */
  public static Config fromKubeconfig(Path kubeconfig, String contextOrNull) {
    return KubeConfigLoader.system().fromFiles(java.util.List.of(kubeconfig), contextOrNull);
  }

  /**
   * The in-cluster config: {@code https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT},
   * the service account's token file, CA and namespace under
   * {@code /var/run/secrets/kubernetes.io/serviceaccount}.
   *
   * @throws IllegalArgumentException if this does not run in a pod
   */
  public static Config inCluster() {
    return KubeConfigLoader.system().inCluster();
  }

  /** A builder holding this config's settings. */
  public Builder toBuilder() {
    Builder b = new Builder(server.toString());
    b.caCertPem = caCertPem;
    b.clientCertPem = clientCertPem;
    b.clientKeyPem = clientKeyPem;
    b.token = token;
    b.tokenFile = tokenFile;
    b.username = username;
    b.password = password;
    b.insecureSkipTlsVerify = insecureSkipTlsVerify;
    b.namespace = namespace;
    b.http2 = http2;
    b.requestTimeout = requestTimeout;
    return b;
  }

  /** The server's base URL, without a trailing slash. */
  public URI server() {
    return server;
  }

  /** The CA certificates (PEM) to trust; empty: the JDK's default trust store. */
  public Optional<String> caCertPem() {
    return Optional.ofNullable(caCertPem);
  }

  /** The client certificate chain (PEM), set together with {@link #clientKeyPem()}. */
  public Optional<String> clientCertPem() {
    return Optional.ofNullable(clientCertPem);
  }

  /** The client private key (PEM: PKCS#8, PKCS#1 RSA or SEC1 EC). */
  public Optional<String> clientKeyPem() {
    return Optional.ofNullable(clientKeyPem);
  }

  /** A bearer token; a {@link #tokenFile()}'s content takes precedence once read. */
  public Optional<String> token() {
    return Optional.ofNullable(token);
  }

  /** A file holding the bearer token, re-read periodically. */
  public Optional<Path> tokenFile() {
    return Optional.ofNullable(tokenFile);
  }

  /** The basic-auth user name, set together with {@link #password()}. */
  public Optional<String> username() {
    return Optional.ofNullable(username);
  }

  /** The basic-auth password. */
  public Optional<String> password() {
    return Optional.ofNullable(password);
  }

  /** Whether to skip verifying the server's certificate and host name (unsafe). */
  public boolean insecureSkipTlsVerify() {
    return insecureSkipTlsVerify;
  }

  /** The default namespace: where objects without one are created. */
  public String namespace() {
    return namespace;
  }

  /** Whether to use HTTP/2 where the server offers it (ALPN over TLS, h2c upgrade otherwise). */
  public boolean http2() {
    return http2;
  }

  /** The timeout for a response's headers; watches and list bodies are not limited by it. */
  public Duration requestTimeout() {
    return requestTimeout;
  }

  @Override
  public String toString() {
    return "Config[server=" + server + ", namespace=" + namespace
        + (caCertPem != null ? ", ca" : "")
        + (clientCertPem != null ? ", client-cert" : "")
        + (token != null ? ", token" : "")
        + (tokenFile != null ? ", tokenFile=" + tokenFile : "")
        + (username != null ? ", basic-auth" : "")
        + (insecureSkipTlsVerify ? ", insecure" : "")
        + ", http2=" + http2 + ", requestTimeout=" + requestTimeout + "]";
  }

  /** Builds a {@link Config}. Not thread-safe. */
  public static final class Builder {
    private URI server;
    private String caCertPem;
    private String clientCertPem;
    private String clientKeyPem;
    private String token;
    private Path tokenFile;
    private String username;
    private String password;
    private boolean insecureSkipTlsVerify;
    private String namespace = DEFAULT_NAMESPACE;
    private boolean http2 = true;
    private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;

    private Builder(String serverUrl) {
      server(serverUrl);
    }

    /** The server URL, {@code http://} or {@code https://}; a trailing slash is dropped. */
    public Builder server(String serverUrl) {
      Objects.requireNonNull(serverUrl, "serverUrl");
      URI uri;
      try {
        uri = new URI(serverUrl.endsWith("/") ? serverUrl.substring(0, serverUrl.length() - 1) : serverUrl);
      } catch (URISyntaxException e) {
        throw new IllegalArgumentException("server URL is malformed: " + serverUrl, e);
      }
      String scheme = uri.getScheme();
      if (scheme == null || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
          || uri.getHost() == null) {
        throw new IllegalArgumentException("server URL must be http://host[:port] or https://host[:port]: " + serverUrl);
      }
      if (uri.getQuery() != null || uri.getFragment() != null) {
        throw new IllegalArgumentException("server URL must not have a query or fragment: " + serverUrl);
      }
      this.server = uri;
      return this;
    }

    /** CA certificates to trust, PEM; null: the JDK's trust store. */
    public Builder caCertPem(String pem) {
      this.caCertPem = pem;
      return this;
    }

    /** Reads the CA certificates from a PEM file now. */
    public Builder caCertFile(Path file) {
      return caCertPem(read(file, "certificate-authority"));
    }

    /** The client certificate chain, PEM. */
    public Builder clientCertPem(String pem) {
      this.clientCertPem = pem;
      return this;
    }

    /** Reads the client certificate from a PEM file now. */
    public Builder clientCertFile(Path file) {
      return clientCertPem(read(file, "client-certificate"));
    }

    /** The client private key, PEM. */
    public Builder clientKeyPem(String pem) {
      this.clientKeyPem = pem;
      return this;
    }

    /** Reads the client key from a PEM file now. */
    public Builder clientKeyFile(Path file) {
      return clientKeyPem(read(file, "client-key"));
    }

    /** A bearer token (null for none). */
    public Builder token(String value) {
      this.token = value == null || value.isBlank() ? null : value.strip();
      return this;
    }

    /** A file holding the bearer token, re-read at most once a minute (null for none). */
    public Builder tokenFile(Path file) {
      this.tokenFile = file;
      return this;
    }

    /** Basic authentication (nulls for none). */
    public Builder basicAuth(String user, String pass) {
      this.username = user;
      this.password = pass;
      return this;
    }

    public Builder insecureSkipTlsVerify(boolean value) {
      this.insecureSkipTlsVerify = value;
      return this;
    }

    /** The default namespace; null or empty means {@value #DEFAULT_NAMESPACE}. */
    public Builder namespace(String value) {
      this.namespace = value == null || value.isBlank() ? DEFAULT_NAMESPACE : value.strip();
      return this;
    }

    /** Whether to use HTTP/2 where offered (default true). */
    public Builder http2(boolean value) {
      this.http2 = value;
      return this;
    }

    /** The timeout for non-watch responses' headers (default 30 s). */
    public Builder requestTimeout(Duration value) {
      Objects.requireNonNull(value, "requestTimeout");
      if (value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException("requestTimeout must be positive: " + value);
      }
      this.requestTimeout = value;
      return this;
    }

    /**
     * The config.
     *
     * @throws IllegalArgumentException if the certificate or key PEM does not parse, or only
     *     one of client certificate and key is set
     */
    public Config build() {
      if ((clientCertPem == null) != (clientKeyPem == null)) {
        throw new IllegalArgumentException("client certificate and client key must be set together");
      }
      if ((username == null) != (password == null)) {
        throw new IllegalArgumentException("username and password must be set together");
      }
      if (caCertPem != null) {
        Pem.certificates(caCertPem, "certificate-authority");
      }
      if (clientCertPem != null) {
        Pem.certificates(clientCertPem, "client-certificate");
        Pem.privateKey(clientKeyPem, "client-key");
      }
      return new Config(this);
    }

    private static String read(Path file, String what) {
      Objects.requireNonNull(file, what);
      try {
        return Files.readString(file, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new IllegalArgumentException("cannot read " + what + " file " + file + ": " + e, e);
      }
    }
  }
}
