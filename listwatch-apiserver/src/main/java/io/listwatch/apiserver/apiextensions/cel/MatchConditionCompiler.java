package io.listwatch.apiserver.apiextensions.cel;

import dev.cel.bundle.Cel;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import java.util.List;
import java.util.Optional;

/**
 * Compiles the {@code expression} of an admission webhook's match condition
 * ({@code webhooks[].matchConditions[]}) as kube's validation does
 * ({@code validateMatchConditionsExpression}): in the admission CEL environment, which is the
 * CRD rules' ({@link KubeCelLibrary}) with the variables {@code object}, {@code oldObject},
 * {@code namespaceObject}, {@code request}, {@code authorizer} and
 * {@code authorizer.requestResource}, and the result must be a {@code bool}. Only checked,
 * never evaluated here: the authorizer's functions are declared without an implementation.
 *
 * <p>Known difference from kube: {@code request} and {@code namespaceObject} are dynamic, so a
 * misspelt field of theirs ({@code request.opertion}) compiles here where kube's typed
 * declarations refuse it.
 *
 * <p>Stateless and thread-safe; the environment is built once.
 */
public final class MatchConditionCompiler {

  private static final String AUTHZ = "kubernetes.authorization.";
  private static final CelType AUTHORIZER = OpaqueType.create(AUTHZ + "Authorizer");
  private static final CelType PATH_CHECK = OpaqueType.create(AUTHZ + "PathCheck");
  private static final CelType GROUP_CHECK = OpaqueType.create(AUTHZ + "GroupCheck");
  private static final CelType RESOURCE_CHECK = OpaqueType.create(AUTHZ + "ResourceCheck");
  private static final CelType DECISION = OpaqueType.create(AUTHZ + "Decision");

  private static final Cel ENVIRONMENT = KubeCelLibrary.BASE.toCelBuilder()
      .addVar("object", SimpleType.DYN)
      .addVar("oldObject", SimpleType.DYN)
      .addVar("namespaceObject", SimpleType.DYN)
      .addVar("request", SimpleType.DYN)
      .addVar("authorizer", AUTHORIZER)
      .addVar("authorizer.requestResource", RESOURCE_CHECK)
      .addFunctionDeclarations(authorizerDeclarations())
      .build();

  /** Where an error's location ends, at the start of each of its lines. */
  private static final java.util.regex.Pattern SYNTAX_ERROR =
      java.util.regex.Pattern.compile("(?m)^(ERROR: <input>:\\d+:\\d+: )");

  private MatchConditionCompiler() {
  }

  /**
   * What kube's compiler says of {@code expression} (already trimmed), as the detail of an
   * Invalid field error ({@code compilation failed: ERROR: <input>:1:19: ...} or
   * {@code must evaluate to bool}); empty when it compiles to a {@code bool}.
   */
  public static Optional<String> problem(String expression) {
    CelValidationResult parsed = ENVIRONMENT.parse(expression);
    if (parsed.hasError()) { // cel-go words each parser error as a syntax error; CEL-Java does not
      return Optional.of("compilation failed: " + SYNTAX_ERROR.matcher(parsed.getErrorString()).replaceAll("$1Syntax error: "));
    }
    CelValidationResult compiled = ENVIRONMENT.compile(expression);
    if (compiled.hasError()) {
      return Optional.of("compilation failed: " + compiled.getErrorString());
    }
    try {
      if (!compiled.getAst().getResultType().equals(SimpleType.BOOL)) {
        return Optional.of("must evaluate to bool");
      }
    } catch (dev.cel.common.CelValidationException e) {
      return Optional.of("compilation failed: " + e.getMessage());
    }
    return Optional.empty();
  }

  /** kube's authorizer library ({@code k8s.io/apiserver/pkg/cel/library/authz.go}), declared only. */
  private static List<CelFunctionDecl> authorizerDeclarations() {
    return List.of(
        member("path", "authorizer_path", PATH_CHECK, AUTHORIZER, SimpleType.STRING),
        member("group", "authorizer_group", GROUP_CHECK, AUTHORIZER, SimpleType.STRING),
        member("serviceAccount", "authorizer_serviceaccount", AUTHORIZER, AUTHORIZER,
            SimpleType.STRING, SimpleType.STRING),
        member("resource", "groupcheck_resource", RESOURCE_CHECK, GROUP_CHECK, SimpleType.STRING),
        member("subresource", "resourcecheck_subresource", RESOURCE_CHECK, RESOURCE_CHECK, SimpleType.STRING),
        member("namespace", "resourcecheck_namespace", RESOURCE_CHECK, RESOURCE_CHECK, SimpleType.STRING),
        member("name", "resourcecheck_name", RESOURCE_CHECK, RESOURCE_CHECK, SimpleType.STRING),
        member("fieldSelector", "resourcecheck_fieldselector", RESOURCE_CHECK, RESOURCE_CHECK,
            SimpleType.STRING),
        member("labelSelector", "resourcecheck_labelselector", RESOURCE_CHECK, RESOURCE_CHECK,
            SimpleType.STRING),
        CelFunctionDecl.newFunctionDeclaration("check",
            CelOverloadDecl.newMemberOverload("pathcheck_check", DECISION, PATH_CHECK, SimpleType.STRING),
            CelOverloadDecl.newMemberOverload("resourcecheck_check", DECISION, RESOURCE_CHECK,
                SimpleType.STRING)),
        member("allowed", "decision_allowed", SimpleType.BOOL, DECISION),
        member("reason", "decision_reason", SimpleType.STRING, DECISION),
        member("errored", "decision_errored", SimpleType.BOOL, DECISION),
        member("error", "decision_error", SimpleType.STRING, DECISION));
  }

  private static CelFunctionDecl member(String function, String overload, CelType result, CelType receiver,
      CelType... args) {
    CelType[] params = new CelType[args.length + 1];
    params[0] = receiver;
    System.arraycopy(args, 0, params, 1, args.length);
    return CelFunctionDecl.newFunctionDeclaration(function,
        CelOverloadDecl.newMemberOverload(overload, result, params));
  }
}
