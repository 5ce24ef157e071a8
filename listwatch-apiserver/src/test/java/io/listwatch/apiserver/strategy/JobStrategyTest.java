package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.JsonLimits;
import io.listwatch.api.StatusException;
import java.io.IOException;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class JobStrategyTest {

  private final JobStrategy strategy = new JobStrategy();

  private static ObjectNode json(String s) {
    try {
      return (ObjectNode) JsonLimits.mapper().readTree(s);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void prepareForCreate_labelsThePodsWithNameAndUid_andSelectsOnTheUid() {
    ObjectNode job = json("""
        {"metadata":{"name":"pi","uid":"u-1"},"spec":{"template":{"metadata":{"labels":{"job-name":"mine"}}}}}""");

    strategy.prepareForCreate(job, Instant.EPOCH);

    assertThat(job.at("/spec/template/metadata/labels")).isEqualTo(json("""
        {"job-name":"mine","batch.kubernetes.io/job-name":"pi",
         "controller-uid":"u-1","batch.kubernetes.io/controller-uid":"u-1"}"""));
    assertThat(job.at("/spec/selector")).isEqualTo(json("{\"matchLabels\":{\"batch.kubernetes.io/controller-uid\":\"u-1\"}}"));
  }

  @Test
  void prepareForCreate_refusesASelector_withoutManualSelector_andKeepsOneWithIt() {
    ObjectNode auto = json("{\"metadata\":{\"name\":\"pi\",\"uid\":\"u\"},\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}}}}");
    ObjectNode manual = json("""
        {"metadata":{"name":"pi","uid":"u"},"spec":{"manualSelector":true,"selector":{"matchLabels":{"a":"b"}}}}""");
    ObjectNode manualBefore = manual.deepCopy();

    assertThatThrownBy(() -> strategy.prepareForCreate(auto, Instant.EPOCH))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(422));
    strategy.prepareForCreate(manual, Instant.EPOCH);

    assertThat(manual).isEqualTo(manualBefore);
  }
}
