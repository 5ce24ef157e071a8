package io.listwatch.apiserver.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Runtime;
import io.listwatch.api.StatusException;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The server's protobuf encoding ({@code application/vnd.kubernetes.protobuf}) of built-in
 * kinds, as kube-apiserver's: an object is its {@code generated.proto} message in kube's
 * {@link Envelope}; a list is the kind's List message (1: ListMeta, 2: the items) in the envelope;
 * an error is meta.v1's Status in the envelope ({@code v1}, {@code Status}); a watch event is a
 * meta.v1 {@code WatchEvent} (1: type, 2: a RawExtension holding the object in its envelope),
 * <em>not</em> in an envelope, each preceded on a streamed response by its length (4 bytes,
 * big-endian) and sent alone as one binary WebSocket message. Objects are converted from and to
 * the server's JSON form by {@link ProtoJson}. Custom resources have no protobuf form. Stateless;
 * thread-safe.
 */
public final class KubeProtobuf {

  public static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";
  /** The Content-Type of a protobuf watch response. */
  public static final String WATCH_MEDIA_TYPE = MEDIA_TYPE + ";stream=watch";
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private KubeProtobuf() {
  }

  /**
   * Whether objects of {@code kind} in {@code apiVersion} have a protobuf form: the built-in
   * groups' kinds (the core group, {@code apps}, {@code batch}, {@code policy},
   * {@code autoscaling} and the {@code *.k8s.io} groups) that kube has a message for.
   */
  public static boolean supports(String apiVersion, String kind) {
    int slash = apiVersion.indexOf('/');
    String group = slash < 0 ? "" : apiVersion.substring(0, slash);
    boolean builtinGroup = group.isEmpty() || group.endsWith(".k8s.io") || !group.contains(".");
    return builtinGroup && ProtoTypes.of(apiVersion, kind).isPresent();
  }

  /**
   * An object's JSON bytes in kube's envelope, or null when they are not an object of a kind
   * with a protobuf form (a custom resource, a discovery document).
   */
  public static byte[] encodeIfSupported(byte[] json) {
    JsonNode node;
    try {
      node = readTree(json);
    } catch (IllegalArgumentException e) {
      return null;
    }
    return supports(node.path("apiVersion").asText(""), node.path("kind").asText("")) ? encode(node) : null;
  }

  // ---- reading -------------------------------------------------------------------------------

  /**
   * Whether a request body of {@code mediaType} (its Content-Type without parameters, as
   * {@code ApiRequest.mediaType()} gives it) is in this encoding, for a kind the server reads in
   * either: true for protobuf, false for JSON (also for no type or {@code *}{@code /*}), and a 415
   * in kube's words for any other type.
   */
  public static boolean isProtobufBody(String mediaType) {
    boolean protobuf = mediaType.equals(MEDIA_TYPE);
    if (!mediaType.isEmpty() && !mediaType.equals("application/json") && !mediaType.equals("*/*") && !protobuf) {
      throw StatusException.unsupportedMediaType("the body of the request was in an unknown format - accepted "
          + "media types include: application/json, " + MEDIA_TYPE);
    }
    return protobuf;
  }

  /**
   * A request body of kind {@code kind} in {@code apiVersion} as the object's JSON (with
   * {@code kind} and {@code apiVersion} first). An envelope naming another apiVersion or kind, a
   * body that is not an envelope, or malformed bytes are a 400.
   */
  public static ObjectNode decode(byte[] body, String apiVersion, String kind) {
    Envelope envelope = Envelope.unwrap(body);
    String version = envelope.apiVersion().isEmpty() ? apiVersion : envelope.apiVersion();
    String k = envelope.kind().isEmpty() ? kind : envelope.kind();
    if (!version.equals(apiVersion)) {
      throw StatusException.badRequest("the API version in the data (" + version
          + ") does not match the expected API version (" + apiVersion + ")");
    }
    if (!k.equals(kind)) {
      throw StatusException.badRequest("the kind in the data (" + k + ") does not match the expected kind ("
          + kind + ")");
    }
    return object(version, k, envelope.raw());
  }

  /** Any built-in object in kube's envelope, as its JSON; an unknown kind or bad bytes are a 400. */
  public static ObjectNode decodeAny(byte[] body) {
    Envelope envelope = Envelope.unwrap(body);
    return object(envelope.apiVersion(), envelope.kind(), envelope.raw());
  }

  private static ObjectNode object(String apiVersion, String kind, byte[] raw) {
    Descriptor type = descriptor(apiVersion, kind).orElseThrow(() -> StatusException.badRequest(
        "no kind \"" + kind + "\" is registered for version \"" + apiVersion + "\" in protobuf"));
    ObjectNode out = NODES.objectNode();
    out.put("kind", kind);
    out.put("apiVersion", apiVersion);
    try {
      out.setAll(ProtoJson.toJson(DynamicMessage.parseFrom(type, raw)));
    } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
      throw StatusException.badRequest("the protobuf body of the request is malformed: " + e.getMessage());
    }
    return out;
  }

  private static Optional<Descriptor> descriptor(String apiVersion, String kind) {
    return supports(apiVersion, kind) ? ProtoTypes.of(apiVersion, kind) : Optional.empty();
  }

  // ---- writing -------------------------------------------------------------------------------

  /**
   * An object (JSON with {@code apiVersion} and {@code kind}) in kube's envelope.
   *
   * @throws IllegalArgumentException when its kind has no protobuf form
   */
  public static byte[] encode(JsonNode object) {
    String apiVersion = object.path("apiVersion").asText("");
    String kind = object.path("kind").asText("");
    Descriptor type = descriptor(apiVersion, kind).orElseThrow(() -> new IllegalArgumentException(
        "no protobuf form for " + kind + " in " + apiVersion));
    return new Envelope(apiVersion, kind, ProtoWriter.write(type, object)).toBytes();
  }

  /** An object's JSON bytes in kube's envelope; see {@link #encode(JsonNode)}. */
  public static byte[] encode(byte[] json) {
    return encode(readTree(json));
  }

  /**
   * A list as kube's List message in its envelope: {@code metadata} (selfLink and continue empty
   * unless set, as kube writes them; remainingItemCount only when known), then the items, each
   * given in its own envelope ({@link #encode}, or the watch cache's {@code CachedObject#protobuf})
   * and embedded without being converted again. Written into one array of the exact size; see
   * {@link #listLayout} to stream it instead.
   */
  public static byte[] encodeList(String apiVersion, String listKind, long resourceVersion,
      String continueToken, Long remainingItemCount, List<byte[]> itemEnvelopes) {
    ProtobufList list = listLayout(apiVersion, listKind, resourceVersion, continueToken, remainingItemCount,
        itemEnvelopes);
    byte[] out = new byte[Math.toIntExact(list.length())];
    int at = 0;
    for (ProtobufList.Part part = list.first(); part != null; part = list.next(part)) {
      System.arraycopy(part.bytes(), part.offset(), out, at, part.length());
      at += part.length();
    }
    return out;
  }

  /**
   * The wire layout of {@link #encodeList}'s answer, as parts that a writer copies in order
   * (the envelope and list metadata, each item's tag, length and message, the envelope's end),
   * with the total length known up front for a Content-Length.
   */
  public static ProtobufList listLayout(String apiVersion, String listKind, long resourceVersion,
      String continueToken, Long remainingItemCount, List<byte[]> itemEnvelopes) {
    Descriptor listType = descriptor(apiVersion, listKind).orElseThrow(() -> new IllegalArgumentException(
        "no protobuf form for " + listKind + " in " + apiVersion));
    Meta.ListMeta.Builder metaBuilder = Meta.ListMeta.newBuilder().setSelfLink("")
        .setResourceVersion(Long.toString(resourceVersion)).setContinue(continueToken == null ? "" : continueToken);
    if (remainingItemCount != null) {
      metaBuilder.setRemainingItemCount(remainingItemCount);
    }
    Meta.ListMeta meta = metaBuilder.build();
    int metadataField = listType.findFieldByName("metadata").getNumber();
    int itemsField = listType.findFieldByName("items").getNumber();
    int[][] spans = new int[itemEnvelopes.size()][];
    long rawSize = CodedOutputStream.computeMessageSize(metadataField, meta);
    for (int i = 0; i < spans.length; i++) {
      spans[i] = Envelope.rawSpan(itemEnvelopes.get(i));
      int length = spans[i][1];
      rawSize += CodedOutputStream.computeTagSize(itemsField) + CodedOutputStream.computeUInt32SizeNoTag(length) + length;
    }
    if (rawSize > Integer.MAX_VALUE - 1024) {
      throw new IllegalArgumentException("the list is too large for one protobuf message: " + rawSize + " bytes");
    }
    byte[][] frame = Envelope.frame(apiVersion, listKind, (int) rawSize);
    byte[] metaField = new byte[CodedOutputStream.computeMessageSize(metadataField, meta)];
    try {
      CodedOutputStream out = CodedOutputStream.newInstance(metaField);
      out.writeMessage(metadataField, meta);
      out.checkNoSpaceLeft();
    } catch (IOException e) {
      throw new IllegalStateException(e); // an array of the exact size
    }
    byte[] head = new byte[frame[0].length + metaField.length];
    System.arraycopy(frame[0], 0, head, 0, frame[0].length);
    System.arraycopy(metaField, 0, head, frame[0].length, metaField.length);
    return new ProtobufList(head, itemsField, itemEnvelopes, spans, frame[1],
        frame[0].length + rawSize + frame[1].length);
  }

  /**
   * A meta.v1 WatchEvent of {@code type} (ADDED, MODIFIED, DELETED, BOOKMARK, ERROR) carrying an
   * object already in its envelope; the raw message, as kube streams it (no envelope of its own).
   */
  public static byte[] watchEvent(String type, byte[] objectEnvelope) {
    return Meta.WatchEvent.newBuilder().setType(type)
        .setObject(Runtime.RawExtension.newBuilder().setRaw(ByteString.copyFrom(objectEnvelope)))
        .build().toByteArray();
  }

  /** The 4-byte big-endian length that precedes each message of a protobuf watch stream. */
  public static byte[] lengthPrefix(int length) {
    return new byte[] {(byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8), (byte) length};
  }

  private static JsonNode readTree(byte[] json) {
    try {
      return ProtoJson.MAPPER.readTree(json);
    } catch (IOException e) {
      throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
    }
  }
}
