package io.listwatch.api.meta;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class VersionPriorityTest {

  @Test
  void sort_listsGaThenBetaThenAlphaThenOtherNames_asKubeDocuments() {
    List<String> expected = List.of("v10", "v2", "v1", "v11beta2", "v10beta3", "v3beta1", "v12alpha1",
        "v11alpha2", "foo1", "foo10");
    List<String> shuffled = new ArrayList<>(expected);
    Collections.reverse(shuffled);
    Collections.swap(shuffled, 0, 4);
    shuffled.sort(VersionPriority.HIGHEST_FIRST);
    assertThat(shuffled).isEqualTo(expected);
  }

  @Test
  void higher_isStrict() {
    assertThat(VersionPriority.higher("v1", "v1beta1")).isTrue();
    assertThat(VersionPriority.higher("v1beta1", "v1")).isFalse();
    assertThat(VersionPriority.higher("v1", "v1")).isFalse();
    assertThat(VersionPriority.higher("v2alpha1", "v1alpha1")).isTrue();
  }
}
