package io.listwatch.apiserver.apiextensions.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelEvaluationExceptionBuilder;
import dev.cel.runtime.CelFunctionBinding;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;

/**
 * kube's IP library for CEL (library {@code kubernetes.net.ip}): {@code ip(s)},
 * {@code isIP(s)}, {@code ip.isCanonical(s)}, {@code string(ip)} and, on an address,
 * {@code family()}, {@code isUnspecified()}, {@code isLoopback()},
 * {@code isLinkLocalMulticast()}, {@code isLinkLocalUnicast()} and {@code isGlobalUnicast()}.
 * An address is read as Go's {@code netip.ParseAddr} reads it ({@link IpAddr}); kube then refuses
 * a zone ({@code fe80::1%eth0}) and an IPv4-mapped IPv6 address ({@code ::ffff:1.2.3.4}). Two
 * addresses are equal when they are the same address, whatever the spelling. Stateless;
 * thread-safe.
 */
final class KubeIpLibrary {

  /** kube's {@code net.IP}. */
  static final OpaqueType IP = OpaqueType.create("net.IP");

  private static final LibraryType<IpAddr> TYPE =
      new LibraryType<>("ip", "isIP", IP, KubeIpLibrary::parse);

  private KubeIpLibrary() {
  }

  static List<CelFunctionDecl> declarations() {
    return TYPE.declarations(
        TYPE.member("family", SimpleType.INT),
        TYPE.member("isUnspecified", SimpleType.BOOL),
        TYPE.member("isLoopback", SimpleType.BOOL),
        TYPE.member("isLinkLocalMulticast", SimpleType.BOOL),
        TYPE.member("isLinkLocalUnicast", SimpleType.BOOL),
        TYPE.member("isGlobalUnicast", SimpleType.BOOL),
        CelFunctionDecl.newFunctionDeclaration("ip.isCanonical",
            CelOverloadDecl.newGlobalOverload("kube_ip_is_canonical_string", SimpleType.BOOL,
                SimpleType.STRING)),
        CelFunctionDecl.newFunctionDeclaration("string",
            CelOverloadDecl.newGlobalOverload("kube_ip_to_string", SimpleType.STRING, IP)));
  }

  static List<CelFunctionBinding> bindings() {
    return TYPE.bindings(
        CelFunctionBinding.from("kube_ip_family", IpAddr.class, a -> a.is4() ? 4L : 6L),
        CelFunctionBinding.from("kube_ip_isUnspecified", IpAddr.class, IpAddr::isUnspecified),
        CelFunctionBinding.from("kube_ip_isLoopback", IpAddr.class, IpAddr::isLoopback),
        CelFunctionBinding.from("kube_ip_isLinkLocalMulticast", IpAddr.class,
            IpAddr::isLinkLocalMulticast),
        CelFunctionBinding.from("kube_ip_isLinkLocalUnicast", IpAddr.class,
            IpAddr::isLinkLocalUnicast),
        CelFunctionBinding.from("kube_ip_isGlobalUnicast", IpAddr.class,
            IpAddr::isGlobalUnicast),
        CelFunctionBinding.from("kube_ip_is_canonical_string", String.class,
            s -> parse(s).toString().equals(s)),
        CelFunctionBinding.from("kube_ip_to_string", IpAddr.class, IpAddr::toString));
  }

  /** kube's {@code ip(s)}: the address, or an evaluation error in kube's words. */
  static IpAddr parse(String s) throws CelEvaluationException {
    IpAddr addr;
    try {
      addr = IpAddr.parse(s);
    } catch (IllegalArgumentException e) {
      throw failure("IP Address " + FieldErrors.goQuote(s)
          + " parse error during conversion from string: " + e.getMessage());
    }
    if (addr.hasZone()) {
      throw failure("IP address " + FieldErrors.goQuote(s) + " with zone value is not allowed");
    }
    if (addr.is4In6()) {
      throw failure("IPv4-mapped IPv6 address " + FieldErrors.goQuote(s) + " is not allowed");
    }
    return addr;
  }

  static CelEvaluationException failure(String message) {
    return CelEvaluationExceptionBuilder.newBuilder("%s", message).build();
  }
}
