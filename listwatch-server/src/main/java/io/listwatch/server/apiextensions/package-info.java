/**
 * apiextensions.k8s.io: CustomResourceDefinitions as stored objects, with kube's defaults and
 * validation ({@link io.listwatch.server.apiextensions.CustomResourceDefinitionValidation},
 * which refuses a non-structural schema), the resources they declare
 * ({@link io.listwatch.server.apiextensions.CustomResources}), and how custom resources are
 * written: pruned, defaulted and validated by their version's schema, status and generation
 * kept as kube keeps them, applied with the schema's list and map semantics
 * ({@link io.listwatch.server.apiextensions.CustomResourceStrategy},
 * {@link io.listwatch.server.apiextensions.EmbeddedObjectMeta}).
 */
package io.listwatch.server.apiextensions;
