package io.listwatch.apiserver.protobuf;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Admissionregistration;
import io.kubernetes.client.proto.V1Apps;
import io.kubernetes.client.proto.V1Authentication;
import io.kubernetes.client.proto.V1Authorization;
import io.kubernetes.client.proto.V1Autoscaling;
import io.kubernetes.client.proto.V1Batch;
import io.kubernetes.client.proto.V1Certificates;
import io.kubernetes.client.proto.V1Coordination;
import io.kubernetes.client.proto.V1Discovery;
import io.kubernetes.client.proto.V1Events;
import io.kubernetes.client.proto.V1Flowcontrol;
import io.kubernetes.client.proto.V1Networking;
import io.kubernetes.client.proto.V1Node;
import io.kubernetes.client.proto.V1Policy;
import io.kubernetes.client.proto.V1Rbac;
import io.kubernetes.client.proto.V1Scheduling;
import io.kubernetes.client.proto.V1Storage;
import io.kubernetes.client.proto.V2Autoscaling;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Which protobuf message each built-in kind is: the descriptors of kube's {@code generated.proto}
 * files for the stable API groups, indexed by message name. A kind {@code K} of
 * {@code group/version} is the message {@code k8s.io.api.<first label of group, or
 * core>.<version>.K}; {@code Status} and the options kinds ({@code DeleteOptions}, ...) are meta.v1's
 * in any group. Custom resources have no message:
 * they are JSON only. Immutable after class initialization; thread-safe.
 */
public final class ProtoTypes {

  /** meta.v1's package: Status, WatchEvent, ListMeta, Time, ... */
  public static final String META = "k8s.io.apimachinery.pkg.apis.meta.v1.";

  private static final Map<String, Descriptor> MESSAGES = index(
      V1.getDescriptor(), V1Apps.getDescriptor(), V1Authentication.getDescriptor(),
      V1Authorization.getDescriptor(), V1Rbac.getDescriptor(), V1Coordination.getDescriptor(),
      V1Batch.getDescriptor(), V1Events.getDescriptor(), V1Discovery.getDescriptor(),
      V1Networking.getDescriptor(), V1Policy.getDescriptor(), V1Scheduling.getDescriptor(),
      V1Storage.getDescriptor(), V1Autoscaling.getDescriptor(), V2Autoscaling.getDescriptor(),
      V1Certificates.getDescriptor(), V1Flowcontrol.getDescriptor(), V1Node.getDescriptor(),
      V1Admissionregistration.getDescriptor(), Meta.getDescriptor());

  /** meta.v1's kinds, which clients send and receive in every group's version. */
  private static final java.util.Set<String> META_KINDS = java.util.Set.of("Status", "DeleteOptions",
      "CreateOptions", "UpdateOptions", "PatchOptions", "GetOptions", "ListOptions");

  private ProtoTypes() {
  }

  /** The message of {@code kind} in {@code apiVersion} ("v1", "apps/v1"), if kube has one. */
  public static Optional<Descriptor> of(String apiVersion, String kind) {
    if (META_KINDS.contains(kind)) {
      return Optional.of(MESSAGES.get(META + kind));
    }
    int slash = apiVersion.indexOf('/');
    String group = slash < 0 ? "" : apiVersion.substring(0, slash);
    String version = apiVersion.substring(slash + 1);
    String pkg = group.isEmpty() ? "core" : group.split("\\.", 2)[0];
    return Optional.ofNullable(MESSAGES.get("k8s.io.api." + pkg + "." + version + "." + kind));
  }

  /** A message by its full name ({@code k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent}). */
  public static Descriptor named(String fullName) {
    Descriptor d = MESSAGES.get(fullName);
    if (d == null) {
      throw new IllegalArgumentException("no protobuf message " + fullName);
    }
    return d;
  }

  private static Map<String, Descriptor> index(FileDescriptor... files) {
    Map<String, Descriptor> out = new HashMap<>();
    java.util.ArrayDeque<FileDescriptor> todo = new java.util.ArrayDeque<>(java.util.List.of(files));
    java.util.Set<String> seen = new java.util.HashSet<>();
    while (!todo.isEmpty()) {
      FileDescriptor f = todo.pop();
      if (!seen.add(f.getName())) {
        continue;
      }
      for (Descriptor d : f.getMessageTypes()) {
        out.put(d.getFullName(), d);
      }
      todo.addAll(f.getDependencies());
    }
    return Map.copyOf(out);
  }
}
