package io.listwatch.apiserver.features;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@code --feature-gates} as kube spells it, and refused as clearly where listwatch cannot honour it. */
class FeatureGatesTest {

  @Test
  void aGateIsOffByDefault_andSetByKubesSyntax_inGosBooleanSpellings() {
    assertThat(FeatureGates.parse("")).isEqualTo(FeatureGates.DEFAULTS);
    assertThat(FeatureGates.DEFAULTS.allowUnsafeMalformedObjectDeletion()).isFalse();
    for (String on : new String[] {"true", "True", "TRUE", "t", "T", "1"}) {
      assertThat(FeatureGates.parse("AllowUnsafeMalformedObjectDeletion=" + on).allowUnsafeMalformedObjectDeletion())
          .as(on).isTrue();
    }
    // the last word wins, as in kube's map of gates
    assertThat(FeatureGates.parse("AllowUnsafeMalformedObjectDeletion=true, AllowUnsafeMalformedObjectDeletion=false,")
        .allowUnsafeMalformedObjectDeletion()).isFalse();
  }

  @Test
  void responseCompressionIsOnByDefault_asInKubeSince116_andCanBeTurnedOff_withoutTouchingTheOtherGate() {
    assertThat(FeatureGates.DEFAULTS.apiResponseCompression()).isTrue();
    FeatureGates off = FeatureGates.parse("APIResponseCompression=false");
    assertThat(off.apiResponseCompression()).isFalse();
    assertThat(off.allowUnsafeMalformedObjectDeletion()).isFalse();
    FeatureGates both = FeatureGates.parse("AllowUnsafeMalformedObjectDeletion=1,APIResponseCompression=f");
    assertThat(both).isEqualTo(new FeatureGates(true, false));
  }

  @Test
  void anUnknownGateOrAValueThatIsNoBoolean_isRefusedWithWhatWasWrong() {
    assertThatThrownBy(() -> FeatureGates.parse("WatchList=true"))
        .hasMessageStartingWith("unrecognized feature gate: WatchList");
    assertThatThrownBy(() -> FeatureGates.parse("AllowUnsafeMalformedObjectDeletion=yes"))
        .hasMessage("invalid value of AllowUnsafeMalformedObjectDeletion=yes, err: strconv.ParseBool: parsing \"yes\": "
            + "invalid syntax");
    assertThatThrownBy(() -> FeatureGates.parse("tRuE=AllowUnsafeMalformedObjectDeletion"))
        .hasMessageStartingWith("unrecognized feature gate: tRuE");
    assertThatThrownBy(() -> FeatureGates.parse("AllowUnsafeMalformedObjectDeletion"))
        .hasMessage("missing bool value for AllowUnsafeMalformedObjectDeletion");
  }
}
