package io.listwatch.controllers.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.IntNode;
import org.junit.jupiter.api.Test;

class FencepostsTest {

  @Test
  void resolve_percentages_surgeRoundsUp_unavailableRoundsDown() {
    assertThat(Fenceposts.resolve(Trees.text("25%"), Trees.text("25%"), 10)).isEqualTo(new Fenceposts(3, 2));
    assertThat(Fenceposts.resolve(Trees.text("10%"), Trees.text("10%"), 3)).isEqualTo(new Fenceposts(1, 0));
  }

  @Test
  void resolve_bothZero_allowsOneUnavailable() {
    assertThat(Fenceposts.resolve(IntNode.valueOf(0), Trees.text("0%"), 5)).isEqualTo(new Fenceposts(0, 1));
  }

  @Test
  void scaled_rejectsAStringThatIsNoPercentage() {
    assertThatThrownBy(() -> Fenceposts.scaled(Trees.text("3"), 10, true)).isInstanceOf(IllegalArgumentException.class);
  }
}
