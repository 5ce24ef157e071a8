package io.listwatch.server.authn;

import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.api.StatusException;
import io.listwatch.server.authz.Attributes;
import io.listwatch.server.authz.Authorizer;
import io.listwatch.server.authz.Decision;
import io.listwatch.server.authz.Forbidden;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.Headers;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Acts on the {@code Impersonate-*} headers after authentication, as kube's impersonation
 * filter does: {@code Impersonate-User}, {@code Impersonate-Group} (repeatable),
 * {@code Impersonate-Uid} and {@code Impersonate-Extra-<key>} (repeatable; the key is
 * lower-cased and %-decoded). The authenticated user needs the verb {@code impersonate} on each
 * thing asked for, with the impersonated value as the resource name:
 * <ul>
 *   <li>{@code users} (group "") for a user name, or {@code serviceaccounts} in the account's
 *       namespace for {@code system:serviceaccount:<ns>:<name>};
 *   <li>{@code groups} (group "") for each group;
 *   <li>{@code uids} (group {@code authentication.k8s.io}) for the uid;
 *   <li>{@code userextras/<key>} (group {@code authentication.k8s.io}) for each extra value.
 * </ul>
 * The first denial answers kube's 403 ({@code users "bob" is forbidden: User "alice" cannot
 * impersonate resource "users" in API group "" at the cluster scope}). Groups, a uid or extras
 * without a user are refused with 400. The impersonated user gets {@code system:authenticated}
 * unless the groups asked for include it or {@code system:unauthenticated}
 * ({@code system:anonymous} gets {@code system:unauthenticated} instead), and a service account
 * without groups asked for gets its service-account groups. The headers are removed from the
 * request that goes on; a request without them goes on as the same object. Members of {@code system:masters} may impersonate anyone.
 *
 * <p>Immutable and thread-safe; never blocks (the authorizer answers from memory).
 */
public final class Impersonation implements UnaryOperator<ApiRequest> {

  private static final Logger LOG = LoggerFactory.getLogger(Impersonation.class);

  public static final String USER_HEADER = "Impersonate-User";
  public static final String GROUP_HEADER = "Impersonate-Group";
  public static final String UID_HEADER = "Impersonate-Uid";
  public static final String EXTRA_HEADER_PREFIX = "Impersonate-Extra-";
  private static final String AUTHENTICATION_GROUP = "authentication.k8s.io";

  private final Authorizer authorizer;

  public Impersonation(Authorizer authorizer) {
    this.authorizer = Objects.requireNonNull(authorizer);
  }

  @Override
  public ApiRequest apply(ApiRequest request) {
    Headers headers = request.headers();
    String user = headers.get(USER_HEADER, "");
    List<String> groups = headers.getAll(GROUP_HEADER);
    String uid = headers.get(UID_HEADER, "");
    Map<String, List<String>> extra = extras(headers);
    if (user.isEmpty() && groups.isEmpty() && uid.isEmpty() && extra.isEmpty()) {
      return request;
    }
    if (user.isEmpty()) {
      throw StatusException.badRequest("requested " + describe(groups, uid, extra) + " without impersonating a user");
    }
    UserInfo requester = request.user();
    List<String> newGroups = new ArrayList<>();
    Optional<ServiceAccountNames.Ref> sa = ServiceAccountNames.parse(user);
    if (sa.isPresent()) {
      check(requester, "", "serviceaccounts", "", sa.get().namespace(), sa.get().name());
      if (groups.isEmpty()) {
        newGroups.addAll(ServiceAccountNames.groups(sa.get().namespace()));
      }
    } else {
      check(requester, "", "users", "", "", user);
    }
    for (String g : groups) {
      check(requester, "", "groups", "", "", g);
      newGroups.add(g);
    }
    for (Map.Entry<String, List<String>> e : extra.entrySet()) {
      for (String value : e.getValue()) {
        check(requester, AUTHENTICATION_GROUP, "userextras", e.getKey(), "", value);
      }
    }
    if (!uid.isEmpty()) {
      check(requester, AUTHENTICATION_GROUP, "uids", "", "", uid);
    }
    if (!user.equals(UserInfo.ANONYMOUS_NAME)) {
      if (!newGroups.contains(UserInfo.AUTHENTICATED) && !newGroups.contains(UserInfo.UNAUTHENTICATED)) {
        newGroups.add(UserInfo.AUTHENTICATED);
      }
    } else if (!newGroups.contains(UserInfo.UNAUTHENTICATED)) {
      newGroups.add(UserInfo.UNAUTHENTICATED);
    }
    UserInfo impersonated = new UserInfo(user, uid, newGroups, extra);
    LOG.debug("{} is impersonating {}", requester.name(), impersonated.name());
    return new ApiRequest(request.method(), request.path(), request.query(), withoutImpersonation(headers),
        request.body(), request.connection(), impersonated, request.auditAnnotations());
  }

  private void check(UserInfo requester, String group, String resource, String subresource, String namespace,
      String name) {
    if (requester.inGroup(UserInfo.MASTERS)) {
      return;
    }
    // kube's API version: none for users, groups and service accounts, v1 for uids and userextras
    Attributes a = new Attributes(requester, "impersonate", true, "", group, group.isEmpty() ? "" : "v1",
        resource, subresource, namespace, name);
    Decision d = authorizer.authorize(a);
    if (!d.allowed()) {
      throw Forbidden.of(a, d.reason());
    }
  }

  /** {@code Impersonate-Extra-<key>} headers by key (lower-cased, %-decoded), values in order. */
  private static Map<String, List<String>> extras(Headers headers) {
    Map<String, List<String>> extra = new LinkedHashMap<>();
    int prefix = EXTRA_HEADER_PREFIX.length();
    for (Map.Entry<String, String> h : headers) {
      String name = h.getKey();
      // every request's every header passes here: only an extra's name is lowered
      if (name.length() > prefix && name.regionMatches(true, 0, EXTRA_HEADER_PREFIX, 0, prefix)) {
        extra.computeIfAbsent(unescape(name.substring(prefix).toLowerCase(Locale.ROOT)), k -> new ArrayList<>())
            .add(h.getValue());
      }
    }
    return extra;
  }

  /** kube's {@code url.PathUnescape}, keeping the key as sent when it is not valid %-encoding. */
  private static String unescape(String key) {
    if (key.indexOf('%') < 0) {
      return key;
    }
    try {
      return URLDecoder.decode(key.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return key;
    }
  }

  private static String describe(List<String> groups, String uid, Map<String, List<String>> extra) {
    List<String> parts = new ArrayList<>();
    groups.forEach(g -> parts.add("group " + g));
    extra.forEach((k, v) -> v.forEach(x -> parts.add("extra " + k + "=" + x)));
    if (!uid.isEmpty()) {
      parts.add("uid " + uid);
    }
    return String.join(", ", parts);
  }

  private static Headers withoutImpersonation(Headers headers) {
    String prefix = EXTRA_HEADER_PREFIX.toLowerCase(Locale.ROOT);
    return headers.without(name -> name.equals("impersonate-user") || name.equals("impersonate-group")
        || name.equals("impersonate-uid") || name.startsWith(prefix));
  }
}
