package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** kube's pod spec defaults that need more than a table of fields (the rest: {@link BuiltinDefaultsTest}). */
class PodSpecDefaultsTest {

  @ParameterizedTest
  @CsvSource({
      "nginx, Always",
      "nginx:latest, Always",
      "nginx:1.27, IfNotPresent",
      "registry.example.com:5000/team/app, Always",
      "registry.example.com:5000/team/app:v2, IfNotPresent",
      "nginx@sha256:0123abcd, IfNotPresent"})
  void imagePullPolicy_isAlwaysForLatestOrNoTag(String image, String expected) {
    assertThat(PodSpecDefaults.pullPolicy(image)).isEqualTo(expected);
  }
}
