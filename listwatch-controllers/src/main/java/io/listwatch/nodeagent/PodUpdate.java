package io.listwatch.nodeagent;

import io.listwatch.client.DynamicObject;
import java.util.List;
import java.util.Objects;

/**
 * One update of pods from or to a {@link PodConfig}: the kubelet's {@code kubetypes.PodUpdate}.
 * Immutable.
 *
 * @param pods the pods the operation is about (for {@link PodOperation#SET}, all of the source's)
 * @param op what happened to them
 * @param source the source's name, e.g. {@link PodSources#API}
 */
public record PodUpdate(List<DynamicObject> pods, PodOperation op, String source) {

  public PodUpdate {
    pods = List.copyOf(Objects.requireNonNull(pods, "pods"));
    Objects.requireNonNull(op, "op");
    Objects.requireNonNull(source, "source");
  }

  /** The update {@code op} of {@code pods} from {@code source}. */
  public static PodUpdate of(String source, PodOperation op, DynamicObject... pods) {
    return new PodUpdate(List.of(pods), op, source);
  }

  /** The names of the pods, in order ({@code namespace/name}), for logs and tests. */
  public List<String> podNames() {
    return pods.stream().map(p -> p.namespace() + "/" + p.name()).toList();
  }
}
