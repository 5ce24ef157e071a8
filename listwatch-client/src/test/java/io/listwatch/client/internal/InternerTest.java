package io.listwatch.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InternerTest {

  @Test
  void equalStrings_shareOneInstance() {
    String a = Interner.intern(new String("namespace-interner-test"));
    String b = Interner.intern(new String("namespace-interner-test"));
    assertThat(b).isSameAs(a);
  }

  @Test
  void afterManyUniqueValues_repeatedValuesAreStillShared() {
    for (int i = 0; i < 4 * Interner.SLOTS; i++) {
      Interner.intern("unique-" + i);
    }
    String a = Interner.intern(new String("team-interner-test"));
    String b = Interner.intern(new String("team-interner-test"));
    assertThat(b).isSameAs(a);
  }

  @Test
  void longStringsAndNull_passThrough() {
    String longOne = "x".repeat(Interner.MAX_LENGTH + 1);
    assertThat(Interner.intern(longOne)).isSameAs(longOne);
    assertThat(Interner.intern(null)).isNull();
  }
}
