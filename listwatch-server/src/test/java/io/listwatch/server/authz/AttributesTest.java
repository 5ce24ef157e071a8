package io.listwatch.server.authz;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.apiserver.request.RequestInfo;
import io.listwatch.apiserver.request.UserInfo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What RBAC is asked for a request: a list or watch pinned to one name carries it, as kube's request info. */
class AttributesTest {

  private static final UserInfo ALICE = UserInfo.of("alice", List.of("system:authenticated"));

  private static Attributes of(String path, Map<String, List<String>> query) {
    return Attributes.of(ALICE, RequestInfo.parse("GET", path, query, (g, r) -> !r.equals("namespaces")), query);
  }

  @Test
  void aListPinnedToOneName_carriesIt_andOtherSelectorsDoNot() {
    assertThat(of("/api/v1/namespaces/a/configmaps", Map.of("fieldSelector", List.of("metadata.name=cfg"))).name())
        .isEqualTo("cfg");
    assertThat(of("/api/v1/namespaces/a/configmaps",
        Map.of("watch", List.of("true"), "fieldSelector", List.of("metadata.name==cfg"))).name()).isEqualTo("cfg");
    assertThat(of("/api/v1/namespaces/a/configmaps", Map.of("fieldSelector", List.of("metadata.name!=cfg"))).name())
        .isEmpty();
    assertThat(of("/api/v1/namespaces/a/configmaps", Map.of("fieldSelector", List.of("metadata.name=a%b"))).name())
        .as("not a path segment").isEmpty();
    assertThat(of("/api/v1/namespaces/a/configmaps/x", Map.of("fieldSelector", List.of("metadata.name=cfg"))).name())
        .as("a get keeps its own name").isEqualTo("x");
  }

  /** A namespace object is asked in itself, as kube's request info reads its path; a pinned list of them is not. */
  @Test
  void aNamespace_isAskedInItself_butAListOfNamespacesPinnedToOne_isClusterWide() {
    assertThat(of("/api/v1/namespaces/team-a", Map.of()).namespace()).isEqualTo("team-a");
    Attributes list = of("/api/v1/namespaces", Map.of("fieldSelector", List.of("metadata.name=team-a")));
    assertThat(list.name()).isEqualTo("team-a");
    assertThat(list.namespace()).isEmpty();
  }
}
