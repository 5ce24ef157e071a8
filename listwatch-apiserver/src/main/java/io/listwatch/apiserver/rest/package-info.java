/**
 * kube's REST semantics over the registry, storage and watch cache. Handlers return plain
 * {@link io.listwatch.apiserver.request.ApiResponse}s (or throw StatusExceptions); the transport in
 * {@code io.listwatch.server.http} encodes them.
 *
 * <ul>
 *   <li>{@link io.listwatch.apiserver.rest.ApiRoutes}, the router: what a request means and which
 *       handler answers it, for every verb (a watch's answer is a
 *       {@link io.listwatch.apiserver.request.WatchStart}): health, version, discovery, OpenAPI,
 *       or a resource's handler from the catalogue.</li>
 *   <li>{@link io.listwatch.apiserver.rest.ServedResources}, the catalogue of served resources:
 *       each resource's {@link io.listwatch.apiserver.rest.ResourceHandler} and store, the
 *       handlers of subresources and virtual resources, custom resources served and unserved at
 *       runtime, and the admission chain every store runs.</li>
 *   <li>{@link io.listwatch.apiserver.rest.ResourceHandler}: the verbs of one resource (get,
 *       list, watch, create, update, patch, delete), decoding bodies and shaping answers.</li>
 *   <li>{@link io.listwatch.apiserver.rest.ResourceStore}: kube's registry store: creates,
 *       guaranteed updates and deletes against storage, through the admission plug-ins in
 *       kube's order ({@link io.listwatch.apiserver.admission.AdmissionChain}; what a delete does,
 *       {@code Deletion}), with the metadata the server owns
 *       ({@link io.listwatch.apiserver.rest.ObjectMetaDefaults}), each kind's own rules from its
 *       {@link io.listwatch.apiserver.strategy.RestStrategy}, and storage errors mapped to
 *       Status in one place ({@link io.listwatch.apiserver.rest.StorageErrors}).</li>
 *   <li>{@link io.listwatch.apiserver.rest.Discovery}: /api, /apis and the per-group-version
 *       resource lists.</li>
 *   <li>Hooks other packages register: {@link io.listwatch.apiserver.rest.RestHandler} (virtual
 *       resources, subresources), {@link io.listwatch.apiserver.rest.WriteAdmission} (a type's
 *       checks of writes that need the user, e.g. RBAC's escalation check; kube keeps them in the
 *       type's REST storage, not in admission), {@link io.listwatch.apiserver.rest.WriteStrategy}
 *       (a custom resource's pruning, defaults and validation by its schema). Protobuf bodies of
 *       built-in kinds are read with {@link io.listwatch.apiserver.protobuf.KubeProtobuf}.</li>
 *   <li>Field ownership: {@link io.listwatch.apiserver.rest.ServerSideApply} (apply patches) and
 *       {@link io.listwatch.apiserver.rest.UpdateManagers} (the Update entries of ordinary
 *       writes).</li>
 * </ul>
 */
package io.listwatch.apiserver.rest;
