package io.listwatch.apiserver.apiextensions.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;

/**
 * kube's CIDR library for CEL (library {@code net.cidr}): {@code cidr(s)}, {@code isCIDR(s)},
 * {@code string(cidr)} and, on a CIDR, {@code containsIP(ip|string)},
 * {@code containsCIDR(cidr|string)}, {@code ip()}, {@code masked()} and
 * {@code prefixLength()}. A CIDR is read as Go's {@code netip.ParsePrefix} reads it
 * ({@link IpPrefix}), its address kept as written (so {@code cidr('192.168.0.1/24')} is valid and
 * differs from its {@code masked()}); kube refuses an IPv4-mapped IPv6 address. Two CIDRs are
 * equal when address and prefix length are. Stateless; thread-safe.
 */
final class KubeCidrLibrary {

  private static final OpaqueType CIDR = OpaqueType.create("net.CIDR");
  private static final String PARSE_ERROR =
      "network address parse error during conversion from string: ";
  private static final LibraryType<IpPrefix> TYPE =
      new LibraryType<>("cidr", "isCIDR", CIDR, KubeCidrLibrary::parse);

  private KubeCidrLibrary() {
  }

  static List<CelFunctionDecl> declarations() {
    return TYPE.declarations(
        CelFunctionDecl.newFunctionDeclaration("containsIP",
            CelOverloadDecl.newMemberOverload("kube_cidr_containsIP", SimpleType.BOOL, CIDR,
                KubeIpLibrary.IP),
            CelOverloadDecl.newMemberOverload("kube_cidr_containsIP_string", SimpleType.BOOL,
                CIDR, SimpleType.STRING)),
        CelFunctionDecl.newFunctionDeclaration("containsCIDR",
            CelOverloadDecl.newMemberOverload("kube_cidr_containsCIDR", SimpleType.BOOL, CIDR,
                CIDR),
            CelOverloadDecl.newMemberOverload("kube_cidr_containsCIDR_string", SimpleType.BOOL,
                CIDR, SimpleType.STRING)),
        TYPE.member("ip", KubeIpLibrary.IP),
        TYPE.member("masked", CIDR),
        TYPE.member("prefixLength", SimpleType.INT),
        CelFunctionDecl.newFunctionDeclaration("string",
            CelOverloadDecl.newGlobalOverload("kube_cidr_to_string", SimpleType.STRING, CIDR)));
  }

  static List<CelFunctionBinding> bindings() {
    return TYPE.bindings(
        CelFunctionBinding.from("kube_cidr_containsIP", IpPrefix.class, IpAddr.class,
            IpPrefix::contains),
        CelFunctionBinding.from("kube_cidr_containsIP_string", IpPrefix.class, String.class,
            (c, s) -> c.contains(KubeIpLibrary.parse(s))),
        CelFunctionBinding.from("kube_cidr_containsCIDR", IpPrefix.class, IpPrefix.class,
            IpPrefix::contains),
        CelFunctionBinding.from("kube_cidr_containsCIDR_string", IpPrefix.class, String.class,
            (c, s) -> c.contains(parse(s))),
        CelFunctionBinding.from("kube_cidr_ip", IpPrefix.class, IpPrefix::addr),
        CelFunctionBinding.from("kube_cidr_masked", IpPrefix.class, IpPrefix::masked),
        CelFunctionBinding.from("kube_cidr_prefixLength", IpPrefix.class, c -> (long) c.bits()),
        CelFunctionBinding.from("kube_cidr_to_string", IpPrefix.class, IpPrefix::toString));
  }

  /** kube's {@code cidr(s)}: the CIDR, or an evaluation error in kube's (doubled) words. */
  private static IpPrefix parse(String s) throws CelEvaluationException {
    IpPrefix prefix;
    try {
      prefix = IpPrefix.parse(s);
    } catch (IllegalArgumentException e) {
      throw KubeIpLibrary.failure(PARSE_ERROR + PARSE_ERROR + e.getMessage());
    }
    if (prefix.addr().is4In6()) {
      throw KubeIpLibrary.failure(
          PARSE_ERROR + "IPv4-mapped IPv6 address " + FieldErrors.goQuote(s) + " is not allowed");
    }
    return prefix;
  }
}
