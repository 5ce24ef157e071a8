package io.listwatch.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class PodQosClassTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode spec(String json) throws Exception {
    return JSON.readTree(json);
  }

  @Test
  void noRequestsOrLimits_isBestEffort() throws Exception {
    assertThat(PodQosClass.of(spec("{\"containers\":[{\"name\":\"a\",\"image\":\"nginx\"}]}"))).isEqualTo("BestEffort");
  }

  @Test
  void limitsEqualToRequests_inAnotherSpelling_isGuaranteed() throws Exception {
    assertThat(PodQosClass.of(spec("{\"containers\":[{\"name\":\"a\",\"resources\":{"
        + "\"requests\":{\"cpu\":\"1\",\"memory\":\"1Gi\"},\"limits\":{\"cpu\":\"1000m\",\"memory\":\"1073741824\"}}}]}")))
        .isEqualTo("Guaranteed");
    // a missing request defaults to the limit
    assertThat(PodQosClass.of(spec("{\"containers\":[{\"name\":\"a\",\"resources\":{"
        + "\"limits\":{\"cpu\":\"500m\",\"memory\":\"128Mi\"}}}]}"))).isEqualTo("Guaranteed");
  }

  @Test
  void aRequestBelowItsLimit_orOneContainerWithoutLimits_isBurstable() throws Exception {
    assertThat(PodQosClass.of(spec("{\"containers\":[{\"name\":\"a\",\"resources\":{"
        + "\"requests\":{\"cpu\":\"250m\",\"memory\":\"64Mi\"},\"limits\":{\"cpu\":\"500m\",\"memory\":\"64Mi\"}}}]}")))
        .isEqualTo("Burstable");
    assertThat(PodQosClass.of(spec("{\"containers\":[{\"name\":\"a\",\"resources\":{"
        + "\"limits\":{\"cpu\":\"1\",\"memory\":\"1Gi\"}}},{\"name\":\"b\"}]}"))).isEqualTo("Burstable");
  }

  @Test
  void quantities_compareByAmount_andBadSyntaxIsRefused() {
    assertThat(Quantity.sameAmount("0.5", "500m")).isTrue();
    assertThat(Quantity.sameAmount("1k", "1Ki")).isFalse();
    assertThat(Quantity.parse("2e3")).isEqualByComparingTo("2000");
    assertThatThrownBy(() -> Quantity.parse("12Xi")).isInstanceOf(IllegalArgumentException.class);
  }
}
