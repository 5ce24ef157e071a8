package io.listwatch.apiserver.strategy;

import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;
import java.util.regex.Pattern;

/**
 * kube's {@code IsDomainPrefixedPath}: a value such as {@code acme.io/foo}, a DNS-1123
 * subdomain, a slash, then an HTTP path. Used by a Job's {@code managedBy} and an
 * IngressClass's {@code controller}. Stateless.
 */
final class DomainPrefixedPath {

  private static final String HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
  private static final Pattern HTTP_PATH = Pattern.compile(HTTP_PATH_FMT);

  private DomainPrefixedPath() {
  }

  /** Adds kube's errors for {@code value} at {@code path}: required when empty, else its syntax. */
  static void validate(String path, String value, List<Status.Cause> errors) {
    if (value.isEmpty()) {
      errors.add(FieldErrors.required(path, ""));
      return;
    }
    String[] segments = value.split("/", 2);
    if (segments.length != 2 || segments[0].isEmpty() || segments[1].isEmpty()) {
      errors.add(FieldErrors.invalid(path, value, "must be a domain-prefixed path (such as \"acme.io/foo\")"));
      return;
    }
    for (String msg : NameSyntax.isDns1123Subdomain(segments[0])) {
      errors.add(FieldErrors.invalid(path, segments[0], msg));
    }
    if (!HTTP_PATH.matcher(segments[1]).matches()) {
      errors.add(FieldErrors.invalid(path, segments[1],
          "Invalid path (regex used for validation is '" + HTTP_PATH_FMT + "')"));
    }
  }
}
