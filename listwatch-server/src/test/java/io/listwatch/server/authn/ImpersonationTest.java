package io.listwatch.server.authn;

import io.listwatch.apiserver.request.UserInfo;
import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.StatusException;
import io.listwatch.server.authz.Attributes;
import io.listwatch.server.authz.Authorizer;
import io.listwatch.server.authz.Decision;
import io.listwatch.server.filters.HandlerChain;
import io.listwatch.apiserver.request.ApiRequest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Impersonation in the request filters: alice may impersonate, bob may not. */
class ImpersonationTest {

  /** Every impersonation check the authorizer was asked, in order. */
  private final List<Attributes> asked = new CopyOnWriteArrayList<>();
  /** admin may impersonate anything; carol only the user "dave"; everyone may read pods. */
  private final Authorizer authorizer = a -> {
    if (a.verb().equals("impersonate")) {
      asked.add(a);
      if (a.user().name().equals("admin")) {
        return Decision.allow("");
      }
      if (a.user().name().equals("carol") && a.resource().equals("users") && a.name().equals("dave")) {
        return Decision.allow("");
      }
      return Decision.noOpinion("");
    }
    return Decision.allow("");
  };
  private final TokenFileAuthenticator tokens = TokenFileAuthenticator.parse("""
      admin-token,admin,1,admins
      carol-token,carol,3
      """, "tokens.csv");
  private final HandlerChain chain = HandlerChain.builder()
      .authenticators(List.of(new BearerTokenAuthenticator(List.of(tokens), List.of("api"))))
      .impersonation(new Impersonation(authorizer))
      .authorizer(authorizer)
      .build();

  private ApiRequest admit(String token, String... headers) {
    String[] all = new String[headers.length + 2];
    all[0] = "Authorization";
    all[1] = "Bearer " + token;
    System.arraycopy(headers, 0, all, 2, headers.length);
    ApiRequest request = Requests.secure("GET", "/api/v1/namespaces/default/pods", all);
    return chain.admit(request, Requests.info(request)).request();
  }

  private static StatusException status(Runnable r) {
    try {
      r.run();
    } catch (StatusException e) {
      return e;
    }
    throw new AssertionError("expected a StatusException");
  }

  @Test
  void allowedUser_actsAsTheUserAndGroups_withSystemAuthenticated() {
    ApiRequest r = admit("admin-token", "Impersonate-User", "bob", "Impersonate-Group", "g1",
        "Impersonate-Group", "g2");

    assertThat(r.user()).isEqualTo(new UserInfo("bob", "", List.of("g1", "g2", "system:authenticated"), Map.of()));
    assertThat(asked).extracting(Attributes::resource, Attributes::name)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("users", "bob"),
            org.assertj.core.groups.Tuple.tuple("groups", "g1"), org.assertj.core.groups.Tuple.tuple("groups", "g2"));
    assertThat(asked).allSatisfy(a -> {
      assertThat(a.user().name()).isEqualTo("admin");
      assertThat(a.apiGroup()).isEmpty();
      assertThat(a.namespace()).isEmpty();
    });
    assertThat(r.headers().contains("Impersonate-User")).isFalse();
    assertThat(r.headers().contains("Impersonate-Group")).isFalse();
    assertThat(r.header("Authorization")).isEqualTo("Bearer admin-token");
  }

  @Test
  void uidAndExtras_areCheckedInTheAuthenticationGroup_andCarriedOver() {
    ApiRequest r = admit("admin-token", "Impersonate-User", "bob", "Impersonate-Uid", "u-7",
        "Impersonate-Extra-Scopes", "view", "Impersonate-Extra-Scopes", "edit",
        "Impersonate-Extra-example.com%2Fteam", "a");

    assertThat(r.user().uid()).isEqualTo("u-7");
    assertThat(r.user().extra()).isEqualTo(Map.of("scopes", List.of("view", "edit"), "example.com/team", List.of("a")));
    assertThat(asked).filteredOn(a -> !a.resource().equals("users"))
        .extracting(Attributes::apiGroup, Attributes::resource, Attributes::subresource, Attributes::name)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("authentication.k8s.io", "userextras", "scopes", "view"),
            org.assertj.core.groups.Tuple.tuple("authentication.k8s.io", "userextras", "scopes", "edit"),
            org.assertj.core.groups.Tuple.tuple("authentication.k8s.io", "userextras", "example.com/team", "a"),
            org.assertj.core.groups.Tuple.tuple("authentication.k8s.io", "uids", "", "u-7"));
  }

  @Test
  void serviceAccount_isCheckedAsServiceAccountsInItsNamespace_andGetsItsGroups() {
    ApiRequest r = admit("admin-token", "Impersonate-User", "system:serviceaccount:ci:builder");

    assertThat(r.user().name()).isEqualTo("system:serviceaccount:ci:builder");
    assertThat(r.user().groups())
        .containsExactly("system:serviceaccounts", "system:serviceaccounts:ci", "system:authenticated");
    assertThat(asked).singleElement().satisfies(a -> {
      assertThat(a.resource()).isEqualTo("serviceaccounts");
      assertThat(a.namespace()).isEqualTo("ci");
      assertThat(a.name()).isEqualTo("builder");
    });
  }

  @Test
  void refusedUser_gets403WithKubesMessage() {
    StatusException e = status(() -> admit("carol-token", "Impersonate-User", "bob"));

    assertThat(e.code()).isEqualTo(403);
    assertThat(e.status().reason()).isEqualTo("Forbidden");
    assertThat(e.status().message()).isEqualTo(
        "users \"bob\" is forbidden: User \"carol\" cannot impersonate resource \"users\" in API group \"\" at the "
            + "cluster scope");
  }

  @Test
  void userAllowed_butGroupRefused_gets403ForTheGroup() {
    assertThat(admit("carol-token", "Impersonate-User", "dave").user().name()).isEqualTo("dave");

    StatusException e = status(() -> admit("carol-token", "Impersonate-User", "dave", "Impersonate-Group", "admins"));

    assertThat(e.status().message()).isEqualTo("groups \"admins\" is forbidden: User \"carol\" cannot impersonate "
        + "resource \"groups\" in API group \"\" at the cluster scope");
  }

  @Test
  void refusedServiceAccountAndExtra_name403InTheirNamespaceAndGroup() {
    assertThat(status(() -> admit("carol-token", "Impersonate-User", "system:serviceaccount:ci:builder"))
        .status().message()).isEqualTo("serviceaccounts \"builder\" is forbidden: User \"carol\" cannot impersonate "
        + "resource \"serviceaccounts\" in API group \"\" in the namespace \"ci\"");
    assertThat(status(() -> admit("carol-token", "Impersonate-User", "dave", "Impersonate-Extra-Scopes", "view"))
        .status().message()).isEqualTo("userextras.authentication.k8s.io \"view\" is forbidden: User \"carol\" cannot "
        + "impersonate resource \"userextras/scopes\" in API group \"authentication.k8s.io\" at the cluster scope");
  }

  @Test
  void groupsWithoutUser_is400() {
    StatusException e = status(() -> admit("admin-token", "Impersonate-Group", "g1"));

    assertThat(e.code()).isEqualTo(400);
    assertThat(e.status().reason()).isEqualTo("BadRequest");
    assertThat(e.status().message()).isEqualTo("requested group g1 without impersonating a user");
    assertThat(status(() -> admit("admin-token", "Impersonate-Uid", "u")).code()).isEqualTo(400);
    assertThat(status(() -> admit("admin-token", "Impersonate-Extra-Scopes", "x")).code()).isEqualTo(400);
  }

  @Test
  void explicitUnauthenticatedGroup_isKept_andAnonymousGetsUnauthenticated() {
    assertThat(admit("admin-token", "Impersonate-User", "bob", "Impersonate-Group", "system:unauthenticated")
        .user().groups()).containsExactly("system:unauthenticated");
    assertThat(admit("admin-token", "Impersonate-User", "system:anonymous").user().groups())
        .containsExactly("system:unauthenticated");
  }

  @Test
  void systemMasters_mayImpersonateWithoutAskingTheAuthorizer() {
    Impersonation impersonation = new Impersonation(a -> Decision.deny("never"));
    ApiRequest request = Requests.secure("GET", "/api", "Impersonate-User", "bob")
        .withUser(UserInfo.of("root", List.of(UserInfo.MASTERS)));

    assertThat(impersonation.apply(request).user().name()).isEqualTo("bob");
  }

  @Test
  void noImpersonationHeaders_leaveTheRequestAlone() {
    assertThat(admit("carol-token").user().name()).isEqualTo("carol");
    assertThat(asked).isEmpty();
  }
}
