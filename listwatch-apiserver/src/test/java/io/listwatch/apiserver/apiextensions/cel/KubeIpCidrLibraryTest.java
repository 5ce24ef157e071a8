package io.listwatch.apiserver.apiextensions.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelValidationException;
import dev.cel.runtime.CelEvaluationException;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube's IP and CIDR CEL libraries in the base environment every CEL expression is compiled in:
 * the cases of kube's {@code ip_test.go} and {@code cidr_test.go} (expression, then the result,
 * the evaluation error or the compile error), plus the documented examples and kube's refusals.
 */
class KubeIpCidrLibraryTest {

  static Stream<Arguments> ipCases() {
    return Stream.of(
        ok("ip(\"192.168.0.1\")", ip("192.168.0.1")),
        fails("ip(\"192.168.0.1.0\")", "IP Address \"192.168.0.1.0\" parse error during conversion"
            + " from string: ParseAddr(\"192.168.0.1.0\"): IPv4 address too long"),
        ok("isIP(\"192.168.0.1\")", true),
        ok("isIP(\"192.168.0.1.0\")", false),
        ok("ip.isCanonical(\"127.0.0.1\")", true),
        fails("ip.isCanonical(\"127.0.0.1.0\")", "IP Address \"127.0.0.1.0\" parse error during"
            + " conversion from string: ParseAddr(\"127.0.0.1.0\"): IPv4 address too long"),
        ok("ip(\"192.168.0.1\").family()", 4L),
        ok("ip(\"0.0.0.0\").isUnspecified()", true),
        ok("ip(\"127.0.0.1\").isUnspecified()", false),
        ok("ip(\"127.0.0.1\").isLoopback()", true),
        ok("ip(\"1.2.3.4\").isLoopback()", false),
        ok("ip(\"224.0.0.1\").isLinkLocalMulticast()", true),
        ok("ip(\"224.0.1.1\").isLinkLocalMulticast()", false),
        ok("ip(\"169.254.169.254\").isLinkLocalUnicast()", true),
        ok("ip(\"192.168.0.1\").isLinkLocalUnicast()", false),
        ok("ip(\"192.168.0.1\").isGlobalUnicast()", true),
        ok("ip(\"255.255.255.255\").isGlobalUnicast()", false),
        ok("ip(\"2001:db8::68\")", ip("2001:db8::68")),
        fails("ip(\"2001:db8:::68\")", "IP Address \"2001:db8:::68\" parse error during conversion"
            + " from string: ParseAddr(\"2001:db8:::68\"): each colon-separated field must have at"
            + " least one digit (at \":68\")"),
        ok("isIP(\"2001:db8::68\")", true),
        ok("isIP(\"2001:db8:::68\")", false),
        ok("ip.isCanonical(\"2001:db8::68\")", true),
        ok("ip.isCanonical(\"2001:DB8::68\")", false),
        fails("ip.isCanonical(\"2001:db8:::68\")", "IP Address \"2001:db8:::68\" parse error during"
            + " conversion from string: ParseAddr(\"2001:db8:::68\"): each colon-separated field"
            + " must have at least one digit (at \":68\")"),
        ok("ip(\"2001:db8::68\").family()", 6L),
        ok("ip(\"::\").isUnspecified()", true),
        ok("ip(\"::1\").isUnspecified()", false),
        ok("ip(\"::1\").isLoopback()", true),
        ok("ip(\"2001:db8::abcd\").isLoopback()", false),
        ok("ip(\"ff02::1\").isLinkLocalMulticast()", true),
        ok("ip(\"fd00::1\").isLinkLocalMulticast()", false),
        ok("ip(\"fe80::1\").isLinkLocalUnicast()", true),
        ok("ip(\"fd80::1\").isLinkLocalUnicast()", false),
        ok("ip(\"2001:db8::abcd\").isGlobalUnicast()", true),
        ok("ip(\"ff00::1\").isGlobalUnicast()", false),
        doesNotCompile("isIP(cidr(\"192.168.0.0/24\"))",
            "found no matching overload for 'isIP' applied to '(net.CIDR)'"),
        ok("string(ip(\"192.168.0.1\"))", "192.168.0.1"),
        // the documented examples and refusals of ip.go
        fails("ip('127.0.0.256')", "IP Address \"127.0.0.256\" parse error during conversion from"
            + " string: ParseAddr(\"127.0.0.256\"): IPv4 field has value >255"),
        fails("ip(':::1')", "IP Address \":::1\" parse error during conversion from string:"
            + " ParseAddr(\":::1\"): each colon-separated field must have at least one digit"
            + " (at \":1\")"),
        fails("ip('::ffff:1.2.3.4')", "IPv4-mapped IPv6 address \"::ffff:1.2.3.4\" is not allowed"),
        fails("ip('fe80::1%eth0')", "IP address \"fe80::1%eth0\" with zone value is not allowed"),
        fails("ip('01.2.3.4')", "IP Address \"01.2.3.4\" parse error during conversion from"
            + " string: ParseAddr(\"01.2.3.4\"): IPv4 field has octet with leading zero"),
        ok("ip.isCanonical('2001:db8::0:0:0:abcd')", false),
        ok("string(ip('2001:DB8:0:0:1:0:0:1'))", "2001:db8::1:0:0:1"),
        ok("string(ip('2001:db8:0:1:1:1:1:1'))", "2001:db8:0:1:1:1:1:1"),
        ok("string(ip('::ffff:0:0:1'))", "::ffff:0:0:1"),
        ok("ip('2001:db8::1') == ip('2001:DB8:0::1')", true),
        ok("ip('10.0.0.1') != ip('10.0.0.2')", true),
        ok("ip('::').isGlobalUnicast() || ip('0.0.0.0').isGlobalUnicast()", false),
        ok("ip('10.0.0.1').isGlobalUnicast() && !ip('ff02::1').isGlobalUnicast()", true),
        ok("[ '', '1.2.3', '1.2.3.4.', '.1.2.3', '1..2.3', '2001:db8::12345', '1:2:3:4:5:6:7:8:9',"
            + " '1::2::3', '::1:', 'fe80::1%', '1:2:3:4:5:6:7::8', 'g::1', '1.2.3.4%x', ' ::1']"
            + ".exists(s, isIP(s))", false),
        ok("['::', '::1.2.3.4', '1:2:3:4:5:6:1.2.3.4', 'FFFF::', '1:2:3:4:5:6:7:8', '0.0.0.0']"
            + ".all(s, isIP(s))", true),
        ok("string(ip('::1.2.3.4')) == '::102:304' && string(ip('1:0:0:2:0:0:0:3')) == '1:0:0:2::3'",
            true));
  }

  static Stream<Arguments> cidrCases() {
    return Stream.of(
        doesNotCompile("cidr(192168)", "found no matching overload for 'cidr' applied to '(int)'"),
        ok("cidr(dyn(\"192.168.0.0/24\"))", cidr("192.168.0.0/24")),
        fails("cidr(\"192.168.0.0/\")", "network address parse error during conversion from"
            + " string: network address parse error during conversion from string:"
            + " netip.ParsePrefix(\"192.168.0.0/\"): bad bits after slash: \"\""),
        ok("cidr(\"192.168.0.0/24\").containsIP(ip(\"192.168.0.1\"))", true),
        ok("cidr(\"192.168.0.0/24\").containsIP(ip(\"192.168.1.1\"))", false),
        ok("cidr(\"192.168.0.0/24\").containsIP(\"192.168.0.1\")", true),
        ok("cidr(\"192.168.0.0/24\").containsIP(\"192.168.1.1\")", false),
        ok("cidr(\"192.168.0.0/24\").containsCIDR(cidr(\"192.168.0.0/25\"))", true),
        ok("cidr(\"192.168.0.0/24\").containsCIDR(cidr(\"192.168.0.0/23\"))", false),
        ok("cidr(\"192.168.0.0/24\").containsCIDR(\"192.168.0.0/25\")", true),
        ok("cidr(\"192.168.0.0/24\").containsCIDR(\"192.168.0.0/23\")", false),
        ok("cidr(\"192.168.0.0/24\").ip()", ip("192.168.0.0")),
        ok("cidr(\"192.168.0.0/24\").masked()", cidr("192.168.0.0/24")),
        ok("cidr(\"192.168.0.1/24\").masked()", cidr("192.168.0.0/24")),
        ok("cidr(\"192.168.0.0/24\").prefixLength()", 24L),
        ok("cidr(\"2001:db8::/32\")", cidr("2001:db8::/32")),
        fails("cidr(\"2001:db8::/\")", "network address parse error during conversion from"
            + " string: network address parse error during conversion from string:"
            + " netip.ParsePrefix(\"2001:db8::/\"): bad bits after slash: \"\""),
        ok("cidr(\"2001:db8::/32\").containsIP(ip(\"2001:db8::1\"))", true),
        ok("cidr(\"2001:db8::/32\").containsIP(ip(\"2001:dc8::1\"))", false),
        ok("cidr(\"2001:db8::/32\").containsIP(\"2001:db8::1\")", true),
        ok("cidr(\"2001:db8::/32\").containsIP(\"2001:dc8::1\")", false),
        ok("cidr(\"2001:db8::/32\").containsCIDR(cidr(\"2001:db8::/33\"))", true),
        ok("cidr(\"2001:db8::/32\").containsCIDR(cidr(\"2001:db8::/31\"))", false),
        ok("cidr(\"2001:db8::/32\").containsCIDR(\"2001:db8::/33\")", true),
        ok("cidr(\"2001:db8::/32\").containsCIDR(\"2001:db8::/31\")", false),
        ok("cidr(\"2001:db8::/32\").ip()", ip("2001:db8::")),
        ok("cidr(\"2001:db8::/32\").masked()", cidr("2001:db8::/32")),
        ok("cidr(\"2001:db8:1::/32\").masked()", cidr("2001:db8::/32")),
        ok("cidr(\"2001:db8::/32\").prefixLength()", 32L),
        ok("string(cidr(\"192.168.0.0/24\"))", "192.168.0.0/24"),
        // the documented examples and refusals of cidr.go, and kubernetes#130450's fix
        fails("cidr('192.168.0.0/33')", "network address parse error during conversion from"
            + " string: network address parse error during conversion from string:"
            + " netip.ParsePrefix(\"192.168.0.0/33\"): prefix length out of range"),
        ok("isCIDR('::1/128') && !isCIDR('::1/129') && !isCIDR('10.0.0.0') && !isCIDR('10.0.0.0/08')",
            true),
        fails("cidr('::ffff:1.2.3.4/24')", "network address parse error during conversion from"
            + " string: IPv4-mapped IPv6 address \"::ffff:1.2.3.4/24\" is not allowed"),
        ok("cidr('192.168.0.1/24').ip().family() == 4 && cidr('::1/128').ip().family() == 6", true),
        ok("cidr('192.168.0.0/24') == cidr('192.168.0.0/24').masked()", true),
        ok("cidr('192.168.0.1/24') == cidr('192.168.0.1/24').masked()", false),
        ok("string(cidr('192.168.0.1/24'))", "192.168.0.1/24"),
        ok("cidr('192.168.0.0/16').containsCIDR('192.168.0.1/32')", true),
        ok("cidr('10.96.0.0/16').containsCIDR('10.96.10.0/24')", true),
        ok("cidr('10.96.0.0/16').containsCIDR('2001:db8::/64')", false),
        ok("cidr('10.0.0.0/8').containsIP('2001:db8::1')", false),
        fails("cidr('10.0.0.0/8').containsIP('10.0.0.01')", "IP Address \"10.0.0.01\" parse error"
            + " during conversion from string: ParseAddr(\"10.0.0.01\"): IPv4 field has octet with"
            + " leading zero"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("ipCases")
  void ip_evaluatesAsKube(String expression, Object result, String error) throws Exception {
    check(expression, result, error);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cidrCases")
  void cidr_evaluatesAsKube(String expression, Object result, String error) throws Exception {
    check(expression, result, error);
  }

  private static void check(String expression, Object result, String error) throws Exception {
    if (error != null && error.startsWith("found no matching overload")) {
      CelValidationException e = catchThrowableOfType(CelValidationException.class,
          () -> KubeCelLibrary.BASE.compile(expression).getAst());
      assertThat(e.getErrors()).extracting(err -> err.getMessage()).anyMatch(m -> m.contains(error));
      return;
    }
    CelAbstractSyntaxTree ast = KubeCelLibrary.BASE.compile(expression).getAst();
    if (error != null) {
      CelEvaluationException e = catchThrowableOfType(CelEvaluationException.class,
          () -> KubeCelLibrary.BASE.createProgram(ast).eval());
      assertThat(EvaluationErrors.describe(e)).isEqualTo(error);
      return;
    }
    assertThat(KubeCelLibrary.BASE.createProgram(ast).eval()).isEqualTo(result);
  }

  private static IpAddr ip(String s) {
    return IpAddr.parse(s);
  }

  private static IpPrefix cidr(String s) {
    return IpPrefix.parse(s);
  }

  private static Arguments ok(String expression, Object result) {
    return Arguments.of(expression, result, null);
  }

  private static Arguments fails(String expression, String error) {
    return Arguments.of(expression, null, error);
  }

  private static Arguments doesNotCompile(String expression, String error) {
    return Arguments.of(expression, null, error);
  }
}
