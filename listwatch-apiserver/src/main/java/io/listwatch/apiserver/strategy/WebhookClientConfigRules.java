package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;

/**
 * kube's rules of a webhook's {@code clientConfig} ({@code k8s.io/apiserver/pkg/util/webhook}'s
 * {@code ValidateWebhookURL} and {@code ValidateWebhookService}), as the admission webhook
 * configurations use them: exactly one of {@code url} or {@code service}; a URL that Go's
 * {@code net/url} parses, with the {@code https} scheme, a host, and no user information,
 * fragment or query; a service with a name, a namespace, a port from 1 to 65535 and a path
 * whose segments are DNS-1123 subdomains. A CustomResourceDefinition's conversion webhook is
 * checked by the same rules ({@code CustomResourceConversionValidation}). Stateless.
 */
public final class WebhookClientConfigRules {

  private static final String FORM = "; desired format: https://host[/path]";

  private WebhookClientConfigRules() {
  }

  /** The clientConfig at {@code path} (kube's switch in {@code validateValidatingWebhook}). */
  static void validate(JsonNode clientConfig, String path, List<Status.Cause> errors) {
    JsonNode url = clientConfig.path("url");
    JsonNode service = clientConfig.path("service");
    if (NumericFields.given(url) == NumericFields.given(service)) {
      errors.add(FieldErrors.required(path, "exactly one of url or service is required"));
    } else if (NumericFields.given(url)) {
      url(url.asText(""), path + ".url", errors);
    } else {
      service(service, path + ".service", errors);
    }
  }

  /** kube's {@code ValidateWebhookURL} with {@code forceHttps}. */
  public static void url(String url, String path, List<Status.Cause> errors) {
    GoUrl u;
    try {
      u = GoUrl.parse(url);
    } catch (IllegalArgumentException e) {
      errors.add(FieldErrors.required(path, "url must be a valid URL: " + e.getMessage() + FORM));
      return;
    }
    if (!u.scheme().equals("https")) {
      errors.add(FieldErrors.invalid(path, u.scheme(), "'https' is the only allowed URL scheme" + FORM));
    }
    if (u.host().isEmpty()) {
      errors.add(FieldErrors.invalid(path, u.host(), "host must be specified" + FORM));
    }
    if (u.user() != null) {
      errors.add(FieldErrors.invalid(path, u.user(), "user information is not permitted in the URL"));
    }
    if (!u.fragment().isEmpty()) {
      errors.add(FieldErrors.invalid(path, u.fragment(), "fragments are not permitted in the URL"));
    }
    if (!u.rawQuery().isEmpty()) {
      errors.add(FieldErrors.invalid(path, u.rawQuery(), "query parameters are not permitted in the URL"));
    }
  }

  /** kube's {@code ValidateWebhookService}; the port was defaulted to 443 when left out. */
  static void service(JsonNode service, String path, List<Status.Cause> errors) {
    service(service.path("name").asText(""), service.path("namespace").asText(""), service.path("path"),
        service.path("port").asLong(0), path, errors);
  }

  /**
   * kube's {@code ValidateWebhookService} of the given parts ({@code urlPath} missing or null
   * when not given): what a caller passes as the name is checked as the name, which kube's CRD
   * validation relies on when it passes the namespace in its place.
   */
  public static void service(String name, String namespace, JsonNode urlPathNode, long port, String path,
      List<Status.Cause> errors) {
    if (name.isEmpty()) {
      errors.add(FieldErrors.required(path + ".name", "service name is required"));
    }
    if (namespace.isEmpty()) {
      errors.add(FieldErrors.required(path + ".namespace", "service namespace is required"));
    }
    List<String> portErrors = NameSyntax.isValidPortNum(port);
    if (!portErrors.isEmpty()) {
      errors.add(FieldErrors.invalid(path + ".port", port, "port is not valid: " + String.join(", ", portErrors)));
    }
    JsonNode given = urlPathNode;
    if (!NumericFields.given(given)) {
      return;
    }
    String urlPath = given.asText("");
    if (urlPath.equals("/") || urlPath.isEmpty()) {
      return;
    }
    if (urlPath.equals("//")) {
      errors.add(FieldErrors.invalid(path + ".path", urlPath, "segment[0] may not be empty"));
      return;
    }
    if (!urlPath.startsWith("/")) {
      errors.add(FieldErrors.invalid(path + ".path", urlPath, "must start with a '/'"));
    }
    String toCheck = urlPath.substring(1);
    if (toCheck.endsWith("/")) {
      toCheck = toCheck.substring(0, toCheck.length() - 1);
    }
    String[] steps = toCheck.split("/", -1);
    for (int i = 0; i < steps.length; i++) {
      if (steps[i].isEmpty()) {
        errors.add(FieldErrors.invalid(path + ".path", urlPath, "segment[" + i + "] may not be empty"));
        continue;
      }
      for (String msg : NameSyntax.isDns1123Subdomain(steps[i])) {
        errors.add(FieldErrors.invalid(path + ".path", urlPath, "segment[" + i + "]: " + msg));
      }
    }
  }

  /**
   * What Go's {@code url.Parse} makes of a URL, as far as the webhook rules look: the scheme
   * (lower case), the host, the user information ({@code null} without an {@code @}), the
   * fragment and the raw query.
   */
  record GoUrl(String scheme, String host, String user, String fragment, String rawQuery) {

    /**
     * Go's {@code url.Parse}.
     *
     * @throws IllegalArgumentException with Go's error text ({@code parse "x": ...}) for a URL
     *     Go refuses
     */
    static GoUrl parse(String raw) {
      int hash = raw.indexOf('#');
      String u = hash < 0 ? raw : raw.substring(0, hash);
      String fragment = hash < 0 ? "" : raw.substring(hash + 1);
      for (int i = 0; i < u.length(); i++) {
        char c = u.charAt(i);
        if (c < 0x20 || c == 0x7f) {
          throw error(u, "net/url: invalid control character in URL");
        }
      }
      String scheme = "";
      String rest = u;
      schemeScan:
      for (int i = 0; i < u.length(); i++) {
        char c = u.charAt(i);
        if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
          continue;
        }
        if (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
          if (i == 0) {
            break;
          }
          continue;
        }
        if (c == ':') {
          if (i == 0) {
            throw error(u, "missing protocol scheme");
          }
          scheme = u.substring(0, i).toLowerCase(java.util.Locale.ROOT);
          rest = u.substring(i + 1);
        }
        break schemeScan;
      }
      String rawQuery = "";
      if (rest.endsWith("?") && rest.indexOf('?') == rest.length() - 1) {
        rest = rest.substring(0, rest.length() - 1);
      } else if (rest.indexOf('?') >= 0) {
        rawQuery = rest.substring(rest.indexOf('?') + 1);
        rest = rest.substring(0, rest.indexOf('?'));
      }
      String host = "";
      String user = null;
      if (!rest.startsWith("/")) {
        if (!scheme.isEmpty()) { // an opaque URL ("https:host"): no host
          return new GoUrl(scheme, "", null, unescapeFragment(raw, fragment), rawQuery);
        }
        int slash = rest.indexOf('/');
        if ((slash < 0 ? rest : rest.substring(0, slash)).contains(":")) {
          throw error(u, "first path segment in URL cannot contain colon");
        }
      }
      if ((!scheme.isEmpty() || !rest.startsWith("///")) && rest.startsWith("//")) {
        String authority = rest.substring(2);
        int slash = authority.indexOf('/');
        rest = slash < 0 ? "" : authority.substring(slash);
        authority = slash < 0 ? authority : authority.substring(0, slash);
        int at = authority.lastIndexOf('@');
        host = host(u, at < 0 ? authority : authority.substring(at + 1));
        user = at < 0 ? null : authority.substring(0, at);
      }
      checkEscapes(u, rest);
      return new GoUrl(scheme, host, user, unescapeFragment(raw, fragment), rawQuery);
    }

    /** Go's {@code parseHost}: a bracketed IPv6 literal or a name, and an optional numeric port. */
    private static String host(String u, String host) {
      String colonPort;
      if (host.startsWith("[")) {
        int close = host.lastIndexOf(']');
        if (close < 0) {
          throw error(u, "missing ']' in host");
        }
        colonPort = host.substring(close + 1);
      } else {
        int colon = host.lastIndexOf(':');
        colonPort = colon < 0 ? "" : host.substring(colon);
      }
      boolean validPort = colonPort.isEmpty()
          || colonPort.startsWith(":") && colonPort.chars().skip(1).allMatch(c -> c >= '0' && c <= '9');
      if (!validPort) {
        throw error(u, "invalid port " + FieldErrors.goValue(colonPort) + " after host");
      }
      checkEscapes(u, host);
      return host;
    }

    private static String unescapeFragment(String raw, String fragment) {
      checkEscapes(raw, fragment);
      return java.net.URLDecoder.decode(fragment.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Go's {@code unescape} refuses a {@code %} not followed by two hex digits. */
    private static void checkEscapes(String u, String s) {
      for (int i = s.indexOf('%'); i >= 0; i = s.indexOf('%', i + 1)) {
        if (i + 2 >= s.length() || !hex(s.charAt(i + 1)) || !hex(s.charAt(i + 2))) {
          String bad = s.substring(i, Math.min(s.length(), i + 3));
          throw error(u, "invalid URL escape " + FieldErrors.goValue(bad));
        }
      }
    }

    private static boolean hex(char c) {
      return Character.digit(c, 16) >= 0 && c < 0x80;
    }

    private static IllegalArgumentException error(String u, String message) {
      return new IllegalArgumentException("parse " + FieldErrors.goValue(u) + ": " + message);
    }
  }
}
