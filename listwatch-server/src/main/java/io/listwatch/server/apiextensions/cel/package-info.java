/**
 * CEL validation rules of CustomResourceDefinitions ({@code x-kubernetes-validations}),
 * compiled and evaluated with Google's CEL-Java.
 *
 * <ul>
 *   <li>{@link io.listwatch.server.apiextensions.cel.CelValidator}: the entry point. Its
 *       {@code compileErrors} gives the errors that make a CRD invalid; {@code compile} gives the
 *       validator a served version evaluates custom resources with.</li>
 *   <li>{@code RuleCompiler}: walks the schema, types {@code self} ({@code DeclTypes}), checks
 *       each {@link io.listwatch.server.apiextensions.cel.ValidationRule} and compiles it into a
 *       {@code CompilationResult}.</li>
 *   <li>{@code CelValues}: a custom resource's JSON as the CEL values the types describe.</li>
 *   <li>{@code KubeCelLibrary}: the functions kube's CEL environment offers beyond standard
 *       CEL; {@code RuntimeCost}: kube's per-call and per-write cost limits.</li>
 * </ul>
 *
 * <p>Everything compiled is immutable and evaluated concurrently.
 */
package io.listwatch.server.apiextensions.cel;
