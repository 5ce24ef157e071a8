package io.listwatch.apiserver.protobuf;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.util.List;

/**
 * A protobuf list answer laid out as the parts it is written from, in order: the head (the
 * envelope up to the list message, and the list's metadata field), then for each item its
 * field's tag and length and the item's message (a slice of its cached envelope), then the
 * envelope's tail. {@link KubeProtobuf#listLayout} builds it; a streaming writer copies the
 * parts into I/O buffers of its size, so the whole answer never exists as one array.
 *
 * <p>Immutable (the item arrays are shared and must not be mutated); thread-safe.
 *
 * @param head the bytes before the first item
 * @param itemsField the list message's field number of its items
 * @param items the items' envelopes
 * @param spans for each item, the offset and length of its message in its envelope
 * @param tail the bytes after the last item
 * @param length the answer's total length
 */
public record ProtobufList(byte[] head, int itemsField, List<byte[]> items, int[][] spans, byte[] tail,
    long length) {

  /** One part: {@code length} bytes of {@code bytes} from {@code offset}; {@code index} orders the parts. */
  public record Part(byte[] bytes, int offset, int length, int index) {
  }

  /** The first part (the head). */
  public Part first() {
    return new Part(head, 0, head.length, 0);
  }

  /**
   * The part after {@code part}, or null after the tail. Parts alternate, per item, between the
   * item field's tag and length (odd indexes) and the item's message (even ones).
   */
  public Part next(Part part) {
    int index = part.index() + 1;
    int count = spans.length;
    if (index > 2 * count + 1) {
      return null;
    }
    if (index == 2 * count + 1) {
      return new Part(tail, 0, tail.length, index);
    }
    int item = (index - 1) / 2;
    if (index % 2 == 1) {
      int length = spans[item][1];
      byte[] prefix = new byte[CodedOutputStream.computeTagSize(itemsField)
          + CodedOutputStream.computeUInt32SizeNoTag(length)];
      try {
        CodedOutputStream out = CodedOutputStream.newInstance(prefix);
        out.writeTag(itemsField, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        out.writeUInt32NoTag(length);
      } catch (IOException e) {
        throw new IllegalStateException(e); // an array of the exact size
      }
      return new Part(prefix, 0, prefix.length, index);
    }
    return new Part(items.get(item), spans[item][0], spans[item][1], index);
  }
}
