/**
 * kube's REST semantics over the registry, storage and watch cache. Handlers return plain
 * {@link io.listwatch.apiserver.request.ApiResponse}s (or throw StatusExceptions); the transport in
 * {@code io.listwatch.server.http} encodes them.
 *
 * <ul>
 *   <li>{@link io.listwatch.apiserver.rest.ApiRoutes}: which handler answers a path: health,
 *       version, discovery, or a resource's {@link io.listwatch.apiserver.rest.ResourceHandler}.</li>
 *   <li>{@link io.listwatch.apiserver.rest.ResourceHandler}: the verbs of one resource (get,
 *       list, watch, create, update, patch, delete), decoding bodies and shaping answers.</li>
 *   <li>{@link io.listwatch.apiserver.rest.ResourceStore}: kube's registry store: creates,
 *       guaranteed updates and deletes against storage, with the metadata the server owns
 *       ({@link io.listwatch.apiserver.rest.ObjectMetaDefaults}), each kind's own rules from its
 *       {@link io.listwatch.apiserver.strategy.RestStrategy}, and storage errors mapped to
 *       Status in one place ({@link io.listwatch.apiserver.rest.StorageErrors}).</li>
 *   <li>{@link io.listwatch.apiserver.rest.Discovery}: /api, /apis and the per-group-version
 *       resource lists.</li>
 *   <li>Hooks other packages register: {@link io.listwatch.apiserver.rest.RestHandler} (virtual
 *       resources, subresources), {@link io.listwatch.apiserver.rest.WriteAdmission} (a type's
 *       checks of writes, e.g. RBAC's escalation check), {@link io.listwatch.apiserver.rest.WriteStrategy}
 *       (a custom resource's pruning, defaults and validation by its schema). Protobuf bodies of
 *       built-in kinds are read with {@link io.listwatch.apiserver.protobuf.KubeProtobuf}.</li>
 *   <li>Field ownership: {@link io.listwatch.apiserver.rest.ServerSideApply} (apply patches) and
 *       {@link io.listwatch.apiserver.rest.UpdateManagers} (the Update entries of ordinary
 *       writes).</li>
 * </ul>
 */
package io.listwatch.apiserver.rest;
