package io.listwatch.apiserver.request;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The name a list or watch asks for through its field selector, as kube's RequestInfoFactory reads it. */
class RequestInfoTest {

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      /api/v1/namespaces/a/pods      | metadata.name=p                       | p
      /api/v1/namespaces/a/pods      | metadata.name==p,status.phase=Running | p
      /api/v1/namespaces/a/pods      | status.phase=Running,metadata.name=p  | p
      /api/v1/pods                   | metadata.name=p\\,q                   | 'p,q'
      /api/v1/namespaces/a/pods      | metadata.name!=p                      | ''
      /api/v1/namespaces/a/pods      | metadata.name=..                      | ''
      /api/v1/namespaces/a/pods      | metadata.name=a%2Fb                   | ''
      /api/v1/namespaces/a/pods      | metadata.name=                        | ''
      /api/v1/namespaces/a/pods      | spec.nodeName=n                       | ''
      /api/v1/namespaces/a/pods      | metadata.name=p=q=                    | ''
      /api/v1/namespaces/a/pods/p    | metadata.name=q                       | ''
      /version                       | metadata.name=p                       | ''
      """)
  void listedName_isTheNameAFieldSelectorPins(String path, String selector, String name) {
    Map<String, List<String>> query = Map.of("fieldSelector", List.of(selector));
    RequestInfo info = RequestInfo.parse("GET", path, query, (g, r) -> !r.equals("namespaces"));
    assertThat(info.listedName(query)).isEqualTo(name);
    RequestInfo watch = RequestInfo.parse("GET", path, Map.of("watch", List.of("true")), (g, r) -> !r.equals("namespaces"));
    assertThat(watch.listedName(query)).as("a watch the same").isEqualTo(name);
  }
}
