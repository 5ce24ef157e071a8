/**
 * kube's CustomResourceDefinition schema machinery on Jackson trees: pure functions over an
 * {@code openAPIV3Schema} and a custom resource, with kube's own field paths and messages, for
 * the server's custom resource serving to call.
 *
 * <ul>
 *   <li>{@link io.listwatch.api.schema.StructuralSchema}: the checks a CRD version's
 *       {@code openAPIV3Schema} must pass at CRD create and update: structural, no
 *       unsupported keywords ({@code $ref}, ...), valid {@code x-kubernetes-*} extensions,
 *       defaults that validate and are pruned.</li>
 *   <li>{@link io.listwatch.api.schema.SchemaValidator}: a custom resource against the schema
 *       (types, formats, bounds, enum, required, list-set and list-map duplicates, ...).</li>
 *   <li>{@link io.listwatch.api.schema.Pruner}: removes unspecified fields and names them, for
 *       {@code fieldValidation} Warn and Strict.</li>
 *   <li>{@link io.listwatch.api.schema.Defaulter}: fills in {@code default}s, top-down.</li>
 *   <li>{@link io.listwatch.api.schema.FieldError}: kube's {@code field.Error}, convertible to
 *       a Status cause.</li>
 * </ul>
 *
 * <p>The order kube applies them to a write: decode, prune, default, then validate (schema,
 * then CEL). Reading a stored object: prune and default again, so a default added to the CRD
 * later shows up in reads.
 *
 * <p>Not here: CEL rules ({@code x-kubernetes-validations}) are compiled and evaluated
 * separately, by the server; validation ratcheting on update; conversion between versions.
 * The schemas are assumed to have passed {@link io.listwatch.api.schema.StructuralSchema};
 * the other classes do not re-check them.
 */
package io.listwatch.api.schema;
