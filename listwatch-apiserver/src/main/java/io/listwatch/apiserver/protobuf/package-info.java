/**
 * Kubernetes' protobuf encoding ({@code application/vnd.kubernetes.protobuf}) of the built-in
 * kinds, driven by the descriptors of kube's {@code generated.proto} messages (published as Java
 * classes in {@code io.kubernetes:client-java-proto}); nothing here knows a kind's fields.
 *
 * <ul>
 *   <li>{@link io.listwatch.apiserver.protobuf.ProtoTypes}: which message a kind is (its descriptor).</li>
 *   <li>{@link io.listwatch.apiserver.protobuf.ProtoJson}: any message to the object's JSON tree, with
 *       kube's special types (Time, MicroTime, Duration, Quantity, IntOrString, RawExtension,
 *       FieldsV1) mapped as kube's JSON has them; {@code ProtoWriter} the way back, from the JSON
 *       tree straight to the wire format.</li>
 *   <li>Durations ({@code metav1.Duration}) are Go's duration strings, read and written by
 *       {@link io.listwatch.api.GoDuration}.</li>
 *   <li>{@link io.listwatch.apiserver.protobuf.Envelope}: the {@code k8s\0} magic and the
 *       {@code runtime.Unknown} around an object's bytes.</li>
 *   <li>{@link io.listwatch.apiserver.protobuf.KubeProtobuf}: what the server reads and writes: request
 *       bodies, objects, lists, Status, and watch events (length-prefixed {@code WatchEvent}s).</li>
 * </ul>
 */
package io.listwatch.apiserver.protobuf;
