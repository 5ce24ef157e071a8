/**
 * What the server serves: one {@link io.listwatch.apiserver.registry.ResourceDefinition} per
 * resource type, collected in an immutable {@link io.listwatch.apiserver.registry.ResourceRegistry}.
 *
 * <p>Map of the package:
 * <ul>
 *   <li>{@link io.listwatch.apiserver.registry.ResourceDefinition}: names (kind, plural, short
 *       names, categories), scope, write behaviour (status subresource, generation tracking,
 *       what DELETE returns), name rule, selectable fields and the storage key layout.</li>
 *   <li>{@link io.listwatch.apiserver.registry.ResourceRegistry}: lookup by group, version and
 *       plural; the lists discovery publishes; {@code with} for CRDs.</li>
 *   <li>{@link io.listwatch.apiserver.registry.FieldExtractor}: reads one selectable field from an
 *       object, with kube's zero values.</li>
 *   <li>{@link io.listwatch.apiserver.registry.NameValidation}: which name syntax a type uses.</li>
 *   <li>{@link io.listwatch.apiserver.registry.CustomResourceVersion}: the CustomResourceDefinition
 *       version a custom resource's definition serves (schema, deprecation warning), and
 *       {@link io.listwatch.apiserver.registry.CustomResourceConversion}: moving a custom resource
 *       between its storage version and the version served, by the definition's
 *       {@link io.listwatch.apiserver.registry.CustomResourceConverter} (strategy None, or a
 *       conversion webhook).</li>
 *   <li>{@link io.listwatch.apiserver.registry.VersionConversion}: how a built-in kind served in
 *       several versions over one storage converts (a definition's hook, NONE for the others);
 *       {@link io.listwatch.apiserver.registry.HorizontalPodAutoscalerConversion} (autoscaling/v1
 *       to and from v2, the storage version) and {@link
 *       io.listwatch.apiserver.registry.HorizontalPodAutoscalerDefaults} (kube's v1 and v2 defaults,
 *       applied as the versions are read).</li>
 *   <li>{@code Builtins} (package-private): the built-in types as kube 1.32 defines them.
 *       Adding a built-in resource touches only that file.</li>
 * </ul>
 */
package io.listwatch.apiserver.registry;
