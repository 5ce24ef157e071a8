package io.listwatch.apiserver.admission;

import static io.listwatch.apiserver.admission.Admissions.admitted;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** kube's admission_test.go cases; IngressClasses are not served yet, so only a stub lists them. */
class DefaultIngressClassTest {

  private final ListersStub listers = new ListersStub();

  private static String ingressClass(String name, String created, String isDefault) {
    return "{\"metadata\":{\"name\":\"" + name + "\",\"creationTimestamp\":\"" + created + "\""
        + (isDefault == null ? "" : ",\"annotations\":{\"ingressclass.kubernetes.io/is-default-class\":\"" + isDefault + "\"}")
        + "},\"spec\":{\"controller\":\"example.com/c\"}}";
  }

  private String className(String metadata, String spec) {
    var ingress = admitted(new DefaultIngressClass(listers), Admissions.create("networking.k8s.io", "v1", "ingresses", "ns",
        "{\"metadata\":" + metadata + ",\"spec\":" + spec + "}"));
    return ingress.at("/spec/ingressClassName").isMissingNode() ? null : ingress.at("/spec/ingressClassName").asText();
  }

  @Test
  void anIngressNamingNoClass_getsTheNewestDefault() {
    listers.add("networking.k8s.io", "ingressclasses", "", ingressClass("no-default", "2024-01-01T00:00:00Z", null))
        .add("networking.k8s.io", "ingressclasses", "", ingressClass("false-default", "2024-01-01T00:00:00Z", "false"))
        .add("networking.k8s.io", "ingressclasses", "", ingressClass("empty-default", "2024-01-01T00:00:00Z", ""));
    assertThat(className("{\"name\":\"i\"}", "{}")).as("no default").isNull();
    listers.add("networking.k8s.io", "ingressclasses", "", ingressClass("default1", "2024-01-01T00:00:00Z", "true"));
    assertThat(className("{\"name\":\"i\"}", "{}")).isEqualTo("default1");
    listers.add("networking.k8s.io", "ingressclasses", "", ingressClass("default2", "2024-02-01T00:00:00Z", "true"));
    assertThat(className("{\"name\":\"i\"}", "{}")).as("two defaults: the newest").isEqualTo("default2");
    assertThat(className("{\"name\":\"i\"}", "{\"ingressClassName\":\"foo\"}")).isEqualTo("foo");
    assertThat(className("{\"name\":\"i\"}", "{\"ingressClassName\":\"\"}")).isEmpty();
    assertThat(className("{\"name\":\"i\",\"annotations\":{\"kubernetes.io/ingress.class\":\"foo\"}}", "{}")).isNull();
  }
}
