package io.listwatch.storage;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The key and value rules every {@link Storage} enforces, so that bad input fails the same
 * way on every implementation and writes nothing.
 *
 * <p>A key is a non-empty string that encodes to well-formed UTF-8 (no unpaired surrogate),
 * contains no NUL character (NUL is the separator the embedded store places after a key) and
 * is at most {@link #MAX_KEY_BYTES} bytes long. Keys sort by their UTF-8 bytes.
 */
public final class Keys {

  /** The longest key, in UTF-8 bytes. kube's keys are well under it. */
  public static final int MAX_KEY_BYTES = 4096;

  /** The default largest value: 3 MiB, kube-apiserver's request body limit. */
  public static final int DEFAULT_MAX_VALUE_BYTES = 3 * 1024 * 1024;

  private Keys() {
  }

  /**
   * Checks {@code key} and returns its UTF-8 bytes.
   *
   * @throws StorageException {@code INVALID_KEY} or {@code TOO_LARGE}
   */
  public static byte[] checkKey(String key) {
    if (key == null || key.isEmpty()) {
      throw StorageException.invalidKey("", "the key is empty");
    }
    if (key.indexOf('\0') >= 0) {
      throw StorageException.invalidKey(printable(key), "the key contains a NUL character");
    }
    byte[] bytes = utf8(key);
    if (bytes.length > MAX_KEY_BYTES) {
      throw StorageException.tooLarge(printable(key), "the key", bytes.length, MAX_KEY_BYTES);
    }
    return bytes;
  }

  /**
   * Checks a value against {@code maxValueBytes}.
   *
   * @throws StorageException {@code TOO_LARGE}
   */
  public static void checkValue(String key, byte[] value, int maxValueBytes) {
    if (value == null) {
      throw new NullPointerException("value");
    }
    if (value.length > maxValueBytes) {
      throw StorageException.tooLarge(key, "the value", value.length, maxValueBytes);
    }
  }

  /**
   * Encodes a prefix or start key, which may be empty; it must be well-formed UTF-8 too.
   *
   * @throws StorageException {@code INVALID_KEY}
   */
  public static byte[] utf8(String s) {
    try {
      ByteBuffer buf = StandardCharsets.UTF_8.newEncoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .encode(CharBuffer.wrap(s));
      byte[] out = new byte[buf.remaining()];
      buf.get(out);
      return out;
    } catch (CharacterCodingException e) {
      throw StorageException.invalidKey(printable(s), "the key is not well-formed UTF-8");
    }
  }

  /** The smallest key that sorts after {@code key}: where the next page of a range starts. */
  public static String after(String key) {
    return key + '\0';
  }

  private static String printable(String s) {
    StringBuilder b = new StringBuilder(Math.min(s.length(), 80));
    for (int i = 0; i < s.length() && b.length() < 80; i++) {
      char c = s.charAt(i);
      b.append(Character.isSurrogate(c) || c < 0x20 ? '?' : c);
    }
    return b.toString();
  }
}
