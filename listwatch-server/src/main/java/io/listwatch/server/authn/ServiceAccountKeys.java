package io.listwatch.server.authn;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The keys that sign and verify service-account tokens. One private key signs
 * ({@code --service-account-signing-key-file}, or an ECDSA P-256 key generated into the data
 * directory on first start and reused afterwards: kube-apiserver accepts EC signing keys, and
 * generating one takes a millisecond where an RSA key can take seconds); its public key and
 * those of {@code --service-account-key-file} verify. Files are PEM: PKCS#8 private keys
 * ({@code BEGIN PRIVATE KEY}), public keys ({@code BEGIN PUBLIC KEY}) and certificates. RSA keys
 * sign with RS256; EC keys on P-256, P-384 and P-521 with ES256, ES384 and ES512. An EC private
 * key's public key must be in the same file or a key file (the generated file holds both).
 *
 * <p>Each key's id ({@code kid} in a token's header) is the unpadded base64url SHA-256 of its
 * DER public key, as kube computes it. Immutable and thread-safe.
 */
public final class ServiceAccountKeys {

  /** The file name of the generated signing key in the data directory. */
  public static final String GENERATED_KEY_FILE = "service-account.key";

  private static final Pattern PEM = Pattern.compile(
      "-----BEGIN ([A-Z0-9 ]+)-----\\s*([A-Za-z0-9+/=\\s]*?)-----END \\1-----");

  private final PrivateKey signingKey;
  private final String signingKeyId;
  private final List<VerificationKey> verificationKeys;

  /** A public key that verifies tokens, with its key id. */
  public record VerificationKey(String keyId, PublicKey key) {
  }

  private ServiceAccountKeys(PrivateKey signingKey, PublicKey signingPublicKey, List<PublicKey> others) {
    this.signingKey = signingKey;
    this.signingKeyId = keyId(signingPublicKey);
    List<VerificationKey> keys = new ArrayList<>();
    keys.add(new VerificationKey(signingKeyId, signingPublicKey));
    for (PublicKey k : others) {
      String id = keyId(k);
      if (keys.stream().noneMatch(v -> v.keyId().equals(id))) {
        keys.add(new VerificationKey(id, k));
      }
    }
    this.verificationKeys = List.copyOf(keys);
    algorithm(signingKey); // refuse unsupported keys at startup
  }

  /**
   * Loads the keys.
   *
   * @param signingKeyFile a PEM private key, or null to use (and on first start generate)
   *     {@code <dataDir>/service-account.key}
   * @param keyFiles PEM files of further keys that verify tokens (public keys, certificates or
   *     private keys); an EC signing key's public key must be among them
   */
  public static ServiceAccountKeys load(Path signingKeyFile, List<Path> keyFiles, Path dataDir) {
    Path file = signingKeyFile != null ? signingKeyFile : dataDir.resolve(GENERATED_KEY_FILE);
    if (signingKeyFile == null && !Files.exists(file)) {
      generate(file);
    }
    String pem = read(file);
    PrivateKey signing = privateKeys(pem, file).stream().findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no PEM private key (BEGIN PRIVATE KEY) in " + file));
    List<PublicKey> others = new ArrayList<>();
    for (Path f : keyFiles) {
      others.addAll(publicKeys(read(f), f, true));
    }
    List<PublicKey> known = new ArrayList<>(others);
    known.addAll(publicKeys(pem, file, false));
    return new ServiceAccountKeys(signing, publicKeyOf(signing, known, file), others);
  }

  /** Keys from memory, for tests: {@code signing} signs, its public key and {@code others} verify. */
  public static ServiceAccountKeys of(java.security.KeyPair signing, List<PublicKey> others) {
    return new ServiceAccountKeys(signing.getPrivate(), signing.getPublic(), others);
  }

  /** The id of the signing key. */
  public String signingKeyId() {
    return signingKeyId;
  }

  public JWSAlgorithm algorithm() {
    return algorithm(signingKey);
  }

  /** A signer for the signing key. */
  public JWSSigner signer() {
    return signingKey instanceof ECPrivateKey ec ? ecSigner(ec) : new RSASSASigner(signingKey);
  }

  public List<VerificationKey> verificationKeys() {
    return verificationKeys;
  }

  /** A verifier for one verification key. */
  public static JWSVerifier verifier(PublicKey key) {
    try {
      return key instanceof ECPublicKey ec ? new ECDSAVerifier(ec) : new RSASSAVerifier((RSAPublicKey) key);
    } catch (JOSEException e) {
      throw new IllegalArgumentException("unsupported service account verification key: " + e.getMessage(), e);
    }
  }

  private static JWSSigner ecSigner(ECPrivateKey key) {
    try {
      return new ECDSASigner(key);
    } catch (JOSEException e) {
      throw new IllegalArgumentException("unsupported service account signing key: " + e.getMessage(), e);
    }
  }

  private static JWSAlgorithm algorithm(PrivateKey key) {
    if (key instanceof RSAPrivateCrtKey) {
      return JWSAlgorithm.RS256;
    }
    if (key instanceof ECPrivateKey ec) {
      return switch (ec.getParams().getCurve().getField().getFieldSize()) {
        case 256 -> JWSAlgorithm.ES256;
        case 384 -> JWSAlgorithm.ES384;
        case 521 -> JWSAlgorithm.ES512;
        default -> throw new IllegalArgumentException("unsupported EC curve for service account tokens");
      };
    }
    throw new IllegalArgumentException("service account signing keys must be RSA or EC, not " + key.getAlgorithm());
  }

  /** kube's key id: unpadded base64url of the SHA-256 of the DER (PKIX) public key. */
  static String keyId(PublicKey key) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(key.getEncoded());
      return Base64.getUrlEncoder().withoutPadding().encodeToString(hash);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void generate(Path file) {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
      g.initialize(new ECGenParameterSpec("secp256r1"));
      KeyPair pair = g.generateKeyPair();
      String pem = pem("PRIVATE KEY", pair.getPrivate().getEncoded()) + pem("PUBLIC KEY", pair.getPublic().getEncoded());
      Files.createDirectories(file.toAbsolutePath().getParent());
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.deleteIfExists(tmp);
      try {
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      } catch (UnsupportedOperationException e) {
        Files.createFile(tmp);
      }
      Files.writeString(tmp, pem, StandardCharsets.US_ASCII);
      Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the service account signing key " + file, e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot generate an EC key", e);
    }
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the service account key file " + file + ": " + e.getMessage(), e);
    }
  }

  private record Block(String type, byte[] der) {
  }

  private static List<Block> blocks(String pem, Path file) {
    List<Block> blocks = new ArrayList<>();
    Matcher m = PEM.matcher(pem);
    while (m.find()) {
      try {
        blocks.add(new Block(m.group(1), Base64.getMimeDecoder().decode(m.group(2))));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("bad base64 in a PEM block of " + file, e);
      }
    }
    if (blocks.isEmpty()) {
      throw new IllegalArgumentException("no PEM data in " + file);
    }
    return blocks;
  }

  private static List<PrivateKey> privateKeys(String pem, Path file) {
    List<PrivateKey> keys = new ArrayList<>();
    for (Block b : blocks(pem, file)) {
      switch (b.type()) {
        case "PRIVATE KEY" -> keys.add(privateKey(b.der(), file));
        case "RSA PRIVATE KEY", "EC PRIVATE KEY", "ENCRYPTED PRIVATE KEY" -> throw notPkcs8(b.type(), file);
        default -> {
          // certificates or public keys beside the private key: not signing keys
        }
      }
    }
    return keys;
  }

  /**
   * The public keys of a PEM file: its public keys and certificates, and with
   * {@code withPrivate} the public halves of its private keys.
   */
  private static List<PublicKey> publicKeys(String pem, Path file, boolean withPrivate) {
    List<PublicKey> keys = new ArrayList<>();
    List<PrivateKey> privates = new ArrayList<>();
    for (Block b : blocks(pem, file)) {
      try {
        switch (b.type()) {
          case "PUBLIC KEY" -> keys.add(publicKey(b.der(), file));
          case "CERTIFICATE" -> keys.add(((X509Certificate) CertificateFactory.getInstance("X.509")
              .generateCertificate(new ByteArrayInputStream(b.der()))).getPublicKey());
          case "PRIVATE KEY" -> privates.add(privateKey(b.der(), file));
          case "RSA PRIVATE KEY", "EC PRIVATE KEY", "ENCRYPTED PRIVATE KEY" -> throw notPkcs8(b.type(), file);
          default -> throw new IllegalArgumentException("unsupported PEM block " + b.type() + " in " + file
              + " (use PUBLIC KEY, CERTIFICATE or an unencrypted PKCS#8 PRIVATE KEY)");
        }
      } catch (GeneralSecurityException e) {
        throw new IllegalArgumentException("cannot read a certificate in " + file + ": " + e.getMessage(), e);
      }
    }
    if (withPrivate) {
      for (PrivateKey p : privates) {
        keys.add(publicKeyOf(p, keys, file));
      }
    }
    return keys;
  }

  private static IllegalArgumentException notPkcs8(String type, Path file) {
    return new IllegalArgumentException(file + " holds a " + type + "; convert it to an unencrypted PKCS#8 key with "
        + "`openssl pkcs8 -topk8 -nocrypt -in " + file.getFileName() + "`");
  }

  private static PrivateKey privateKey(byte[] der, Path file) {
    for (String algorithm : List.of("RSA", "EC")) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
      } catch (GeneralSecurityException e) {
        // try the next algorithm
      }
    }
    throw new IllegalArgumentException("the private key in " + file + " is neither RSA nor EC");
  }

  private static PublicKey publicKey(byte[] der, Path file) {
    for (String algorithm : List.of("RSA", "EC")) {
      try {
        return KeyFactory.getInstance(algorithm).generatePublic(new X509EncodedKeySpec(der));
      } catch (GeneralSecurityException e) {
        // try the next algorithm
      }
    }
    throw new IllegalArgumentException("the public key in " + file + " is neither RSA nor EC");
  }

  /**
   * The public half of a private key: computed for RSA; for EC, found among {@code known}
   * (plain Java cannot derive an EC public key).
   */
  private static PublicKey publicKeyOf(PrivateKey key, List<PublicKey> known, Path file) {
    if (key instanceof RSAPrivateCrtKey rsa) {
      try {
        return KeyFactory.getInstance("RSA").generatePublic(
            new RSAPublicKeySpec(rsa.getModulus(), rsa.getPublicExponent()));
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(e);
      }
    }
    if (key instanceof ECPrivateKey ec) {
      for (PublicKey k : known) {
        if (k instanceof ECPublicKey pub && pub.getParams().getCurve().equals(ec.getParams().getCurve())
            && matches(ec, pub)) {
          return pub;
        }
      }
      throw new IllegalArgumentException("the EC private key in " + file
          + " needs its public key in --service-account-key-file");
    }
    throw new IllegalArgumentException("unsupported private key in " + file + ": " + key.getAlgorithm());
  }

  /** Whether an EC public key belongs to a private key: a signature by one verifies with the other. */
  private static boolean matches(ECPrivateKey privateKey, ECPublicKey publicKey) {
    try {
      var s = java.security.Signature.getInstance("SHA256withECDSA");
      s.initSign(privateKey);
      byte[] probe = "listwatch".getBytes(StandardCharsets.US_ASCII);
      s.update(probe);
      byte[] sig = s.sign();
      s.initVerify(publicKey);
      s.update(probe);
      return s.verify(sig);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  @Override
  public String toString() {
    return "ServiceAccountKeys[signing " + signingKeyId + ", " + verificationKeys.size() + " verification key(s)]";
  }
}
