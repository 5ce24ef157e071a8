package io.listwatch.apiserver.apiextensions.cel;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOptions;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.TypeParamType;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelEvaluationExceptionBuilder;
import dev.cel.runtime.CelFunctionBinding;
import java.util.ArrayList;
import java.util.List;

/**
 * The CEL environment kube gives {@code x-kubernetes-validations} rules, on Google's CEL-Java:
 * the standard functions and macros ({@code has}, {@code all}, {@code exists},
 * {@code exists_one}, {@code map}, {@code filter}, {@code size}), optional values, and these
 * libraries:
 *
 * <ul>
 *   <li>strings: {@code charAt}, {@code indexOf}, {@code lastIndexOf}, {@code lowerAscii},
 *       {@code upperAscii}, {@code replace}, {@code split}, {@code substring}, {@code trim},
 *       {@code join}, {@code strings.quote}, ... (CEL-Java's strings extension);</li>
 *   <li>lists: kube's {@code isSorted()}, {@code sum()}, {@code min()}, {@code max()},
 *       {@code indexOf(x)}, {@code lastIndexOf(x)} (here), plus CEL-Java's lists extension
 *       ({@code slice}, {@code flatten}, {@code distinct}, {@code sort}, ...);</li>
 *   <li>regex: kube's {@code find(re)} and {@code findAll(re[, n])} on strings (here, with
 *       RE2 semantics like {@code matches});</li>
 *   <li>URLs: kube's {@code url(s)}, {@code isURL(s)} and the URL's getters
 *       ({@link KubeUrlLibrary});</li>
 *   <li>quantities: kube's {@code quantity(s)}, {@code isQuantity(s)} and the quantity's
 *       methods ({@link KubeQuantityLibrary});</li>
 *   <li>IP addresses: kube's {@code ip(s)}, {@code isIP(s)}, {@code ip.isCanonical(s)} and the
 *       address's methods ({@link KubeIpLibrary});</li>
 *   <li>CIDRs: kube's {@code cidr(s)}, {@code isCIDR(s)} and the CIDR's methods
 *       ({@link KubeCidrLibrary});</li>
 *   <li>sets ({@code sets.contains}, {@code sets.equivalent}, {@code sets.intersects}) and
 *       math ({@code math.greatest}, {@code math.least}, ...).</li>
 * </ul>
 *
 * <p>Not available: kube's semver and authorizer libraries.
 *
 * <p>{@link #BASE} is immutable and thread-safe; it is built once.
 */
final class KubeCelLibrary {

  private static final TypeParamType A = TypeParamType.create("A");

  static final CelOptions OPTIONS = CelOptions.current()
      .enableOptionalSyntax(true)
      .enableHeterogeneousNumericComparisons(true)
      .build();

  /** The environment without {@code self}; each schema node adds its own variables. */
  static final Cel BASE = CelFactory.standardCelBuilder()
      .setOptions(OPTIONS)
      .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
      .addCompilerLibraries(CelExtensions.strings(), CelExtensions.lists(),
          CelExtensions.sets(OPTIONS), CelExtensions.math(OPTIONS), CelExtensions.optional())
      .addRuntimeLibraries(CelExtensions.strings(), CelExtensions.lists(),
          CelExtensions.sets(OPTIONS), CelExtensions.math(OPTIONS), CelExtensions.optional())
      .addFunctionDeclarations(declarations())
      .addFunctionDeclarations(KubeUrlLibrary.declarations())
      .addFunctionDeclarations(KubeQuantityLibrary.declarations())
      .addFunctionDeclarations(KubeIpLibrary.declarations())
      .addFunctionDeclarations(KubeCidrLibrary.declarations())
      .addFunctionBindings(bindings())
      .addFunctionBindings(KubeUrlLibrary.bindings())
      .addFunctionBindings(KubeQuantityLibrary.bindings())
      .addFunctionBindings(KubeIpLibrary.bindings())
      .addFunctionBindings(KubeCidrLibrary.bindings())
      .build();

  private KubeCelLibrary() {
  }

  private static List<CelFunctionDecl> declarations() {
    ListType listA = ListType.create(A);
    return List.of(
        CelFunctionDecl.newFunctionDeclaration("isSorted",
            CelOverloadDecl.newMemberOverload("kube_list_is_sorted", SimpleType.BOOL, listA)),
        CelFunctionDecl.newFunctionDeclaration("sum",
            CelOverloadDecl.newMemberOverload("kube_list_sum_int", SimpleType.INT,
                ListType.create(SimpleType.INT)),
            CelOverloadDecl.newMemberOverload("kube_list_sum_double", SimpleType.DOUBLE,
                ListType.create(SimpleType.DOUBLE))),
        CelFunctionDecl.newFunctionDeclaration("min",
            CelOverloadDecl.newMemberOverload("kube_list_min", A, listA)),
        CelFunctionDecl.newFunctionDeclaration("max",
            CelOverloadDecl.newMemberOverload("kube_list_max", A, listA)),
        CelFunctionDecl.newFunctionDeclaration("indexOf",
            CelOverloadDecl.newMemberOverload("kube_list_index_of", SimpleType.INT, listA, A)),
        CelFunctionDecl.newFunctionDeclaration("lastIndexOf",
            CelOverloadDecl.newMemberOverload("kube_list_last_index_of", SimpleType.INT,
                listA, A)),
        CelFunctionDecl.newFunctionDeclaration("find",
            CelOverloadDecl.newMemberOverload("kube_string_find", SimpleType.STRING,
                SimpleType.STRING, SimpleType.STRING)),
        CelFunctionDecl.newFunctionDeclaration("findAll",
            CelOverloadDecl.newMemberOverload("kube_string_find_all",
                ListType.create(SimpleType.STRING), SimpleType.STRING, SimpleType.STRING),
            CelOverloadDecl.newMemberOverload("kube_string_find_all_n",
                ListType.create(SimpleType.STRING), SimpleType.STRING, SimpleType.STRING,
                SimpleType.INT)));
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static List<CelFunctionBinding> bindings() {
    return List.of(
        CelFunctionBinding.from("kube_list_is_sorted", List.class, l -> {
          for (int i = 1; i < l.size(); i++) {
            if (compare(l.get(i - 1), l.get(i)) > 0) {
              return false;
            }
          }
          return true;
        }),
        CelFunctionBinding.from("kube_list_sum_int", List.class, l -> {
          long sum = 0;
          for (Object o : (List<Object>) l) {
            sum = Math.addExact(sum, (Long) o);
          }
          return sum;
        }),
        CelFunctionBinding.from("kube_list_sum_double", List.class, l -> {
          double sum = 0;
          for (Object o : (List<Object>) l) {
            sum += (Double) o;
          }
          return sum;
        }),
        CelFunctionBinding.from("kube_list_min", List.class, l -> extreme(l, -1, "min")),
        CelFunctionBinding.from("kube_list_max", List.class, l -> extreme(l, 1, "max")),
        CelFunctionBinding.from("kube_list_index_of", List.class, Object.class,
            (l, x) -> (long) l.indexOf(x)),
        CelFunctionBinding.from("kube_list_last_index_of", List.class, Object.class,
            (l, x) -> (long) l.lastIndexOf(x)),
        CelFunctionBinding.from("kube_string_find", String.class, String.class, (s, re) -> {
          Matcher m = pattern(re).matcher(s);
          return m.find() ? m.group() : "";
        }),
        CelFunctionBinding.from("kube_string_find_all", String.class, String.class,
            (s, re) -> findAll(s, re, -1)),
        CelFunctionBinding.from("kube_string_find_all_n", List.of(String.class, String.class,
            Long.class), args -> findAll((String) args[0], (String) args[1], (Long) args[2])));
  }

  private static Object extreme(List<?> l, int sign, String name) throws CelEvaluationException {
    if (l.isEmpty()) {
      throw CelEvaluationExceptionBuilder.newBuilder("%s called on empty list", name).build();
    }
    Object best = l.get(0);
    for (Object o : l) {
      if (Integer.signum(compare(o, best)) == sign) {
        best = o;
      }
    }
    return best;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compare(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y
        && !(a.getClass().equals(b.getClass()))) {
      return Double.compare(x.doubleValue(), y.doubleValue());
    }
    return ((Comparable) a).compareTo(b);
  }

  private static List<String> findAll(String s, String re, long limit)
      throws CelEvaluationException {
    List<String> out = new ArrayList<>();
    if (limit == 0) {
      return out;
    }
    Matcher m = pattern(re).matcher(s);
    while (m.find() && (limit < 0 || out.size() < limit)) {
      out.add(m.group());
    }
    return out;
  }

  private static Pattern pattern(String re) throws CelEvaluationException {
    try {
      return Pattern.compile(re);
    } catch (PatternSyntaxException e) {
      throw CelEvaluationExceptionBuilder.newBuilder("%s", e.getMessage()).build();
    }
  }
}
