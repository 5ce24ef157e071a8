package io.listwatch.apiserver.apiextensions.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelEvaluationExceptionBuilder;
import dev.cel.runtime.CelFunctionBinding;
import io.listwatch.api.core.Quantity;
import java.math.BigDecimal;
import java.util.List;

/**
 * kube's quantity library for CEL: {@code quantity(s)}, {@code isQuantity(s)} and, on a
 * quantity, {@code sign()}, {@code isInteger()}, {@code asInteger()},
 * {@code asApproximateFloat()}, {@code add(q|int)}, {@code sub(q|int)},
 * {@code isLessThan(q)}, {@code isGreaterThan(q)} and {@code compareTo(q)}. Two spellings of
 * one amount are equal ({@code quantity('1') == quantity('1000m')}). Stateless; thread-safe.
 */
final class KubeQuantityLibrary {

  private static final OpaqueType QUANTITY = OpaqueType.create("kubernetes.Quantity");
  private static final LibraryType<Amount> TYPE =
      new LibraryType<>("quantity", "isQuantity", QUANTITY, KubeQuantityLibrary::parse);

  /** A quantity's amount; equal when the amounts are, whatever the spelling. */
  record Amount(BigDecimal value) {
    Amount {
      value = value.signum() == 0 ? BigDecimal.ZERO : value.stripTrailingZeros();
    }
  }

  private KubeQuantityLibrary() {
  }

  static List<CelFunctionDecl> declarations() {
    return TYPE.declarations(
        TYPE.member("sign", SimpleType.INT),
        TYPE.member("isInteger", SimpleType.BOOL),
        TYPE.member("asInteger", SimpleType.INT),
        TYPE.member("asApproximateFloat", SimpleType.DOUBLE),
        CelFunctionDecl.newFunctionDeclaration("add",
            CelOverloadDecl.newMemberOverload("kube_quantity_add", QUANTITY, QUANTITY, QUANTITY),
            CelOverloadDecl.newMemberOverload("kube_quantity_add_int", QUANTITY, QUANTITY,
                SimpleType.INT)),
        CelFunctionDecl.newFunctionDeclaration("sub",
            CelOverloadDecl.newMemberOverload("kube_quantity_sub", QUANTITY, QUANTITY, QUANTITY),
            CelOverloadDecl.newMemberOverload("kube_quantity_sub_int", QUANTITY, QUANTITY,
                SimpleType.INT)),
        TYPE.member("isLessThan", SimpleType.BOOL, QUANTITY),
        TYPE.member("isGreaterThan", SimpleType.BOOL, QUANTITY),
        TYPE.member("compareTo", SimpleType.INT, QUANTITY));
  }

  static List<CelFunctionBinding> bindings() {
    return TYPE.bindings(
        CelFunctionBinding.from("kube_quantity_sign", Amount.class,
            q -> (long) q.value().signum()),
        CelFunctionBinding.from("kube_quantity_isInteger", Amount.class,
            q -> isInteger(q.value())),
        CelFunctionBinding.from("kube_quantity_asInteger", Amount.class, q -> {
          if (!isInteger(q.value())) {
            throw CelEvaluationExceptionBuilder.newBuilder(
                "cannot convert value to integer").build();
          }
          try {
            return q.value().longValueExact();
          } catch (ArithmeticException e) {
            throw CelEvaluationExceptionBuilder.newBuilder(
                "cannot convert value to integer").build();
          }
        }),
        CelFunctionBinding.from("kube_quantity_asApproximateFloat", Amount.class,
            q -> q.value().doubleValue()),
        CelFunctionBinding.from("kube_quantity_add", Amount.class, Amount.class,
            (a, b) -> new Amount(a.value().add(b.value()))),
        CelFunctionBinding.from("kube_quantity_add_int", Amount.class, Long.class,
            (a, b) -> new Amount(a.value().add(BigDecimal.valueOf(b)))),
        CelFunctionBinding.from("kube_quantity_sub", Amount.class, Amount.class,
            (a, b) -> new Amount(a.value().subtract(b.value()))),
        CelFunctionBinding.from("kube_quantity_sub_int", Amount.class, Long.class,
            (a, b) -> new Amount(a.value().subtract(BigDecimal.valueOf(b)))),
        CelFunctionBinding.from("kube_quantity_isLessThan", Amount.class, Amount.class,
            (a, b) -> a.value().compareTo(b.value()) < 0),
        CelFunctionBinding.from("kube_quantity_isGreaterThan", Amount.class, Amount.class,
            (a, b) -> a.value().compareTo(b.value()) > 0),
        CelFunctionBinding.from("kube_quantity_compareTo", Amount.class, Amount.class,
            (a, b) -> (long) Integer.signum(a.value().compareTo(b.value()))));
  }

  private static boolean isInteger(BigDecimal v) {
    return v.signum() == 0 || v.stripTrailingZeros().scale() <= 0;
  }

  private static Amount parse(String s) throws CelEvaluationException {
    try {
      return new Amount(Quantity.parse(s));
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw CelEvaluationExceptionBuilder.newBuilder("%s", e.getMessage()).build();
    }
  }
}
