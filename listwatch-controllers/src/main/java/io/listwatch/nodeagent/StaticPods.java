package io.listwatch.nodeagent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.listwatch.client.DynamicObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * Static pods: reads manifests (YAML or JSON: one Pod, or a PodList from a URL) and gives each
 * pod what the kubelet's {@code applyDefaults} gives it.
 *
 * <ul>
 *   <li>a UID, when the manifest has none: a hash of the pod and of where it came from (the node
 *       and file, or the URL), so an edited manifest is a new pod;
 *   <li>the name {@code <name>-<nodeName>} (node name in lower case), namespace {@code default}
 *       when none, {@code spec.nodeName} the node;
 *   <li>the annotation {@link PodSources#CONFIG_HASH} = the UID (a mirror pod's
 *       {@link PodSources#CONFIG_MIRROR} repeats it);
 *   <li>from a file: a toleration of every {@code NoExecute} taint, so node problems never
 *       evict it;
 *   <li>{@code status.phase: Pending}.
 * </ul>
 * Stateless and thread-safe.
 */
public final class StaticPods {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final ObjectMapper CANONICAL =
      new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

  private StaticPods() {
  }

  /**
   * Parses {@code manifest} (YAML or JSON) into pods: one Pod, or the items of a PodList.
   *
   * @throws IllegalArgumentException if it is neither, or a pod has no name
   */
  public static List<ObjectNode> parse(byte[] manifest) {
    JsonNode root;
    try {
      root = YAML.readTree(manifest);
    } catch (IOException e) {
      throw new IllegalArgumentException("not YAML or JSON: " + e.getMessage(), e);
    }
    if (!(root instanceof ObjectNode object)) {
      throw new IllegalArgumentException("not an object");
    }
    List<ObjectNode> pods = new ArrayList<>();
    String kind = object.path("kind").asText();
    if (kind.equals("PodList") || kind.equals("List")) {
      if (object.get("items") instanceof ArrayNode items) {
        for (JsonNode item : items) {
          if (item instanceof ObjectNode o) {
            pods.add(o);
          }
        }
      }
    } else if (kind.equals("Pod")) {
      pods.add(object);
    } else {
      throw new IllegalArgumentException("kind " + (kind.isEmpty() ? "(none)" : kind)
          + " is not Pod or PodList");
    }
    for (ObjectNode pod : pods) {
      if (PodTrees.text(pod, "metadata", "name").isEmpty()) {
        throw new IllegalArgumentException("a pod has no metadata.name");
      }
    }
    return pods;
  }

  /**
   * The static pod {@code pod} (not changed) becomes on {@code nodeName}.
   *
   * @param location the file path ({@code fromFile}) or URL it came from
   */
  public static DynamicObject applyDefaults(ObjectNode pod, String location, boolean fromFile, String nodeName) {
    ObjectNode p = pod.deepCopy();
    p.put("apiVersion", "v1").put("kind", "Pod");
    ObjectNode meta = PodTrees.metadata(p);
    String uid = PodTrees.text(meta, "uid");
    if (uid.isEmpty()) {
      uid = hash(p, fromFile ? "host:" + nodeName + "file:" + location : "url:" + location);
      meta.put("uid", uid);
    }
    meta.put("name", meta.path("name").asText() + "-" + nodeName.toLowerCase(Locale.ROOT));
    if (PodTrees.text(meta, "namespace").isEmpty()) {
      meta.put("namespace", "default");
    }
    PodTrees.spec(p).put("nodeName", nodeName);
    PodTrees.annotations(p).put(PodSources.CONFIG_HASH, uid);
    if (fromFile) {
      ObjectNode spec = PodTrees.spec(p);
      ArrayNode tolerations = spec.get("tolerations") instanceof ArrayNode a ? a : spec.putArray("tolerations");
      boolean present = false;
      for (JsonNode t : tolerations) {
        present |= t.path("operator").asText().equals("Exists") && t.path("effect").asText().equals("NoExecute")
            && t.path("key").asText().isEmpty();
      }
      if (!present) {
        tolerations.addObject().put("operator", "Exists").put("effect", "NoExecute");
      }
    }
    PodTrees.status(p).put("phase", "Pending");
    return DynamicObject.of(p);
  }

  /** 32 hex digits: SHA-256 of the pod's canonical JSON and {@code origin}, cut to 128 bits. */
  static String hash(ObjectNode pod, String origin) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(CANONICAL.writeValueAsBytes(CANONICAL.treeToValue(pod, Object.class)));
      sha.update(origin.getBytes(StandardCharsets.UTF_8));
      byte[] digest = sha.digest();
      return HexFormat.of().formatHex(digest, 0, 16);
    } catch (NoSuchAlgorithmException | IOException e) {
      throw new IllegalStateException("cannot hash a pod", e);
    }
  }
}
