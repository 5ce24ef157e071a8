package io.listwatch.bench.server;

import java.util.Arrays;
import java.util.Locale;

/**
 * The labels by which {@code server-fanout}'s options name the constants of an enum
 * ({@link Transport}, {@link FanOutTopology}): a constant's name in lower case with {@code -}
 * for {@code _}, so {@code HTTP1_TLS} is {@code http1-tls}; and the constant a label names.
 *
 * <p>Stateless.
 */
final class EnumLabels {

  private EnumLabels() {
  }

  /** The label of {@code constant}. */
  static String of(Enum<?> constant) {
    return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * The constant of {@code type} whose label is {@code s}, blanks around it and case aside.
   *
   * @throws IllegalArgumentException if none is: "unknown {@code what} 's'; one of [the labels]"
   */
  static <E extends Enum<E>> E parse(Class<E> type, String what, String s) {
    String label = s.trim().toLowerCase(Locale.ROOT);
    E[] constants = type.getEnumConstants();
    return Arrays.stream(constants).filter(c -> of(c).equals(label)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown " + what + " '" + s + "'; one of "
            + Arrays.stream(constants).map(EnumLabels::of).toList()));
  }
}
