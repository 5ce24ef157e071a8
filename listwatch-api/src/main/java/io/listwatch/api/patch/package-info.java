/**
 * The patch types of {@code PATCH} requests, applied to an object's JSON tree, and the one
 * table of kube's merge keys and patch strategies that strategic merge reads (and that
 * OpenAPI and server-side apply read too).
 *
 * <ul>
 *   <li>{@link io.listwatch.api.patch.PatchType}: the media types a PATCH may carry;
 *       {@link io.listwatch.api.patch.Patcher}: one request's patch, checked and applied (the
 *       API core patches through it).</li>
 *   <li>{@link io.listwatch.api.patch.JsonPatch}: RFC 6902 JSON Patch with kube's answers on
 *       failure.</li>
 *   <li>{@link io.listwatch.api.patch.StrategicMergePatch}: kube's strategic merge patch and
 *       its directives ({@code $patch}, {@code $retainKeys}, {@code $setElementOrder},
 *       {@code $deleteFromPrimitiveList}).</li>
 *   <li>{@link io.listwatch.api.patch.PatchMeta}, {@link io.listwatch.api.patch.PatchSchema},
 *       {@link io.listwatch.api.patch.PatchSchemas}: per kind, each field path's merge key,
 *       patch strategy and list type, as kube's Go types declare them.</li>
 * </ul>
 *
 * <p>JSON Merge Patch (RFC 7386) is {@link io.listwatch.api.JsonMergePatch}.
 */
package io.listwatch.api.patch;
