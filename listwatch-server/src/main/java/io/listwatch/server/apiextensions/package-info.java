/**
 * apiextensions.k8s.io: CustomResourceDefinitions as stored objects, with kube's defaults and
 * validation ({@link io.listwatch.server.apiextensions.CustomResourceDefinitionValidation}).
 * Serving the custom resources a definition declares is step 6's work and not here yet.
 */
package io.listwatch.server.apiextensions;
