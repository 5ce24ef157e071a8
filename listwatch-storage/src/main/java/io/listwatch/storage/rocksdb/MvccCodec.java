package io.listwatch.storage.rocksdb;

import io.listwatch.storage.KeyValue;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Byte layouts of the {@code kv}, {@code log} and {@code time} column families (see the
 * package doc). Stateless.
 */
final class MvccCodec {

  static final byte PUT = 0;
  static final byte TOMBSTONE = 1;

  /** Bytes after the user key in a {@code kv} key: the NUL separator and 8 revision bytes. */
  static final int KV_SUFFIX = 9;
  /** Header of a {@code kv} value: type, create revision, version. */
  static final int KV_HEADER = 17;
  /** Header of a {@code log} value: type, create revision, version, previous mod revision. */
  static final int LOG_HEADER = 25;

  private MvccCodec() {
  }

  static byte[] kvKey(byte[] key, long revision) {
    byte[] out = Arrays.copyOf(key, key.length + KV_SUFFIX);
    out[key.length] = 0;
    putLong(out, key.length + 1, ~revision);
    return out;
  }

  /** The length of the user key inside a {@code kv} key. */
  static int userKeyLength(byte[] kvKey) {
    return kvKey.length - KV_SUFFIX;
  }

  static long kvRevision(byte[] kvKey) {
    return ~getLong(kvKey, kvKey.length - 8);
  }

  static byte[] kvValue(byte type, long createRevision, long version, byte[] value) {
    byte[] out = new byte[KV_HEADER + value.length];
    out[0] = type;
    putLong(out, 1, createRevision);
    putLong(out, 9, version);
    System.arraycopy(value, 0, out, KV_HEADER, value.length);
    return out;
  }

  static boolean isTombstone(byte[] kvValue) {
    return kvValue[0] == TOMBSTONE;
  }

  /** Decodes a {@code kv} entry of {@code key} at {@code revision} into a KeyValue. */
  static KeyValue keyValue(String key, long revision, byte[] kvValue) {
    return new KeyValue(key, Arrays.copyOfRange(kvValue, KV_HEADER, kvValue.length),
        getLong(kvValue, 1), revision, getLong(kvValue, 9));
  }

  static byte[] logValue(byte type, long createRevision, long version, long prevModRevision,
      byte[] key) {
    byte[] out = new byte[LOG_HEADER + key.length];
    out[0] = type;
    putLong(out, 1, createRevision);
    putLong(out, 9, version);
    putLong(out, 17, prevModRevision);
    System.arraycopy(key, 0, out, LOG_HEADER, key.length);
    return out;
  }

  static byte logType(byte[] logValue) {
    return logValue[0];
  }

  static long logCreateRevision(byte[] logValue) {
    return getLong(logValue, 1);
  }

  static long logVersion(byte[] logValue) {
    return getLong(logValue, 9);
  }

  static long logPrevModRevision(byte[] logValue) {
    return getLong(logValue, 17);
  }

  static byte[] logKey(byte[] logValue) {
    return Arrays.copyOfRange(logValue, LOG_HEADER, logValue.length);
  }

  /** True when the key stored in a {@code log} value starts with {@code prefix}. */
  static boolean logKeyHasPrefix(byte[] logValue, byte[] prefix) {
    int len = logValue.length - LOG_HEADER;
    return len >= prefix.length
        && Arrays.equals(logValue, LOG_HEADER, LOG_HEADER + prefix.length, prefix, 0, prefix.length);
  }

  static String string(byte[] utf8) {
    return new String(utf8, StandardCharsets.UTF_8);
  }

  static boolean hasPrefix(byte[] bytes, int length, byte[] prefix) {
    return length >= prefix.length && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
  }

  /**
   * The smallest byte string greater than every string starting with {@code prefix}, or null
   * when there is none (empty prefix, or all 0xFF).
   */
  static byte[] prefixEnd(byte[] prefix) {
    for (int i = prefix.length - 1; i >= 0; i--) {
      if (prefix[i] != (byte) 0xFF) {
        byte[] end = Arrays.copyOf(prefix, i + 1);
        end[i]++;
        return end;
      }
    }
    return null;
  }

  static byte[] longBytes(long v) {
    byte[] out = new byte[8];
    putLong(out, 0, v);
    return out;
  }

  static void putLong(byte[] b, int off, long v) {
    for (int i = 7; i >= 0; i--) {
      b[off + i] = (byte) v;
      v >>>= 8;
    }
  }

  static long getLong(byte[] b, int off) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (b[off + i] & 0xFF);
    }
    return v;
  }
}
