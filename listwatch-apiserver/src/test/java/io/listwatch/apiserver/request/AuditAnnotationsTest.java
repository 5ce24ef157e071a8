package io.listwatch.apiserver.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** kube's rules for admission's audit annotations (its {@code TestAddAnnotation}). */
class AuditAnnotationsTest {

  @Test
  void add_keepsTheFirstValueOfAKey_andIgnoresAnother() {
    AuditAnnotations a = new AuditAnnotations();
    assertThat(a.add("foo.admission.k8s.io/key1", "value1")).isTrue();
    assertThat(a.add("foo.admission.k8s.io/key2", "value2")).isTrue();
    assertThat(a.add("foo.admission.k8s.io/key1", "value1")).as("the same value again").isTrue();

    assertThat(a.add("foo.admission.k8s.io/key1", "value1-overwrite")).isFalse();

    assertThat(a.map()).containsExactly(entry("foo.admission.k8s.io/key1", "value1"),
        entry("foo.admission.k8s.io/key2", "value2"));
  }

  @Test
  void add_refusesAKeyThatIsNoPrefixedQualifiedName_withKubesMessage() {
    Map<String, String> invalid = Map.of(
        "invalid dns subdomain", "INVALID-DNS-Subdomain/policy",
        "no plugin name", "policy",
        "no key name", "foo.admission.k8s.io",
        "empty key", "",
        "two slashes", "a.io/b/c");
    AuditAnnotations a = new AuditAnnotations();
    invalid.forEach((name, key) -> assertThatThrownBy(() -> a.add(key, "value-foo")).as(name)
        .isInstanceOf(IllegalArgumentException.class));
    assertThat(a.map()).isEmpty();

    assertThatThrownBy(() -> a.add("policy", "v")).hasMessage("annotation key has invalid format, the right format "
        + "is a DNS subdomain prefix and '/' and key name. (e.g. 'podsecuritypolicy.admission.k8s.io/admit-policy')");
    assertThatThrownBy(() -> a.add("INVALID-DNS-Subdomain/policy", "v")).hasMessage("annotation key has invalid "
        + "format prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
        + "'-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
        + "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'). A qualified name like "
        + "'podsecuritypolicy.admission.k8s.io/admit-policy' is required.");
  }

  @Test
  void map_isInKeyOrder_asKubeSerializesItsMap() {
    AuditAnnotations a = new AuditAnnotations();
    a.add("z.io/last", "1");
    a.add("a.io/first", "2");

    assertThat(a.map().keySet()).containsExactly("a.io/first", "z.io/last");
  }

  @Test
  void aRequestAndItsCopies_collectIntoTheSameAnnotations() {
    ApiRequest request = new ApiRequest("GET", "/api", Map.of(), Headers.empty(), new byte[0],
        ConnectionInfo.insecure(null), null);
    request.withUser(UserInfo.UNSECURED).auditAnnotations().add("a.io/b", "c");

    assertThat(request.auditAnnotations().map()).containsExactly(entry("a.io/b", "c"));
  }
}
