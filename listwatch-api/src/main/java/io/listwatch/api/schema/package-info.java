/**
 * kube's CustomResourceDefinition schema machinery, on Jackson trees: pure functions that the
 * server's custom resource serving calls, with kube's own field paths and messages.
 *
 * <ul>
 *   <li>{@link io.listwatch.api.schema.StructuralSchema}: the checks a CRD version's
 *       {@code openAPIV3Schema} must pass at CRD create and update (structural, no
 *       {@code $ref}, valid {@code x-kubernetes-*} extensions, valid defaults).</li>
 *   <li>{@link io.listwatch.api.schema.FieldError}: kube's {@code field.Error}, convertible to
 *       a Status cause.</li>
 * </ul>
 *
 * <p>Not here: CEL rules ({@code x-kubernetes-validations}) are compiled and evaluated
 * separately.
 */
package io.listwatch.api.schema;
