package io.listwatch.apiserver.allocation;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.JsonLimits;
import io.listwatch.api.StatusException;
import io.listwatch.storage.KeyValue;
import io.listwatch.storage.Storage;
import io.listwatch.storage.StorageException;
import java.io.IOException;
import java.util.Arrays;
import java.util.Base64;
import java.util.BitSet;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * One range's allocations kept in storage (kube's {@code allocator/storage.Etcd}): a
 * {@code RangeAllocation} object, {@code {"kind":"RangeAllocation","apiVersion":"v1",
 * "range":"10.96.0.0/12","data":"<base64 bitmap>"}}, under one key
 * ({@code /registry/ranges/serviceips}, {@code /registry/ranges/servicenodeports}), changed only
 * by compare-and-swap on its mod revision. Every server sharing the storage shares it, so an
 * item is never given twice, and it survives restarts. The bitmap's bytes are
 * {@link BitSet#toByteArray()} (bit i is item i), this server's own layout; a stored object of
 * another range (the range was changed) reads as empty, for the repair to fill.
 *
 * <p>Thread-safe: every operation is a read and a conditional write, retried on conflict.
 */
final class StoredRange {

  private static final ObjectMapper MAPPER = JsonLimits.mapper();
  private static final int MAX_ATTEMPTS = 64;

  private final Storage storage;
  private final String key;
  private final String range;
  private final int size;
  private final int dynamicOffset;

  StoredRange(Storage storage, String key, String range, int size, int dynamicOffset) {
    this.storage = storage;
    this.key = key;
    this.range = range;
    this.size = size;
    this.dynamicOffset = dynamicOffset;
  }

  String key() {
    return key;
  }

  /** The allocations as stored now (a copy: changing it changes nothing stored). */
  CompletableFuture<AllocationBitmap> read() {
    return storage.get(key).thenApply(this::decode);
  }

  /**
   * Reads the allocations, applies {@code change} to them, and stores the result if it differs,
   * guarded by the revision read; on a conflict does it all again. {@code change} may throw (a
   * {@link StatusException}) to store nothing, and may run several times.
   */
  <T> CompletableFuture<T> update(Function<AllocationBitmap, T> change) {
    return update(change, 0);
  }

  private <T> CompletableFuture<T> update(Function<AllocationBitmap, T> change, int attempt) {
    return storage.get(key).thenCompose(found -> {
      AllocationBitmap bitmap = decode(found);
      byte[] before = bitmap.toBytes();
      T result = change.apply(bitmap);
      byte[] after = bitmap.toBytes();
      if (Arrays.equals(before, after) && found.isPresent()) {
        return CompletableFuture.completedFuture(result);
      }
      byte[] value = encode(after);
      CompletableFuture<KeyValue> write = found.isPresent()
          ? storage.update(key, value, found.get().modRevision())
          : storage.create(key, value);
      return write.thenApply(kv -> result);
    }).handle((result, e) -> {
      if (e == null) {
        return CompletableFuture.completedFuture(result);
      }
      Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
      if (cause instanceof StorageException se && attempt < MAX_ATTEMPTS
          && (se.code() == StorageException.Code.CONFLICT || se.code() == StorageException.Code.KEY_EXISTS
          || se.code() == StorageException.Code.KEY_NOT_FOUND)) {
        return update(change, attempt + 1);
      }
      return CompletableFuture.<T>failedFuture(cause);
    }).thenCompose(f -> f);
  }

  private AllocationBitmap decode(Optional<KeyValue> kv) {
    BitSet bits = new BitSet();
    if (kv.isPresent()) {
      try {
        ObjectNode obj = (ObjectNode) MAPPER.readTree(kv.get().value());
        if (range.equals(obj.path("range").asText())) {
          bits = BitSet.valueOf(Base64.getDecoder().decode(obj.path("data").asText("")));
          if (bits.length() > size) {
            bits.clear(size, bits.length());
          }
        }
      } catch (IOException | ClassCastException | IllegalArgumentException e) {
        throw new CompletionException(StatusException.internal("unreadable range allocation " + key + ": " + e));
      }
    }
    return new AllocationBitmap(size, dynamicOffset, bits);
  }

  private byte[] encode(byte[] bitmap) {
    ObjectNode obj = MAPPER.createObjectNode();
    obj.put("kind", "RangeAllocation").put("apiVersion", "v1");
    obj.putObject("metadata").put("name", "").putNull("creationTimestamp");
    obj.put("range", range).put("data", Base64.getEncoder().encodeToString(bitmap));
    try {
      return MAPPER.writeValueAsBytes(obj);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
