package io.listwatch.server.filters;

import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Guards the plain-HTTP listener, where every request acts as the cluster admin, against DNS
 * rebinding: a web page on a name the attacker controls points that name at 127.0.0.1, and the
 * browser then sends the page's requests to this port with the attacker's name in
 * {@code Host}. Only hosts that cannot be rebound are served there: an IP address literal
 * (IPv4, or IPv6 in brackets), {@code localhost} and names under {@code .localhost} (which
 * resolve to loopback by definition, RFC 6761), with any port. A request without {@code Host}
 * (HTTP/1.0, no browser sends one) is served. Any other host is answered 403 and nothing is done.
 *
 * <p>kube-apiserver has had no plain-HTTP admin port since 1.20; this port is listwatch's own,
 * and so is the check.
 *
 * <p>Thread-safe: stateless.
 */
final class LocalHostCheck {

  private static final Pattern IPV4 = Pattern.compile(
      "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
  private static final Pattern IPV6_IN_BRACKETS = Pattern.compile("\\[[0-9a-fA-F:.]+(%[0-9A-Za-z._~-]+)?]");
  private static final Pattern PORT = Pattern.compile(":\\d{0,5}");

  private LocalHostCheck() {
  }

  /** Throws a 403 Status unless {@code host} (a {@code Host} header, may be null) is one of the above. */
  static void check(String host) {
    if (host != null && !allowed(host)) {
      throw new StatusException(Status.failure(403, "Forbidden", "the host \"" + host
          + "\" is not served on the plain-HTTP port, where every request acts as the admin: "
          + "use an IP address or localhost (a guard against DNS rebinding)", null));
    }
  }

  static boolean allowed(String host) {
    String h = host.trim();
    if (h.isEmpty()) {
      return true;
    }
    int end = h.startsWith("[") ? h.indexOf(']') + 1 : h.indexOf(':');
    if (end <= 0) {
      end = h.length();
    }
    String name = h.substring(0, end);
    if (end < h.length() && !PORT.matcher(h.substring(end)).matches()) {
      return false;
    }
    String n = name.toLowerCase(Locale.ROOT);
    if (n.endsWith(".")) {
      n = n.substring(0, n.length() - 1);
    }
    return IPV4.matcher(n).matches() || IPV6_IN_BRACKETS.matcher(n).matches()
        || n.equals("localhost") || (n.endsWith(".localhost") && n.length() > ".localhost".length());
  }
}
