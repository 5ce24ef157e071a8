/**
 * apiextensions.k8s.io: CustomResourceDefinitions as stored objects, with kube's defaults and
 * validation ({@link io.listwatch.apiserver.apiextensions.CustomResourceDefinitionValidation},
 * which refuses a non-structural schema), the resources they declare
 * ({@link io.listwatch.apiserver.apiextensions.CustomResources}), and how custom resources are
 * written: pruned, defaulted and validated by their version's schema, status and generation
 * kept as kube keeps them, applied with the schema's list and map semantics
 * ({@link io.listwatch.apiserver.apiextensions.CustomResourceStrategy},
 * {@link io.listwatch.apiserver.apiextensions.EmbeddedObjectMeta}).
 *
 * <p>Serving them at runtime, as kube-apiserver's apiextensions side does:
 * {@link io.listwatch.apiserver.apiextensions.CustomResourceDefinitionController} serves each
 * definition's versions ({@link io.listwatch.apiserver.apiextensions.CustomResourceServing}: a
 * watch cache and routes per version), with {@code NamingConditions} deciding its accepted
 * names and {@code CustomResourceCleanup} emptying a definition being deleted.
 *
 * <p>Conversion strategy {@code Webhook}: {@code CustomResourceConversionValidation} checks
 * {@code spec.conversion} as kube does, {@code WebhookConverter} posts each object to convert in
 * a {@code ConversionReview} (built and checked by {@code ConversionReview}) through the shared
 * {@link io.listwatch.apiserver.webhook.WebhookClient}.
 */
package io.listwatch.apiserver.apiextensions;
