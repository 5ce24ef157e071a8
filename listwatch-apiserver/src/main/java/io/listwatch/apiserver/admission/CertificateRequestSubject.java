package io.listwatch.apiserver.admission;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The subject organizations of a PKCS#10 certificate request, as kube's {@code ParseCSR} reads
 * {@code spec.request} (the first PEM block, of type {@code CERTIFICATE REQUEST}) and Go's
 * {@code x509} fills {@code Subject.Organization}: every {@code O} attribute of the subject, in
 * order, whatever string type encodes it. A small DER reader (the core has no ASN.1 library):
 * only the path from the request to its subject is walked. Stateless.
 */
final class CertificateRequestSubject {

  private static final Pattern PEM = Pattern.compile(
      "-----BEGIN CERTIFICATE REQUEST-----\\r?\\n(.*?)-----END CERTIFICATE REQUEST-----", Pattern.DOTALL);
  private static final int SEQUENCE = 0x30;
  private static final int SET = 0x31;
  private static final int OID = 0x06;
  /** 2.5.4.10, id-at-organizationName. */
  private static final byte[] ORGANIZATION = {0x55, 0x04, 0x0a};

  private CertificateRequestSubject() {
  }

  /**
   * The {@code O} values of the request's subject.
   *
   * @param pem the decoded {@code spec.request}
   * @throws IllegalArgumentException with Go's message, when it is not a certificate request
   */
  static List<String> organizations(byte[] pem) {
    Matcher m = PEM.matcher(new String(pem, StandardCharsets.ISO_8859_1));
    if (!m.find()) {
      throw new IllegalArgumentException("PEM block type must be CERTIFICATE REQUEST");
    }
    byte[] der;
    try {
      der = Base64.getMimeDecoder().decode(m.group(1));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("PEM block type must be CERTIFICATE REQUEST");
    }
    Der request = new Der(der, 0, der.length).enter(SEQUENCE);
    Der info = request.enter(SEQUENCE);
    info.skip(); // version
    Der name = info.enter(SEQUENCE);
    List<String> organizations = new ArrayList<>();
    while (name.more()) {
      Der rdn = name.enter(SET);
      while (rdn.more()) {
        Der attribute = rdn.enter(SEQUENCE);
        byte[] type = attribute.value(OID);
        int tag = attribute.tag();
        byte[] value = attribute.value(tag);
        if (java.util.Arrays.equals(type, ORGANIZATION)) {
          organizations.add(string(tag, value));
        }
      }
    }
    return organizations;
  }

  private static String string(int tag, byte[] value) {
    return switch (tag) {
      case 0x1e -> new String(value, StandardCharsets.UTF_16BE); // BMPString
      case 0x14 -> new String(value, StandardCharsets.ISO_8859_1); // T61String, as Go reads it
      default -> new String(value, StandardCharsets.UTF_8); // UTF8String, PrintableString, IA5String, ...
    };
  }

  /** A cursor over the DER elements between {@code pos} and {@code end}. */
  private static final class Der {
    private final byte[] b;
    private int pos;
    private final int end;

    Der(byte[] b, int pos, int end) {
      this.b = b;
      this.pos = pos;
      this.end = end;
    }

    boolean more() {
      return pos < end;
    }

    int tag() {
      check(pos < end);
      return b[pos] & 0xff;
    }

    /** The contents of the next element, which must have {@code tag}; moves past it. */
    byte[] value(int tag) {
      int[] span = next(tag);
      return java.util.Arrays.copyOfRange(b, span[0], span[1]);
    }

    /** A cursor over the contents of the next element, which must have {@code tag}; moves past it. */
    Der enter(int tag) {
      int[] span = next(tag);
      return new Der(b, span[0], span[1]);
    }

    void skip() {
      next(tag());
    }

    private int[] next(int tag) {
      check(pos + 2 <= end);
      if ((b[pos] & 0xff) != tag) {
        throw new IllegalArgumentException("asn1: structure error: tags don't match");
      }
      int len = b[pos + 1] & 0xff;
      int p = pos + 2;
      if (len >= 0x80) {
        int n = len & 0x7f;
        check(n >= 1 && n <= 3 && p + n <= end);
        len = 0;
        for (int i = 0; i < n; i++) {
          len = len << 8 | b[p++] & 0xff;
        }
      }
      check(p + len <= end);
      pos = p + len;
      return new int[] {p, p + len};
    }

    private static void check(boolean ok) {
      if (!ok) {
        throw new IllegalArgumentException("asn1: syntax error: data truncated");
      }
    }
  }
}
