package io.listwatch.api.core;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * kube's resource quantity ({@code 500m}, {@code 1.5Gi}, {@code 2e3}): an exact amount and the
 * format it is written in, as kube's {@code resource.Quantity}.
 *
 * <p>{@link #parse} reads only the amount, so that two spellings of one amount ({@code 1} and
 * {@code 1000m}, {@code 1Gi} and {@code 1073741824}) compare equal. {@link #of} keeps the format
 * too, and {@link #toString()} writes kube's canonical form, the one kube serves and prints in its
 * messages: the largest suffix of the format that keeps the number an integer
 * ({@code 0.5} is {@code 500m}, {@code 1024Mi} is {@code 1Gi}, {@code 1.5Gi} is {@code 1536Mi},
 * {@code 1000m} is {@code 1}). As kube, {@link #of} rounds an amount finer than a nano up
 * ({@code 0.1n} is {@code 1n}), and a binary amount that is not a whole number of bytes, or is
 * below 1024, is written in decimal ({@code 0.5Ki} is {@code 512}).
 *
 * <p>Not as kube: a spelling kube keeps verbatim because it is already canonical but for a
 * leading {@code +} or zero ({@code +1Gi}, {@code 01Gi}) is written without them.
 *
 * <p>Immutable and thread-safe.
 */
public final class Quantity implements Comparable<Quantity> {

  /** How a quantity is written (kube's {@code resource.Format}). */
  public enum Format {
    /** Powers of ten with SI suffixes: {@code m}, {@code k}, {@code M}, ... (and no suffix). */
    DECIMAL_SI,
    /** Powers of 1024: {@code Ki}, {@code Mi}, {@code Gi}, ... */
    BINARY_SI,
    /** Powers of ten as exponents: {@code 1e3}. */
    DECIMAL_EXPONENT
  }

  /** Zero, written {@code 0}. */
  public static final Quantity ZERO = new Quantity(BigDecimal.ZERO, Format.DECIMAL_SI);

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
  /** Decimal SI suffixes by their power of ten, from {@code n} (-9) to {@code E} (18). */
  private static final String[] DECIMAL_SUFFIXES = {"n", "", "", "u", "", "", "m", "", "", "", "", "", "k", "", "",
      "M", "", "", "G", "", "", "T", "", "", "P", "", "", "E"};
  private static final String[] BINARY_SUFFIXES = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  private static final BigInteger KI = BigInteger.valueOf(1024);
  private static final int NANO_SCALE = 9;

  /**
   * Quantities read before, by spelling: a cluster writes the same few ({@code 100m},
   * {@code 64Mi}) over and over, and every write reads each of them several times (the typed
   * round trip, validation, admission). Bounded: short spellings only, and no more entries once
   * full (a fixed cost, not a cache that churns).
   */
  private static final java.util.concurrent.ConcurrentHashMap<String, Quantity> READ =
      new java.util.concurrent.ConcurrentHashMap<>();
  private static final java.util.concurrent.ConcurrentHashMap<String, BigDecimal> AMOUNTS =
      new java.util.concurrent.ConcurrentHashMap<>();
  private static final int MEMO_ENTRIES = 4096;
  private static final int MEMO_LENGTH = 24;

  private final BigDecimal amount;
  private final Format format;
  /** {@link #toString()}, computed once (racy but idempotent, as {@link String#hashCode()}). */
  private String canonical;

  private Quantity(BigDecimal amount, Format format) {
    this.amount = amount;
    this.format = format;
  }

  /**
   * The amount {@code quantity} stands for, exactly as written (no rounding).
   *
   * @throws IllegalArgumentException when it is not a quantity in kube's syntax
   */
  public static BigDecimal parse(String quantity) {
    return memoized(AMOUNTS, quantity, Quantity::parseAmount);
  }

  /** What {@code read} makes of {@code spelling}, from {@code memo} when read before; remembered if there is room. */
  private static <T> T memoized(Map<String, T> memo, String spelling, java.util.function.Function<String, T> read) {
    T known = memo.get(spelling);
    if (known != null) {
      return known;
    }
    T value = read.apply(spelling);
    if (spelling.length() <= MEMO_LENGTH && memo.size() < MEMO_ENTRIES) {
      memo.putIfAbsent(spelling, value);
    }
    return value;
  }

  private static BigDecimal parseAmount(String quantity) {
    Matcher m = SYNTAX.matcher(quantity.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("quantities must match the regular expression "
          + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': " + quantity);
    }
    BigDecimal number = new BigDecimal(m.group(1));
    String suffix = m.group(2);
    if (isExponent(suffix)) {
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

  /**
   * {@code quantity} as kube reads it (its {@code ParseQuantity}): the amount, rounded up to a
   * whole nano when finer, and the format its suffix says.
   *
   * @throws IllegalArgumentException when it is not a quantity in kube's syntax
   */
  public static Quantity of(String quantity) {
    return memoized(READ, quantity, Quantity::read);
  }

  private static Quantity read(String quantity) {
    BigDecimal amount = parse(quantity);
    Matcher m = SYNTAX.matcher(quantity.trim());
    m.matches();
    String suffix = m.group(2);
    Format format = isExponent(suffix) ? Format.DECIMAL_EXPONENT
        : suffix.endsWith("i") ? Format.BINARY_SI : Format.DECIMAL_SI;
    if (amount.scale() > NANO_SCALE) {
      amount = amount.setScale(NANO_SCALE, RoundingMode.UP);
    }
    if (format == Format.BINARY_SI && amount.abs().compareTo(BigDecimal.ONE) < 0) {
      format = Format.DECIMAL_SI;
    }
    return new Quantity(amount, format);
  }

  /** {@code amount} in {@code format}. */
  public static Quantity of(BigDecimal amount, Format format) {
    return new Quantity(Objects.requireNonNull(amount, "amount"), Objects.requireNonNull(format, "format"));
  }

  /** A count ({@code pods: 3}): {@code n} in decimal. */
  public static Quantity ofCount(long n) {
    return new Quantity(BigDecimal.valueOf(n), Format.DECIMAL_SI);
  }

  private static boolean isExponent(String suffix) {
    return suffix.length() > 1 && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E');
  }

  public BigDecimal amount() {
    return amount;
  }

  public Format format() {
    return format;
  }

  /** -1, 0 or 1 as the amount is negative, zero or positive. */
  public int signum() {
    return amount.signum();
  }

  /**
   * This plus {@code other} (kube's {@code Quantity.Add}): in this quantity's format, or in
   * {@code other}'s when this is zero.
   */
  public Quantity add(Quantity other) {
    return new Quantity(amount.add(other.amount), amount.signum() == 0 ? other.format : format);
  }

  /** This minus {@code other} (kube's {@code Quantity.Sub}), formatted as {@link #add}. */
  public Quantity subtract(Quantity other) {
    return new Quantity(amount.subtract(other.amount), amount.signum() == 0 ? other.format : format);
  }

  /** The amount rounded up (away from zero) to a whole number (kube's {@code RoundUp(0)}), in this format. */
  public Quantity roundUpToInteger() {
    return amount.scale() <= 0 ? this : new Quantity(amount.setScale(0, RoundingMode.UP), format);
  }

  /** The amount in thousandths, rounded up away from zero (kube's {@code MilliValue}, without its int64 bound). */
  public BigInteger milliValue() {
    return amount.movePointRight(3).setScale(0, RoundingMode.UP).toBigIntegerExact();
  }

  /** Compares the amounts; the formats do not matter. */
  @Override
  public int compareTo(Quantity other) {
    return amount.compareTo(other.amount);
  }

  /** Same amount and same format. */
  @Override
  public boolean equals(Object o) {
    return o instanceof Quantity q && q.amount.compareTo(amount) == 0 && q.format == format;
  }

  @Override
  public int hashCode() {
    return Objects.hash(amount.signum() == 0 ? BigDecimal.ZERO : amount.stripTrailingZeros(), format);
  }

  /** kube's canonical form (its {@code Quantity.String}); see the class's description. */
  @Override
  public String toString() {
    String s = canonical;
    if (s == null) {
      s = canonicalForm();
      canonical = s;
    }
    return s;
  }

  private String canonicalForm() {
    if (amount.signum() == 0) {
      return "0";
    }
    if (format == Format.BINARY_SI && amount.abs().compareTo(BigDecimal.valueOf(1024)) >= 0) {
      BigDecimal whole = amount.stripTrailingZeros();
      if (whole.scale() <= 0) {
        return binary(whole.toBigIntegerExact());
      }
    }
    return decimal(format == Format.DECIMAL_EXPONENT);
  }

  private static String binary(BigInteger value) {
    BigInteger mantissa = value;
    int exponent = 0;
    while (exponent < BINARY_SUFFIXES.length - 1 && mantissa.mod(KI).signum() == 0) {
      mantissa = mantissa.divide(KI);
      exponent++;
    }
    return mantissa + BINARY_SUFFIXES[exponent];
  }

  private String decimal(boolean exponentForm) {
    BigDecimal exact = amount.scale() > NANO_SCALE ? amount.setScale(NANO_SCALE, RoundingMode.UP) : amount;
    exact = exact.stripTrailingZeros();
    BigInteger mantissa = exact.unscaledValue();
    int exponent = -exact.scale();
    int down = Math.floorMod(exponent, 3); // kube writes exponents that are multiples of 3
    mantissa = mantissa.multiply(BigInteger.TEN.pow(down));
    exponent -= down;
    if (exponentForm) {
      return mantissa + (exponent == 0 ? "" : "e" + exponent);
    }
    if (exponent > 18) {
      mantissa = mantissa.multiply(BigInteger.TEN.pow(exponent - 18));
      exponent = 18;
    }
    return mantissa + DECIMAL_SUFFIXES[exponent + 9];
  }
}
