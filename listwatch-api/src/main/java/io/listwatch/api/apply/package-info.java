/**
 * Server-side apply as kube does it (structured-merge-diff): which fields an object sets,
 * who owns them, merging an applied configuration, and conflicts.
 *
 * <ul>
 *   <li>{@link io.listwatch.api.apply.PathElement}, {@link io.listwatch.api.apply.FieldPath},
 *       {@link io.listwatch.api.apply.FieldSet}: paths to an object's fields and sets of them;
 *       {@link io.listwatch.api.apply.FieldsV1}: their wire form in
 *       {@code metadata.managedFields[].fieldsV1}.</li>
 *   <li>{@link io.listwatch.api.apply.ApplySchema}: how lists and maps are owned at each node
 *       (list type atomic/set/map, list-map keys, atomic maps);
 *       {@link io.listwatch.api.apply.BuiltinApplySchema} reads it for built-in kinds from
 *       {@link io.listwatch.api.patch.PatchSchemas}.</li>
 *   <li>{@link io.listwatch.api.apply.ManagedFieldsEntry}: one entry of
 *       {@code metadata.managedFields}.</li>
 * </ul>
 */
package io.listwatch.api.apply;
