package io.listwatch.apiserver.flowcontrol;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.apiserver.request.RequestInfo;
import io.listwatch.apiserver.request.UserInfo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube's FlowSchema matching rules, each row one rule, one request and whether they match
 * (cases after kube's {@code rule_matching} tests).
 */
class FlowSchemaTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  static FlowSchema schema(String subjects, String rules) throws Exception {
    JsonNode obj = JSON.readTree("{\"metadata\":{\"name\":\"s\",\"uid\":\"u\"},\"spec\":{\"matchingPrecedence\":10,"
        + "\"priorityLevelConfiguration\":{\"name\":\"pl\"},\"distinguisherMethod\":{\"type\":\"ByUser\"},"
        + "\"rules\":[{\"subjects\":" + subjects + "," + rules + "}]}}");
    return FlowSchema.from(obj);
  }

  static RequestInfo info(String method, String path) {
    return RequestInfo.parse(method, path, Map.of(), (g, r) -> !r.equals("nodes") && !r.equals("namespaces"));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      [{"kind":"User","user":{"name":"alice"}}]                | alice                              | true
      [{"kind":"User","user":{"name":"alice"}}]                | bob                                | false
      [{"kind":"User","user":{"name":"*"}}]                    | bob                                | true
      [{"kind":"Group","group":{"name":"devs"}}]               | alice                              | true
      [{"kind":"Group","group":{"name":"ops"}}]                | alice                              | false
      [{"kind":"ServiceAccount","serviceAccount":{"namespace":"ns","name":"sa"}}] | system:serviceaccount:ns:sa | true
      [{"kind":"ServiceAccount","serviceAccount":{"namespace":"ns","name":"*"}}]  | system:serviceaccount:ns:x  | true
      [{"kind":"ServiceAccount","serviceAccount":{"namespace":"ns","name":"*"}}]  | system:serviceaccount:other:x | false
      [{"kind":"ServiceAccount","serviceAccount":{"namespace":"ns","name":"sa"}}] | ns:sa                       | false
      """)
  void subjects_matchByUserGroupOrServiceAccount(String subjects, String user, boolean match) throws Exception {
    FlowSchema fs = schema(subjects, "\"nonResourceRules\":[{\"verbs\":[\"*\"],\"nonResourceURLs\":[\"*\"]}]");
    assertThat(fs.matches(UserInfo.of(user, List.of("devs")), info("GET", "/healthz"))).isEqualTo(match);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"verbs":["list"],"apiGroups":[""],"resources":["pods"],"namespaces":["*"]}            | GET  | /api/v1/namespaces/a/pods            | true
      {"verbs":["get"],"apiGroups":[""],"resources":["pods"],"namespaces":["*"]}             | GET  | /api/v1/namespaces/a/pods            | false
      {"verbs":["*"],"apiGroups":["apps"],"resources":["pods"],"namespaces":["*"]}           | GET  | /api/v1/namespaces/a/pods            | false
      {"verbs":["*"],"apiGroups":["*"],"resources":["pods"],"namespaces":["b"]}              | GET  | /api/v1/namespaces/a/pods/p          | false
      {"verbs":["*"],"apiGroups":["*"],"resources":["pods"],"namespaces":["a"]}              | GET  | /api/v1/namespaces/a/pods/p          | true
      {"verbs":["*"],"apiGroups":["*"],"resources":["pods"],"namespaces":["*"]}              | GET  | /api/v1/pods                         | false
      {"verbs":["*"],"apiGroups":["*"],"resources":["pods"],"clusterScope":true}             | GET  | /api/v1/pods                         | true
      {"verbs":["*"],"apiGroups":["*"],"resources":["nodes"],"clusterScope":true}            | GET  | /api/v1/nodes/n                      | true
      {"verbs":["*"],"apiGroups":["*"],"resources":["pods"],"namespaces":["*"]}              | PUT  | /api/v1/namespaces/a/pods/p/status   | false
      {"verbs":["update"],"apiGroups":["*"],"resources":["pods/status"],"namespaces":["*"]}  | PUT  | /api/v1/namespaces/a/pods/p/status   | true
      {"verbs":["create"],"apiGroups":["apps"],"resources":["*"],"namespaces":["*"]}         | POST | /apis/apps/v1/namespaces/a/deployments | true
      """)
  void resourceRules_matchVerbGroupResourceAndNamespace(String rule, String method, String path, boolean match)
      throws Exception {
    FlowSchema fs = schema("[{\"kind\":\"Group\",\"group\":{\"name\":\"*\"}}]", "\"resourceRules\":[" + rule + "]");
    assertThat(fs.matches(UserInfo.of("alice", List.of()), info(method, path))).isEqualTo(match);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      *          | /anything          | true
      /healthz   | /healthz           | true
      /healthz   | /healthz/etcd      | false
      /healthz/* | /healthz/etcd      | true
      /healthz/* | /healthz           | true
      /healthz/* | /healthzz          | false
      /api/*     | /api/v1/pods       | false
      """)
  void nonResourceUrls_matchExactlyOrByPrefixPattern(String pattern, String path, boolean match) throws Exception {
    FlowSchema fs = schema("[{\"kind\":\"Group\",\"group\":{\"name\":\"*\"}}]",
        "\"nonResourceRules\":[{\"verbs\":[\"get\"],\"nonResourceURLs\":[\"" + pattern + "\"]}]");
    assertThat(fs.matches(UserInfo.of("alice", List.of()), info("GET", path))).isEqualTo(match);
  }
}
