package io.listwatch.apiserver.flowcontrol;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.apiserver.request.RequestInfo;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Seats of a request, as kube's list work estimator counts them: one per 100 objects, from 1 to
 * the level's maximum, which kube's configuration controller sets from the level's seats and hand size.
 */
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
      GET    | /api/v1/pods                |                        | 5000  | 8   | 8
      GET    | /api/v1/pods                | fieldSelector=metadata.name=p | 5000 | 10 | 1
      GET    | /api/v1/pods                | fieldSelector=metadata.name==p,status.phase=Running | 5000 | 10 | 1
      GET    | /api/v1/pods                | watch=true&sendInitialEvents=true&fieldSelector=metadata.name=p | 5000 | 10 | 1
      GET    | /api/v1/pods                | fieldSelector=metadata.name!=p | 5000 | 10 | 10
      GET    | /api/v1/pods                | fieldSelector=metadata.name=.. | 5000 | 10 | 10
      GET    | /api/v1/pods                | fieldSelector=metadata.name=a%b | 5000 | 10 | 10
      GET    | /api/v1/pods                | fieldSelector=spec.nodeName=n | 5000 | 10 | 10
      """)
  void seats(String method, String path, String query, long stored, int maxSeats, int seats) {
    Map<String, List<String>> q = new HashMap<>();
    if (query != null) {
      for (String kv : query.split("&")) {
        int eq = kv.indexOf('=');
        q.put(kv.substring(0, eq), List.of(kv.substring(eq + 1)));
      }
    }
    RequestInfo info = RequestInfo.parse(method, path, q, (g, r) -> true);
    assertThat(WorkEstimator.seats(info, q, (g, r) -> r.equals("pods") ? stored : -1, maxSeats)).isEqualTo(seats);
  }

  /**
   * kube's maximum per level: 15% of its seats rounded up, at most its seats over its hand size,
   * at least 1, at most 10; 10 for a level that does not queue.
   */
  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      false | 49  | 128 | 6 | 50 | 8
      false | 245 | 128 | 6 | 50 | 10
      false | 74  | 64  | 6 | 50 | 10
      false | 25  | 128 | 6 | 50 | 4
      false | 20  | 64  | 8 | 50 | 2
      false | 5   | 16  | 2 | 2  | 1
      false | 3   | 64  | 6 | 50 | 1
      false | 3   | 0   | 0 | 0  | 10
      true  | 0   | 0   | 0 | 0  | 10
      """)
  void maxSeats_ofALevel(boolean exempt, int seats, int queues, int handSize, int queueLength, int max) {
    assertThat(WorkEstimator.maxSeats(new QueueSet.Config(exempt, seats, queues, handSize, queueLength))).isEqualTo(max);
  }
}
