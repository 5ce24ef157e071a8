package io.listwatch.controllers.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PodTemplateHashTest {

  @Test
  void compute_ignoresKeyOrder_changesWithTemplateAndCollisionCount() {
    var a = DeploymentFixture.parse("{\"metadata\":{\"labels\":{\"a\":\"1\",\"b\":\"2\"}},\"spec\":{\"x\":1}}");
    var b = DeploymentFixture.parse("{\"spec\":{\"x\":1},\"metadata\":{\"labels\":{\"b\":\"2\",\"a\":\"1\"}}}");
    var c = DeploymentFixture.parse("{\"spec\":{\"x\":2},\"metadata\":{\"labels\":{\"b\":\"2\",\"a\":\"1\"}}}");
    assertThat(PodTemplateHash.compute(a, null)).isEqualTo(PodTemplateHash.compute(b, null));
    assertThat(PodTemplateHash.compute(a, null)).isNotEqualTo(PodTemplateHash.compute(c, null));
    assertThat(PodTemplateHash.compute(a, 1)).isNotEqualTo(PodTemplateHash.compute(a, null));
    assertThat(PodTemplateHash.compute(a, 1)).matches("[bcdfghjklmnpqrstvwxz2456789]{1,10}");
  }

  @Test
  void safeEncode_mapsDigitsThroughKubesAlphabet() {
    // '0' is code 48, 48 % 27 = 21 -> '4'; '9' is 57 % 27 = 3 -> 'f'
    assertThat(PodTemplateHash.safeEncode("09")).isEqualTo("4f");
  }
}
