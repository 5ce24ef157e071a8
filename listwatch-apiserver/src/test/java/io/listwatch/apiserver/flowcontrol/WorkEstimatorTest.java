package io.listwatch.apiserver.flowcontrol;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.apiserver.request.RequestInfo;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Seats of a request, as kube's list work estimator counts them: one per 100 objects, 1 to 10. */
class WorkEstimatorTest {

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      GET    | /api/v1/namespaces/a/pods/p |                        | 5000  | 600 | 1
      POST   | /api/v1/namespaces/a/pods   |                        | 5000  | 600 | 1
      GET    | /api/v1/pods                |                        | 0     | 600 | 1
      GET    | /api/v1/pods                |                        | 100   | 600 | 1
      GET    | /api/v1/pods                |                        | 101   | 600 | 2
      GET    | /api/v1/pods                |                        | 550   | 600 | 6
      GET    | /api/v1/pods                |                        | 5000  | 600 | 10
      GET    | /api/v1/pods                |                        | 5000  | 3   | 3
      GET    | /api/v1/pods                |                        | -1    | 600 | 1
      GET    | /api/v1/pods                | limit=100              | 5000  | 600 | 2
      GET    | /api/v1/pods                | limit=100&labelSelector=a=b | 500 | 600 | 6
      GET    | /api/v1/pods                | limit=9000             | 500   | 600 | 5
      GET    | /api/v1/pods                | watch=true             | 5000  | 600 | 1
      GET    | /api/v1/pods                | watch=true&sendInitialEvents=true | 5000 | 600 | 10
      """)
  void seats(String method, String path, String query, long stored, int levelLimit, int seats) {
    Map<String, List<String>> q = new HashMap<>();
    if (query != null) {
      for (String kv : query.split("&")) {
        int eq = kv.indexOf('=');
        q.put(kv.substring(0, eq), List.of(kv.substring(eq + 1)));
      }
    }
    RequestInfo info = RequestInfo.parse(method, path, q, (g, r) -> true);
    assertThat(WorkEstimator.seats(info, q, (g, r) -> r.equals("pods") ? stored : -1, levelLimit)).isEqualTo(seats);
  }
}
