package io.listwatch.apiserver.request;

import io.listwatch.api.StatusException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One HTTP request as the API sees it, whatever transport brought it: method, path (decoded
 * once), query parameters, headers, body bytes, the connection it came on, and (once the
 * authentication filter has run) the user it acts as. Immutable, but for the audit annotations
 * it collects; {@link #withUser} returns a copy that collects into the same ones.
 *
 * @param method the HTTP method in upper case ({@code GET}, {@code PATCH}, ...)
 * @param user who the request acts as; null until authentication has run
 * @param auditAnnotations where the request's audit annotations are collected (kube keeps them in
 *     the request's context), shared by its copies; the transport that audits the request reads them
 */
public record ApiRequest(String method, String path, Map<String, List<String>> query, Headers headers,
    byte[] body, ConnectionInfo connection, UserInfo user, AuditAnnotations auditAnnotations) {

  public static final String GET = "GET";
  public static final String POST = "POST";
  public static final String PUT = "PUT";
  public static final String PATCH = "PATCH";
  public static final String DELETE = "DELETE";

  public ApiRequest {
    Objects.requireNonNull(method);
    Objects.requireNonNull(path);
    Objects.requireNonNull(query);
    Objects.requireNonNull(headers);
    Objects.requireNonNull(body);
    Objects.requireNonNull(connection);
    Objects.requireNonNull(auditAnnotations);
  }

  /** A request whose audit annotations nobody reads (no audit log: tests, the fake client). */
  public ApiRequest(String method, String path, Map<String, List<String>> query, Headers headers, byte[] body,
      ConnectionInfo connection, UserInfo user) {
    this(method, path, query, headers, body, connection, user, new AuditAnnotations());
  }

  /** This request acting as {@code user}. */
  public ApiRequest withUser(UserInfo user) {
    return new ApiRequest(method, path, query, headers, body, connection, Objects.requireNonNull(user),
        auditAnnotations);
  }

  /** The first value of a header, or "". */
  public String header(CharSequence name) {
    return headers.get(name, "");
  }

  public String contentType() {
    return header("Content-Type");
  }

  public String accept() {
    return header("Accept");
  }

  public String host() {
    return header("Host");
  }

  /**
   * True when the client asks to upgrade this request to a WebSocket: {@code Connection} has
   * the token {@code Upgrade} and {@code Upgrade} is {@code websocket} (kube's test).
   */
  public boolean websocketUpgrade() {
    return headers.containsValue("Connection", "upgrade", true)
        && headers.containsValue("Upgrade", "websocket", true);
  }

  /** A GET with {@code watch} set to anything but "0" or "false" (kube's rule for booleans). */
  public boolean isWatch() {
    if (!GET.equals(method)) {
      return false;
    }
    List<String> w = query.get("watch");
    if (w == null || w.isEmpty()) {
      return false;
    }
    String v = w.getFirst();
    return !v.equals("0") && !v.equalsIgnoreCase("false");
  }

  /** True for {@code dryRun=All}; any other dryRun value is refused (400), as kube does. */
  public boolean isDryRun() {
    List<String> d = query.get("dryRun");
    if (d == null || d.isEmpty()) {
      return false;
    }
    for (String v : d) {
      if (!v.equals("All")) {
        throw StatusException.badRequest("Unsupported value: \"" + v + "\": supported values: \"All\"");
      }
    }
    return true;
  }

  /** The first value of a query parameter, or "". */
  public String param(String name) {
    List<String> v = query.get(name);
    return v == null || v.isEmpty() ? "" : v.getFirst();
  }

  /** The media type of the body without parameters, lower case. */
  public String mediaType() {
    String contentType = contentType();
    int semi = contentType.indexOf(';');
    return (semi < 0 ? contentType : contentType.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
  }
}
