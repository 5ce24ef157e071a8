package io.listwatch.apiserver.apiextensions.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;
import java.util.stream.Stream;

/**
 * The opaque type of one of kube's CEL libraries that is made from a string (its URL and quantity
 * libraries), and the functions such a library declares: the conversion {@code <name>(string)}
 * (overload {@code kube_string_to_<name>}), an evaluation error for a string that does not parse;
 * its test {@code <test>(string)} (overload {@code kube_is_<name>_string}), true exactly when the
 * conversion would succeed; and the type's member functions (overloads
 * {@code kube_<name>_<function>}). Immutable; thread-safe.
 *
 * @param name the conversion's name, also in the overloads' ({@code url}, {@code quantity})
 * @param test the test's name ({@code isURL}, {@code isQuantity})
 * @param type the opaque CEL type
 * @param parser the conversion itself, into the Java value the type is held as
 * @param <T> the Java value the type is held as
 */
record LibraryType<T>(String name, String test, OpaqueType type, Parser<T> parser) {

  /** Parses a string into the type's value, or fails with an evaluation error in kube's words. */
  @FunctionalInterface
  interface Parser<T> {
    T parse(String s) throws CelEvaluationException;
  }

  /** The declarations of the conversion and of its test, then {@code functions}. */
  List<CelFunctionDecl> declarations(CelFunctionDecl... functions) {
    return Stream.concat(Stream.of(
        CelFunctionDecl.newFunctionDeclaration(name,
            CelOverloadDecl.newGlobalOverload(conversionOverload(), type, SimpleType.STRING)),
        CelFunctionDecl.newFunctionDeclaration(test,
            CelOverloadDecl.newGlobalOverload(testOverload(), SimpleType.BOOL, SimpleType.STRING))),
        Stream.of(functions)).toList();
  }

  /** The bindings of the conversion and of its test, then {@code functions}. */
  List<CelFunctionBinding> bindings(CelFunctionBinding... functions) {
    return Stream.concat(Stream.of(
        CelFunctionBinding.from(conversionOverload(), String.class, parser::parse),
        CelFunctionBinding.from(testOverload(), String.class, s -> {
          try {
            parser.parse(s);
            return true;
          } catch (CelEvaluationException e) {
            return false;
          }
        })),
        Stream.of(functions)).toList();
  }

  /**
   * The declaration of member function {@code function} of this type, with one overload
   * ({@code kube_<name>_<function>}) taking {@code args} after the receiver.
   */
  CelFunctionDecl member(String function, CelType result, CelType... args) {
    CelType[] all = new CelType[args.length + 1];
    all[0] = type;
    System.arraycopy(args, 0, all, 1, args.length);
    return CelFunctionDecl.newFunctionDeclaration(function,
        CelOverloadDecl.newMemberOverload("kube_" + name + "_" + function, result, all));
  }

  private String conversionOverload() {
    return "kube_string_to_" + name;
  }

  private String testOverload() {
    return "kube_is_" + name + "_string";
  }
}
