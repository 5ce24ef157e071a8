/**
 * CEL validation rules of CustomResourceDefinitions ({@code x-kubernetes-validations}),
 * compiled and evaluated with Google's CEL-Java.
 *
 * <ul>
 *   <li>{@link io.listwatch.apiserver.apiextensions.cel.CelValidator}: the entry point. Its
 *       {@code compileErrors} gives the errors that make a CRD invalid; {@code compile} gives the
 *       validator a served version evaluates custom resources with.</li>
 *   <li>{@code RuleCompiler}: walks the schema, types {@code self} ({@code DeclTypes}), checks
 *       each {@link io.listwatch.apiserver.apiextensions.cel.ValidationRule} and compiles it into a
 *       {@code CompilationResult}.</li>
 *   <li>{@code CelValues} (with {@code FormattedStrings}): a custom resource's JSON as the CEL
 *       values the types describe.</li>
 *   <li>{@code KubeCelLibrary}, {@code KubeUrlLibrary}, {@code KubeQuantityLibrary},
 *       {@code KubeIpLibrary}, {@code KubeCidrLibrary}: the functions kube's CEL environment
 *       offers beyond standard CEL; {@code LibraryType} declares what these libraries have alike
 *       (the conversion from a string, its {@code is...} test, the members); {@code IpAddr} and
 *       {@code IpPrefix} are Go's {@code netip} address and prefix the IP and CIDR values hold.</li>
 *   <li>{@link io.listwatch.apiserver.apiextensions.cel.MatchConditionCompiler}: the same
 *       environment with the admission variables, to check admission webhooks' match conditions.</li>
 *   <li>{@code RuntimeCost}: kube's per-call and per-write cost limits, counted while rules
 *       run (CEL-Java has no static cost estimator).</li>
 *   <li>{@link io.listwatch.apiserver.apiextensions.cel.AdmissionCompiler} and
 *       {@link io.listwatch.apiserver.apiextensions.cel.AdmissionExpression}: the same libraries
 *       in kube's admission environment ({@code object}, {@code oldObject}, {@code request},
 *       {@code params}, {@code namespaceObject}, {@code variables}), for
 *       ValidatingAdmissionPolicies.</li>
 *   <li>{@link io.listwatch.apiserver.apiextensions.cel.TypeChecker}: kube's policy type checker,
 *       the same expressions with {@code object} and {@code params} typed from kinds' schemas,
 *       for the warnings of {@code status.typeChecking}.</li>
 * </ul>
 *
 * <p>Everything compiled is immutable and evaluated concurrently.
 *
 * <p>Not here: validation ratcheting, rules inside {@code allOf}/{@code anyOf}/{@code oneOf},
 * kube's semver, format and authorizer libraries, the static cost estimate.
 */
package io.listwatch.apiserver.apiextensions.cel;
