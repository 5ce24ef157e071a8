/**
 * Server-side apply as kube does it (structured-merge-diff): which fields an object sets,
 * who owns them ({@code metadata.managedFields}), merging an applied configuration, and
 * conflicts. Pure functions on Jackson trees; nothing here touches storage or HTTP.
 *
 * <ul>
 *   <li>{@link io.listwatch.api.apply.PathElement}, {@link io.listwatch.api.apply.FieldPath},
 *       {@link io.listwatch.api.apply.FieldSet}: paths to an object's fields and sets of them,
 *       in kube's order; {@link io.listwatch.api.apply.FieldsV1}: their wire form in
 *       {@code managedFields[].fieldsV1}.</li>
 *   <li>{@link io.listwatch.api.apply.ApplySchema}: how lists and maps are owned at each node
 *       (list type atomic/set/map, list-map keys and key defaults, atomic maps);
 *       {@link io.listwatch.api.apply.BuiltinApplySchema} answers for built-in kinds from
 *       {@link io.listwatch.api.patch.PatchSchemas}, the table strategic merge reads;
 *       {@link io.listwatch.api.apply.StructuralApplySchema} for a custom resource, from the
 *       {@code x-kubernetes-list-type}, {@code -list-map-keys} and {@code -map-type} markers of
 *       its structural schema.</li>
 *   <li>{@link io.listwatch.api.apply.ApplyMerge}: merge, prune and compare of two objects.</li>
 *   <li>{@link io.listwatch.api.apply.FieldManager}: the Apply and Update operations,
 *       producing the new object and its {@link io.listwatch.api.apply.ManagedFieldsEntry}s
 *       ({@link io.listwatch.api.apply.ManagedFields} reads them);
 *       {@link io.listwatch.api.apply.ApplyConflicts}: kube's 409 for conflicts.</li>
 * </ul>
 *
 * <h2>Not done yet</h2>
 * <ul>
 *   <li>Not wired into the server: {@code application/apply-patch+yaml}, the
 *       {@code fieldManager} and {@code force} parameters, dry run, apply creating objects
 *       and ordinary writes recording Update entries are the caller's part.</li>
 *   <li>Entries written with another apiVersion are read with the same schema (no conversion);
 *       entries for subresources are kept but never written (subresource is always "").</li>
 *   <li>kube's reset fields (the status of a main resource, the spec through {@code /status})
 *       are not filtered here; the caller passes objects without them.</li>
 *   <li>kube's cap on Update entries (the oldest merged into {@code ancient-changes}) is not
 *       applied; only the acting manager's entry gets a new time.</li>
 *   <li>Of kube's {@code +structType=atomic} types only top-level label selectors are in the
 *       table (object references, node selectors and key selectors are recorded field by
 *       field); list-map key defaults are known only for ports' {@code protocol}.</li>
 *   <li>An explicit {@code null} in an applied configuration is stored as a value, not treated
 *       as a removal. A {@code null} or empty object is owned as a member (structured-merge-diff
 *       v4's rule for empty maps).</li>
 * </ul>
 */
package io.listwatch.api.apply;
