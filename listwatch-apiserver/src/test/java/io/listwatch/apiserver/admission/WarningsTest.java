package io.listwatch.apiserver.admission;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WarningsTest {

  @Test
  void aWarningRecordedTwice_isSentOnce_inTheOrderFirstRecorded_andEmptyOnesAreDropped() {
    Warnings w = new Warnings();
    w.add("b");
    w.add("a");
    w.add("b");
    w.add("");
    assertThat(w.list()).containsExactly("b", "a");
  }
}
