package io.listwatch.storage.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link Utf8Order} against the definition: unsigned comparison of the UTF-8 bytes. */
class Utf8OrderTest {

  /** Code points around every boundary where UTF-16 and UTF-8 order could disagree. */
  private static final int[] CODE_POINTS = {
      0x00, 0x2F, 0x41, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFF01, 0xFFFF,
      0x10000, 0x1F600, 0x1F601, 0x10FFFF};

  @Test
  void compare_agreesWithUtf8ByteOrder_onRandomWellFormedStrings() {
    Random random = new Random(42);
    for (int i = 0; i < 20_000; i++) {
      String a = randomString(random);
      String b = random.nextInt(4) == 0 ? a + randomString(random) : randomString(random);

      int expected = Integer.signum(Arrays.compareUnsigned(
          a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));

      assertThat(Integer.signum(Utf8Order.INSTANCE.compare(a, b))).as("%s vs %s", a, b)
          .isEqualTo(expected);
    }
  }

  @Test
  void compare_putsSupplementaryCharactersAfterTheHighBmp_unlikeStringCompareTo() {
    String bmp = "/o/\uFF01";
    String emoji = "/o/\uD83D\uDE00";

    assertThat(bmp.compareTo(emoji)).isPositive();
    assertThat(Utf8Order.INSTANCE.compare(bmp, emoji)).isNegative();
  }

  private static String randomString(Random random) {
    StringBuilder b = new StringBuilder();
    int length = random.nextInt(4);
    for (int i = 0; i < length; i++) {
      b.appendCodePoint(CODE_POINTS[random.nextInt(CODE_POINTS.length)]);
    }
    return b.toString();
  }
}
