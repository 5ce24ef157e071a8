/**
 * OpenAPI (of built-in kinds and custom resources) and server-side field validation for built-in kinds.
 *
 * <ul>
 *   <li>{@link io.listwatch.apiserver.openapi.ProtoSchemas}: kube's OpenAPI schemas, derived from the
 *       protobuf descriptors of kube's generated classes (client-java-proto), with kube's special
 *       types (Time, Quantity, IntOrString, RawExtension, ...) in their JSON forms.</li>
 *   <li>{@link io.listwatch.apiserver.openapi.PatchMetadata}: where patch merge keys, strategies and
 *       list types come from (none by default).</li>
 *   <li>{@link io.listwatch.apiserver.openapi.OpenApiDocuments}: {@code /openapi/v2} and
 *       {@code /openapi/v3} (index and one document per group-version), built once per set of
 *       served kinds, with their ETags.</li>
 *   <li>{@code CustomResourceSchemas}: the definitions of a served custom resource version,
 *       from its CustomResourceDefinition's schema, under kube's names.</li>
 *   <li>{@link io.listwatch.apiserver.openapi.OpenApiSchemaResolver}: a served kind's published
 *       schema with its references inlined, for typing CEL expressions against it.</li>
 *   <li>{@link io.listwatch.apiserver.openapi.FieldValidation}: the {@code fieldValidation} query
 *       parameter ({@code Strict}, {@code Warn}, {@code Ignore}): unknown and duplicate fields in
 *       a JSON body are rejected or warned about, and unknown fields are pruned.</li>
 * </ul>
 */
package io.listwatch.apiserver.openapi;
