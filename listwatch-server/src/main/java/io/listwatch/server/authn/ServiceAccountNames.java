package io.listwatch.server.authn;

import io.listwatch.api.validation.NameSyntax;
import java.util.List;
import java.util.Optional;

/**
 * How a service account appears as a user, as kube names it: user
 * {@code system:serviceaccount:<namespace>:<name>} in the groups {@code system:serviceaccounts}
 * and {@code system:serviceaccounts:<namespace>}. Stateless.
 */
public final class ServiceAccountNames {

  /** The prefix of every service account's user name. */
  public static final String USERNAME_PREFIX = "system:serviceaccount:";
  /** The group of every service account. */
  public static final String ALL_SERVICE_ACCOUNTS_GROUP = "system:serviceaccounts";
  /** The extra key kube attaches to a token's user: {@code JTI=<token id>}. */
  public static final String CREDENTIAL_ID_KEY = "authentication.kubernetes.io/credential-id";

  private ServiceAccountNames() {
  }

  /** A service account's namespace and name. */
  public record Ref(String namespace, String name) {
  }

  /** {@code system:serviceaccount:<namespace>:<name>}. */
  public static String username(String namespace, String name) {
    return USERNAME_PREFIX + namespace + ":" + name;
  }

  /** The groups of every service account in {@code namespace}. */
  public static List<String> groups(String namespace) {
    return List.of(ALL_SERVICE_ACCOUNTS_GROUP, ALL_SERVICE_ACCOUNTS_GROUP + ":" + namespace);
  }

  /**
   * The service account a user name names, when it has the form
   * {@code system:serviceaccount:<namespace>:<name>} with a valid namespace (DNS-1123 label) and
   * name (DNS-1123 subdomain); empty for any other user name (kube's {@code SplitUsername}).
   */
  public static Optional<Ref> parse(String username) {
    if (!username.startsWith(USERNAME_PREFIX)) {
      return Optional.empty();
    }
    String[] parts = username.substring(USERNAME_PREFIX.length()).split(":", -1);
    if (parts.length != 2 || !NameSyntax.isDns1123Label(parts[0]).isEmpty()
        || !NameSyntax.isDns1123Subdomain(parts[1]).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Ref(parts[0], parts[1]));
  }
}
