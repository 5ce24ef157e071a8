package io.listwatch.api.schema;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * The range check kube's OpenAPI validation makes on every number: the value must fit the
 * schema's type and numeric {@code format} without loss. For {@code type: integer}:
 * {@code int32}, {@code uint32}, {@code uint64}, and otherwise ({@code int64} or no format)
 * a 64-bit signed integer; for other types, {@code float} and {@code float32} must fit a 32-bit
 * float. kube reports a failure as a plain error at the validated root:
 * {@code Invalid value: "": Checked value must be of type integer with format int32 in
 * spec.size}.
 *
 * <p>Stateless; thread-safe.
 */
final class NumberRanges {

  private static final BigDecimal INT32_MIN = BigDecimal.valueOf(Integer.MIN_VALUE);
  private static final BigDecimal INT32_MAX = BigDecimal.valueOf(Integer.MAX_VALUE);
  private static final BigDecimal INT64_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
  private static final BigDecimal INT64_MAX = BigDecimal.valueOf(Long.MAX_VALUE);
  private static final BigDecimal UINT32_MAX = BigDecimal.valueOf(0xffff_ffffL);
  private static final BigDecimal UINT64_MAX =
      new BigDecimal(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE));
  private static final BigDecimal FLOAT32_MAX = new BigDecimal(Float.MAX_VALUE);

  private NumberRanges() {
  }

  /**
   * Null when {@code x} fits, else the expected type as kube words it: {@code integer with
   * format int32}, {@code integer (default format)}, {@code number with format float}.
   */
  static String check(String type, String format, BigDecimal x) {
    String fmt = format == null ? "" : format;
    boolean fits;
    if (type.equals("integer")) {
      fits = switch (fmt) {
        case "int32" -> within(x, INT32_MIN, INT32_MAX);
        case "uint32" -> within(x, BigDecimal.ZERO, UINT32_MAX);
        case "uint64" -> within(x, BigDecimal.ZERO, UINT64_MAX);
        default -> within(x, INT64_MIN, INT64_MAX);
      };
    } else {
      fits = !(fmt.equals("float") || fmt.equals("float32"))
          || x.abs().compareTo(FLOAT32_MAX) <= 0;
    }
    if (fits) {
      return null;
    }
    String typeName = type.isEmpty() ? "number" : type;
    return fmt.isEmpty() ? typeName + " (default format)" : typeName + " with format " + fmt;
  }

  private static boolean within(BigDecimal x, BigDecimal min, BigDecimal max) {
    return x.compareTo(min) >= 0 && x.compareTo(max) <= 0;
  }
}
