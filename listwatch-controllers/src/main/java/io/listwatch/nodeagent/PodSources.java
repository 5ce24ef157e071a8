package io.listwatch.nodeagent;

/**
 * The names of the pod sources and the annotations the kubelet puts on their pods (its
 * {@code kubetypes} constants).
 */
public final class PodSources {

  /** Pods bound to the node in the API server. */
  public static final String API = "api";
  /** Static pods from the manifest directory. */
  public static final String FILE = "file";
  /** Static pods from the manifest URL. */
  public static final String HTTP = "http";

  /** The source a pod came from; every pod the {@link PodConfig} hands on carries it. */
  public static final String CONFIG_SOURCE = "kubernetes.io/config.source";
  /** A static pod's hash (also its UID); a mirror pod's {@link #CONFIG_MIRROR} repeats it. */
  public static final String CONFIG_HASH = "kubernetes.io/config.hash";
  /** When the agent first saw the pod (RFC 3339 with nanoseconds). */
  public static final String CONFIG_SEEN = "kubernetes.io/config.seen";
  /** On a mirror pod: the hash of the static pod it mirrors. */
  public static final String CONFIG_MIRROR = "kubernetes.io/config.mirror";

  private PodSources() {
  }

  /** Whether {@code source} is a static pod source (not the API server). */
  public static boolean isStatic(String source) {
    return !API.equals(source);
  }
}
