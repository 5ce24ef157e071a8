/**
 * kube's ValidatingAdmissionPolicy admission plug-in (admissionregistration.k8s.io/v1).
 *
 * <ul>
 *   <li>{@link io.listwatch.apiserver.admission.policy.ValidatingAdmissionPolicy}: the plug-in,
 *       kube's dispatcher: which policies and bindings apply, what their decisions do (Deny, Warn,
 *       Audit, audit annotations) and the refusal.</li>
 *   <li>{@code MatchResources}: kube's matching of {@code matchConstraints} and
 *       {@code matchResources} (rules, namespace and object selectors).</li>
 *   <li>{@code ParamSource}: the params a binding selects ({@code paramRef}).</li>
 *   <li>{@code CompiledPolicy}: a policy's CEL expressions compiled once per resourceVersion
 *       and evaluated ({@code matchConditions}, {@code validations}, {@code auditAnnotations}),
 *       with {@code Composition} for its {@code variables} and {@code RequestVariables} for
 *       {@code request} and {@code namespaceObject}.</li>
 * </ul>
 *
 * <p>The CEL environment is the CRD rules' one ({@code apiextensions.cel.AdmissionExpression}).
 */
package io.listwatch.apiserver.admission.policy;
