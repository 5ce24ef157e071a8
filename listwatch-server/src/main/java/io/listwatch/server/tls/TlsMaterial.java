package io.listwatch.server.tls;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The certificates one server serves with and trusts. Unless the operator brings their own
 * files, they live in {@code <data-dir>/tls/}: {@code ca.crt} and {@code ca.key} (the CA that
 * signs the serving certificate and client certificates), {@code server.crt} and
 * {@code server.key} (SANs localhost, 127.0.0.1, ::1, the host name and each extra name),
 * {@code admin.crt} and {@code admin.key} (CN=admin, O=system:masters). They are created on
 * first start and reused later; a certificate is issued again when it expires within 30 days,
 * was not signed by the CA, or (the serving one) lacks a requested name.
 *
 * <p>Immutable and thread-safe once loaded.
 */
public final class TlsMaterial {

  private static final Logger LOG = LoggerFactory.getLogger(TlsMaterial.class);
  /** The admin user of the generated kubeconfig and its group. */
  public static final String ADMIN_USER = "admin";
  private static final String ADMIN_GROUP = "system:masters";
  private static final Duration RENEW_BEFORE = Duration.ofDays(30);

  private final Path directory;
  private final CertifiedKey serving;
  private final X509Certificate servingCa;
  private final List<X509Certificate> clientCas;
  private final CertificateAuthority clientCa;
  private final CertifiedKey admin;

  private TlsMaterial(Path directory, CertifiedKey serving, X509Certificate servingCa, List<X509Certificate> clientCas,
      CertificateAuthority clientCa, CertifiedKey admin) {
    this.directory = directory;
    this.serving = serving;
    this.servingCa = servingCa;
    this.clientCas = List.copyOf(clientCas);
    this.clientCa = clientCa;
    this.admin = admin;
  }

  /**
   * Loads the material for a server whose data directory is {@code dataDir}, creating what is
   * missing. {@code extraSans} are added to the generated serving certificate's names.
   */
  public static TlsMaterial load(Path dataDir, TlsConfig config, List<String> extraSans) {
    Path dir = dataDir.resolve("tls");
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + dir, e);
    }
    boolean ownServing = config.certificateFile() == null;
    boolean ownClientCa = config.clientCaFile() == null;
    CertificateAuthority ca = ownServing || ownClientCa ? loadOrCreateCa(dir) : null;

    CertifiedKey serving;
    X509Certificate servingCa;
    if (ownServing) {
      Set<String> sans = new LinkedHashSet<>(List.of("localhost", "127.0.0.1", "::1"));
      hostName().ifPresent(sans::add);
      sans.addAll(config.subjectAltNames());
      for (String san : extraSans) {
        if (!san.isEmpty() && !san.equals("0.0.0.0") && !san.equals("::")) {
          sans.add(san);
        }
      }
      serving = loadOrIssue(dir, "server", ca, c -> hasNames(c, sans),
          () -> ca.issueServing("listwatch-apiserver", List.copyOf(sans)));
      servingCa = ca.certificate();
    } else {
      serving = CertifiedKey.read(config.certificateFile(), config.privateKeyFile());
      servingCa = serving.chain().getLast();
    }

    if (ownClientCa) {
      CertifiedKey admin = loadOrIssue(dir, ADMIN_USER, ca, c -> true,
          () -> ca.issueClient(ADMIN_USER, List.of(ADMIN_GROUP)));
      return new TlsMaterial(dir, serving, servingCa, List.of(ca.certificate()), ca, admin);
    }
    List<X509Certificate> clientCas = Pem.certificates(Pem.read(config.clientCaFile()),
        config.clientCaFile().toString());
    return new TlsMaterial(dir, serving, servingCa, clientCas, null, null);
  }

  /** Where the generated files are. */
  public Path directory() {
    return directory;
  }

  /** The serving certificate chain and key. */
  public CertifiedKey serving() {
    return serving;
  }

  /**
   * The certificate clients trust to verify the server: the generated CA, or the last
   * certificate of the operator's chain.
   */
  public X509Certificate servingCa() {
    return servingCa;
  }

  /** {@link #servingCa()} as PEM (what the ConfigMaps {@code kube-root-ca.crt} hold). */
  public String servingCaPem() {
    return Pem.encode(List.of(servingCa));
  }

  /** The CAs whose client certificates the server accepts. */
  public List<X509Certificate> clientCas() {
    return clientCas;
  }

  /** The CA that signs client certificates, when the server owns it (no {@code --client-ca-file}). */
  public Optional<CertificateAuthority> clientCa() {
    return Optional.ofNullable(clientCa);
  }

  /** The admin's client certificate (CN=admin, O=system:masters), when the server owns the client CA. */
  public Optional<CertifiedKey> admin() {
    return Optional.ofNullable(admin);
  }

  private static CertificateAuthority loadOrCreateCa(Path dir) {
    Path crt = dir.resolve("ca.crt");
    Path key = dir.resolve("ca.key");
    if (Files.exists(crt) && Files.exists(key)) {
      return CertificateAuthority.of(CertifiedKey.read(crt, key));
    }
    CertificateAuthority ca = CertificateAuthority.create("listwatch-ca@" + Instant.now().getEpochSecond());
    ca.certifiedKey().write(crt, key);
    LOG.info("created the certificate authority {}", crt);
    return ca;
  }

  private static CertifiedKey loadOrIssue(Path dir, String name, CertificateAuthority ca,
      java.util.function.Predicate<X509Certificate> fits, java.util.function.Supplier<CertifiedKey> issue) {
    Path crt = dir.resolve(name + ".crt");
    Path key = dir.resolve(name + ".key");
    if (Files.exists(crt) && Files.exists(key)) {
      CertifiedKey existing = CertifiedKey.read(crt, key);
      X509Certificate c = existing.certificate();
      if (signedBy(c, ca.certificate()) && c.getNotAfter().toInstant().isAfter(Instant.now().plus(RENEW_BEFORE))
          && fits.test(c)) {
        return existing;
      }
      LOG.info("issuing {} again (expiring, not signed by {}, or missing a name)", crt, dir.resolve("ca.crt"));
    }
    CertifiedKey issued = issue.get();
    issued.write(crt, key);
    LOG.info("issued {}", crt);
    return issued;
  }

  private static boolean signedBy(X509Certificate c, X509Certificate ca) {
    try {
      c.verify(ca.getPublicKey());
      return true;
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  private static boolean hasNames(X509Certificate c, Set<String> wanted) {
    try {
      List<String> names = new ArrayList<>();
      if (c.getSubjectAlternativeNames() != null) {
        for (List<?> san : c.getSubjectAlternativeNames()) {
          names.add(normalize(String.valueOf(san.get(1))));
        }
      }
      return wanted.stream().map(TlsMaterial::normalize).allMatch(names::contains);
    } catch (CertificateParsingException e) {
      return false;
    }
  }

  /** IP addresses in one form ("::1" and "0:0:0:0:0:0:0:1" are the same name). */
  private static String normalize(String name) {
    if (org.bouncycastle.util.IPAddress.isValid(name)) {
      try {
        return InetAddress.getByName(name).getHostAddress();
      } catch (java.net.UnknownHostException e) {
        return name;
      }
    }
    return name.toLowerCase(java.util.Locale.ROOT);
  }

  private static Optional<String> hostName() {
    try {
      String host = InetAddress.getLocalHost().getHostName();
      return host == null || host.isEmpty() ? Optional.empty() : Optional.of(host.toLowerCase(java.util.Locale.ROOT));
    } catch (java.net.UnknownHostException e) {
      return Optional.ofNullable(System.getenv("HOSTNAME")).filter(h -> !h.isEmpty());
    }
  }
}
