package io.listwatch.api.core;

import java.math.BigDecimal;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * kube's resource quantity ({@code 500m}, {@code 1.5Gi}, {@code 2e3}) read as an exact number,
 * so that two spellings of one amount ({@code 1} and {@code 1000m}, {@code 1Gi} and
 * {@code 1073741824}) compare equal. Stateless.
 */
public final class Quantity {

  private static final Pattern SYNTAX = Pattern.compile("([+-]?(?:\\d+\\.?\\d*|\\.\\d+))([eE][+-]?\\d+|[a-zA-Z]*)");
  private static final Map<String, BigDecimal> SUFFIXES = Map.ofEntries(
      Map.entry("", BigDecimal.ONE),
      Map.entry("n", new BigDecimal("1e-9")), Map.entry("u", new BigDecimal("1e-6")),
      Map.entry("m", new BigDecimal("1e-3")), Map.entry("k", new BigDecimal("1e3")),
      Map.entry("M", new BigDecimal("1e6")), Map.entry("G", new BigDecimal("1e9")),
      Map.entry("T", new BigDecimal("1e12")), Map.entry("P", new BigDecimal("1e15")),
      Map.entry("E", new BigDecimal("1e18")),
      Map.entry("Ki", BigDecimal.valueOf(2).pow(10)), Map.entry("Mi", BigDecimal.valueOf(2).pow(20)),
      Map.entry("Gi", BigDecimal.valueOf(2).pow(30)), Map.entry("Ti", BigDecimal.valueOf(2).pow(40)),
      Map.entry("Pi", BigDecimal.valueOf(2).pow(50)), Map.entry("Ei", BigDecimal.valueOf(2).pow(60)));

  private Quantity() {
  }

  /**
   * The amount {@code quantity} stands for.
   *
   * @throws IllegalArgumentException when it is not a quantity in kube's syntax
   */
  public static BigDecimal parse(String quantity) {
    Matcher m = SYNTAX.matcher(quantity.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("quantities must match the regular expression "
          + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': " + quantity);
    }
    BigDecimal number = new BigDecimal(m.group(1));
    String suffix = m.group(2);
    if (suffix.startsWith("e") || suffix.startsWith("E")) {
      return number.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1)));
    }
    BigDecimal factor = SUFFIXES.get(suffix);
    if (factor == null) {
      throw new IllegalArgumentException("unknown quantity suffix \"" + suffix + "\": " + quantity);
    }
    return number.multiply(factor);
  }

  /** Whether two quantities stand for the same amount. */
  public static boolean sameAmount(String a, String b) {
    return parse(a).compareTo(parse(b)) == 0;
  }
}
