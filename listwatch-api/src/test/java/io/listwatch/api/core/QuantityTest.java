package io.listwatch.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class QuantityTest {

  /** Cases of kube's quantity_test.go (TestQuantityParse, TestQuantityString): input, canonical form. */
  @ParameterizedTest
  @CsvSource({
      "0, 0", "0n, 0", "0Ki, 0", "0e3, 0",
      "1, 1", "1000m, 1", "0.5, 500m", "0.05, 50m", "100m, 100m", "1.5, 1500m", "12.5k, 12500",
      "1k, 1k", "1000, 1k", "1500k, 1500k", "1M, 1M", "2000000, 2M", "1G, 1G", "1E, 1E",
      "1n, 1n", "1u, 1u", "0.1n, 1n", "1.0001n, 2n", "1000n, 1u",
      "1Ki, 1Ki", "1024, 1024", "1024Mi, 1Gi", "1.5Gi, 1536Mi", "0.5Gi, 512Mi", "0.5Ki, 512", "1023Ki, 1023Ki",
      "8Gi, 8Gi", "1536Mi, 1536Mi", "100Mi, 100Mi",
      "1e3, 1e3", "100e3, 100e3", "1e5, 100e3", "1E6, 1e6", "1.5e3, 1500", "1e-3, 1e-3",
      "-1, -1", "-500m, -500m", "-1Gi, -1Gi"})
  void canonicalForm_isKubes(String input, String canonical) {
    assertThat(Quantity.of(input)).hasToString(canonical);
  }

  @Test
  void format_comesFromTheSuffix() {
    assertThat(Quantity.of("1Gi").format()).isEqualTo(Quantity.Format.BINARY_SI);
    assertThat(Quantity.of("1G").format()).isEqualTo(Quantity.Format.DECIMAL_SI);
    assertThat(Quantity.of("5").format()).isEqualTo(Quantity.Format.DECIMAL_SI);
    assertThat(Quantity.of("1e3").format()).isEqualTo(Quantity.Format.DECIMAL_EXPONENT);
    assertThat(Quantity.of("0.0001Ki").format()).as("binary below one byte").isEqualTo(Quantity.Format.DECIMAL_SI);
  }

  @Test
  void add_keepsTheFirstFormat_unlessItIsZero() {
    assertThat(Quantity.of("1Gi").add(Quantity.of("512Mi"))).hasToString("1536Mi");
    assertThat(Quantity.of("1").add(Quantity.of("500m"))).hasToString("1500m");
    assertThat(Quantity.ZERO.add(Quantity.of("1Gi"))).hasToString("1Gi");
    assertThat(Quantity.of("1G").add(Quantity.of("1Gi"))).hasToString("2073741824");
    assertThat(Quantity.of("2").subtract(Quantity.of("2"))).hasToString("0");
    assertThat(Quantity.ofCount(3).subtract(Quantity.ofCount(1))).hasToString("2");
  }

  @Test
  void comparisonAndValues_useTheAmount() {
    assertThat(Quantity.of("1")).isEqualByComparingTo(Quantity.of("1000m"));
    assertThat(Quantity.of("1Gi").compareTo(Quantity.of("1G"))).isPositive();
    assertThat(Quantity.of("1.5").milliValue()).isEqualTo(BigInteger.valueOf(1500));
    assertThat(Quantity.of("1n").milliValue()).as("rounded up").isEqualTo(BigInteger.ONE);
    assertThat(Quantity.of("1.2").roundUpToInteger()).hasToString("2");
    assertThat(Quantity.of("1Gi")).isEqualTo(Quantity.of("1024Mi")).isNotEqualTo(Quantity.of("1073741824"));
  }

  @Test
  void badSyntax_isRefused() {
    assertThatThrownBy(() -> Quantity.of("12Xi")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Quantity.of("abc")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("quantities must match the regular expression");
  }
}
