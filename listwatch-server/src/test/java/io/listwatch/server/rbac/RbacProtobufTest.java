package io.listwatch.server.rbac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** RBAC objects in kube's protobuf form, as kubectl's create commands send them. */
class RbacProtobufTest {

  private static byte[] field(int number, byte[] value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(number << 3 | 2);
    out.write(value.length); // all test values are shorter than 128 bytes
    out.writeBytes(value);
    return out.toByteArray();
  }

  private static byte[] field(int number, String value) {
    return field(number, value.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  private static byte[] envelope(String apiVersion, String kind, byte[] object) {
    return concat(new byte[] {'k', '8', 's', 0}, field(1, concat(field(1, apiVersion), field(2, kind))),
        field(2, object));
  }

  @Test
  void clusterRole_withLabelsRulesAndAggregationRule() {
    byte[] meta = concat(field(1, "agg"), field(2, ""), field(11, concat(field(1, "team"), field(2, "a"))));
    byte[] rule = concat(field(1, "get"), field(1, "list"), field(2, ""), field(3, "pods"));
    byte[] selector = field(1, concat(field(1, "rbac.example.com/agg"), field(2, "true")));
    byte[] obj = concat(field(1, meta), field(2, rule), field(3, field(1, selector)));

    ObjectNode json = RbacProtobuf.decode(envelope("rbac.authorization.k8s.io/v1", "ClusterRole", obj));

    assertThat(json.toString()).isEqualTo("{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\","
        + "\"metadata\":{\"name\":\"agg\",\"labels\":{\"team\":\"a\"}},"
        + "\"rules\":[{\"verbs\":[\"get\",\"list\"],\"apiGroups\":[\"\"],\"resources\":[\"pods\"]}],"
        + "\"aggregationRule\":{\"clusterRoleSelectors\":[{\"matchLabels\":{\"rbac.example.com/agg\":\"true\"}}]}}");
  }

  @Test
  void roleBinding_subjectsAndRoleRef_emptyOptionalFieldsLeftOut() {
    byte[] subject = concat(field(1, "User"), field(2, "rbac.authorization.k8s.io"), field(3, "alice"), field(4, ""));
    byte[] roleRef = concat(field(1, "rbac.authorization.k8s.io"), field(2, "ClusterRole"), field(3, "view"));
    byte[] obj = concat(field(1, concat(field(1, "b"), field(3, "ns1"))), field(2, subject), field(3, roleRef));

    ObjectNode json = RbacProtobuf.decode(envelope("rbac.authorization.k8s.io/v1", "RoleBinding", obj));

    assertThat(json.path("metadata").toString()).isEqualTo("{\"name\":\"b\",\"namespace\":\"ns1\"}");
    assertThat(json.path("subjects").toString())
        .isEqualTo("[{\"kind\":\"User\",\"apiGroup\":\"rbac.authorization.k8s.io\",\"name\":\"alice\"}]");
    assertThat(json.path("roleRef").toString())
        .isEqualTo("{\"apiGroup\":\"rbac.authorization.k8s.io\",\"kind\":\"ClusterRole\",\"name\":\"view\"}");
  }

  @Test
  void otherApiVersion_isBadRequest() {
    StatusException e = catchThrowableOfType(StatusException.class,
        () -> RbacProtobuf.decode(envelope("v1", "ConfigMap", field(1, field(1, "x")))));

    assertThat(e.code()).isEqualTo(400);
  }
}
