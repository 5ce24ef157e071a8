package io.listwatch.client.internal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads PEM certificates and private keys as kubeconfigs carry them: certificates
 * ({@code CERTIFICATE}, one or more), keys in PKCS#8 ({@code PRIVATE KEY}: RSA, EC or
 * EdDSA), PKCS#1 ({@code RSA PRIVATE KEY}) or SEC1 ({@code EC PRIVATE KEY}, named curves).
 * The JDK reads only PKCS#8, so PKCS#1 and SEC1 keys are wrapped into PKCS#8 here.
 * Encrypted keys are not supported. Every failure is an {@link IllegalArgumentException}
 * naming what was being read. Stateless.
 */
public final class Pem {

  private static final Pattern BLOCK =
      Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----(.*?)-----END \\1-----", Pattern.DOTALL);
  /** AlgorithmIdentifier of rsaEncryption (1.2.840.113549.1.1.1) with NULL parameters. */
  private static final byte[] RSA_ALGORITHM = {
      0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};
  /** The OID of id-ecPublicKey (1.2.840.10045.2.1), as a TLV. */
  private static final byte[] EC_PUBLIC_KEY_OID = {0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01};
  private static final byte[] VERSION_0 = {0x02, 0x01, 0x00};

  private Pem() {
  }

  /** The certificates in {@code pem}, at least one. */
  public static List<X509Certificate> certificates(String pem, String what) {
    List<X509Certificate> certs = new ArrayList<>();
    try {
      CertificateFactory factory = CertificateFactory.getInstance("X.509");
      Matcher m = BLOCK.matcher(pem);
      while (m.find()) {
        if (m.group(1).equals("CERTIFICATE")) {
          certs.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(decode(m.group(2), what))));
        }
      }
    } catch (CertificateException e) {
      throw new IllegalArgumentException(what + ": not a valid certificate: " + e.getMessage(), e);
    }
    if (certs.isEmpty()) {
      throw new IllegalArgumentException(what + ": no PEM CERTIFICATE block found");
    }
    return certs;
  }

  /** The first private key in {@code pem}. */
  public static PrivateKey privateKey(String pem, String what) {
    Matcher m = BLOCK.matcher(pem);
    while (m.find()) {
      String label = m.group(1);
      switch (label) {
        case "PRIVATE KEY" -> {
          return pkcs8(decode(m.group(2), what), what, "RSA", "EC", "Ed25519", "Ed448");
        }
        case "RSA PRIVATE KEY" -> {
          byte[] pkcs1 = decode(m.group(2), what);
          return pkcs8(sequence(VERSION_0, RSA_ALGORITHM, tlv(0x04, pkcs1)), what, "RSA");
        }
        case "EC PRIVATE KEY" -> {
          byte[] sec1 = decode(m.group(2), what);
          byte[] curve = namedCurve(sec1, what);
          return pkcs8(sequence(VERSION_0, sequence(EC_PUBLIC_KEY_OID, curve), tlv(0x04, sec1)), what, "EC");
        }
        case "ENCRYPTED PRIVATE KEY" ->
            throw new IllegalArgumentException(what + ": encrypted private keys are not supported");
        default -> {
          // e.g. EC PARAMETERS before the key: skip
        }
      }
    }
    throw new IllegalArgumentException(what + ": no PEM PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY block found");
  }

  private static PrivateKey pkcs8(byte[] der, String what, String... algorithms) {
    GeneralSecurityException last = null;
    for (String algorithm : algorithms) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
      } catch (GeneralSecurityException e) {
        last = e;
      }
    }
    throw new IllegalArgumentException(what + ": not a valid private key: "
        + (last == null ? "" : last.getMessage()), last);
  }

  private static byte[] decode(String base64, String what) {
    try {
      return Base64.getMimeDecoder().decode(base64.strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(what + ": bad base64 in PEM: " + e.getMessage(), e);
    }
  }

  /**
   * The curve OID TLV of a SEC1 ECPrivateKey:
   * {@code SEQUENCE { INTEGER 1, OCTET STRING key, [0] OID curve, [1] BIT STRING pub }}.
   */
  private static byte[] namedCurve(byte[] sec1, String what) {
    try {
      int[] pos = {0};
      expectTag(sec1, pos, 0x30);
      readLength(sec1, pos); // enter the SEQUENCE
      skip(sec1, pos); // version
      skip(sec1, pos); // private key
      if (pos[0] < sec1.length && (sec1[pos[0]] & 0xff) == 0xa0) {
        pos[0]++;
        readLength(sec1, pos);
        int start = pos[0];
        expectTag(sec1, pos, 0x06);
        int len = readLength(sec1, pos);
        if (len < 0 || (long) pos[0] + len > sec1.length) {
          // its length says more than there is: copying it would pad it out to that length
          throw new IllegalArgumentException(what + ": truncated EC private key");
        }
        return Arrays.copyOfRange(sec1, start, pos[0] + len);
      }
    } catch (ArrayIndexOutOfBoundsException e) {
      throw new IllegalArgumentException(what + ": truncated EC private key", e);
    }
    throw new IllegalArgumentException(what + ": EC private key without a named curve");
  }

  private static void expectTag(byte[] der, int[] pos, int tag) {
    if ((der[pos[0]++] & 0xff) != tag) {
      throw new IllegalArgumentException("unexpected DER tag at " + (pos[0] - 1));
    }
  }

  private static void skip(byte[] der, int[] pos) {
    pos[0]++;
    int len = readLength(der, pos);
    pos[0] += len;
  }

  private static int readLength(byte[] der, int[] pos) {
    int first = der[pos[0]++] & 0xff;
    if (first < 0x80) {
      return first;
    }
    int len = 0;
    for (int i = 0; i < (first & 0x7f); i++) {
      len = (len << 8) | (der[pos[0]++] & 0xff);
    }
    return len;
  }

  private static byte[] sequence(byte[]... parts) {
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      content.writeBytes(p);
    }
    return tlv(0x30, content.toByteArray());
  }

  private static byte[] tlv(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
    out.write(tag);
    int len = content.length;
    if (len < 0x80) {
      out.write(len);
    } else if (len < 0x100) {
      out.write(0x81);
      out.write(len);
    } else if (len < 0x10000) {
      out.write(0x82);
      out.write(len >> 8);
      out.write(len);
    } else {
      out.write(0x83);
      out.write(len >> 16);
      out.write(len >> 8);
      out.write(len);
    }
    out.writeBytes(content);
    return out.toByteArray();
  }
}
