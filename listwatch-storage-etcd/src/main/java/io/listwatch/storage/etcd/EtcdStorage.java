package io.listwatch.storage.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.listwatch.storage.KeyValue;
import io.listwatch.storage.Keys;
import io.listwatch.storage.RangeRequest;
import io.listwatch.storage.RangeResult;
import io.listwatch.storage.Storage;
import io.listwatch.storage.StorageException;
import io.listwatch.storage.Watch;
import io.listwatch.storage.WatchListener;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link Storage} over an etcd v3 cluster, so that several API server replicas share one store:
 * the revision is etcd's cluster-wide revision, so a resourceVersion one replica returned is
 * valid on every other.
 *
 * <p>Each operation is one etcd request. A create is a transaction guarded on the key's
 * create revision being 0, an update or delete one guarded on its mod revision; both read the
 * key in the same transaction, so the result (or the conflicting current version) comes back
 * with the write. Writes are acknowledged by etcd after its raft quorum has the entry on disk,
 * which is this contract's durability. Watches are etcd watches with previous values; see
 * {@link EtcdWatch} for how a lagging listener is kept from growing memory.
 *
 * <p>{@link #currentRevision()} is the highest revision this client has seen in any answer or
 * watch event (read from etcd at open); {@link #readCurrentRevision()} asks the cluster, which
 * also covers writes made through other replicas. {@link #compactedRevision()} is learnt at
 * open and from compactions and compacted errors since. Compaction is the cluster's: a
 * replica's compactor (as kube-apiserver's) compacts to the revision it saw one interval ago;
 * several replicas doing so is harmless.
 *
 * <p>Failures: a request etcd refused changes nothing, as the {@link Storage} contract says. A
 * request that cannot be sent waits for a member for half the request timeout (a gRPC
 * deadline, {@link RequestDeadline}; jetcd's retries stop by then too), then fails with
 * {@code UNAVAILABLE}, and is never sent after that. But a write whose connection
 * broke after it was sent, or which etcd did not answer in time, fails with {@code UNAVAILABLE}
 * although etcd may have applied it, as with any store across a network (kube-apiserver answers
 * such a write with a timeout too); its message says so, and a reader finds out by reading.
 *
 * <p>Open with {@link #builder(List)}. Thread-safe.
 */
public final class EtcdStorage implements Storage {

  private static final Logger LOG = LoggerFactory.getLogger(EtcdStorage.class);

  /**
   * The largest value stored by default: etcd's default request limit ({@code
   * --max-request-bytes}, 1.5 MiB) less room for the key and the transaction around it.
   */
  public static final int DEFAULT_MAX_VALUE_BYTES = 1536 * 1024 - 8 * 1024;

  /** kube-apiserver's default {@code --etcd-compaction-interval}. */
  public static final Duration DEFAULT_COMPACTION_INTERVAL = Duration.ofMinutes(5);

  private static final ByteSequence ALL_KEYS_END = ByteSequence.from(new byte[] {0});

  private final Client client;
  private final KV kv;
  private final int maxValueBytes;
  private final Duration requestTimeout;
  private final AtomicLong revision = new AtomicLong();
  private final AtomicLong compacted = new AtomicLong();
  private final Set<EtcdWatch> watches = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final EtcdCompactor compactor;
  /**
   * True on etcd releases with issues 15220 and 17507, which may answer a progress request
   * ahead of events not yet sent on the watch: each notification is checked before it is believed.
   */
  private final boolean verifyProgress;

  private EtcdStorage(Builder b) {
    var cb = Client.builder().endpoints(b.endpoints.toArray(URI[]::new))
        .connectTimeout(b.requestTimeout)
        // a range may answer far more than gRPC's default 4 MiB, as kube-apiserver's etcd client allows
        .maxInboundMessageSize(Integer.MAX_VALUE)
        // a request waits for a member to answer (gRPC's wait-for-ready), but only until its
        // deadline, and jetcd's retries stop by then too: both well before this store reports the
        // request failed, or a write reported as failed could still be sent, and applied, later
        .interceptor(new RequestDeadline(b.requestTimeout.dividedBy(2)))
        .retryMaxDuration(b.requestTimeout.dividedBy(2));
    if (!b.namespace.isEmpty()) {
      cb.namespace(bytes(b.namespace));
    }
    if (b.trustedCa != null) {
      try {
        cb.sslContext(ssl -> {
          ssl.trustManager(b.trustedCa.toFile());
          if (b.clientCertificate != null) {
            ssl.keyManager(b.clientCertificate.toFile(), b.clientKey.toFile());
          }
        });
      } catch (javax.net.ssl.SSLException | RuntimeException e) {
        throw StorageException.unavailable("cannot use the TLS files for etcd (" + b.trustedCa
            + (b.clientCertificate == null ? "" : ", " + b.clientCertificate + ", " + b.clientKey) + "): "
            + EtcdErrors.describe(e), e);
      }
    }
    client = cb.build();
    kv = client.getKVClient();
    maxValueBytes = b.maxValueBytes;
    requestTimeout = b.requestTimeout;
    try {
      long current = readCurrentRevision().get(requestTimeout.toMillis(), TimeUnit.MILLISECONDS);
      compacted.set(findCompactedRevision(current));
      String version = client.getMaintenanceClient().statusMember(b.endpoints.get(0).toString())
          .get(requestTimeout.toMillis(), TimeUnit.MILLISECONDS).getVersion();
      LOG.info("etcd {} storage on {} at revision {} (compacted to {})", version, b.endpoints, current,
          compacted.get());
      verifyProgress = !reliableProgressNotify(version);
      if (verifyProgress) {
        LOG.warn("etcd {} may answer a watch's progress request ahead of events not yet sent on it (etcd"
            + " issues 15220 and 17507, fixed in 3.4.31 and 3.5.13); each answer is checked against the"
            + " store's history before it is believed, which costs a range read of the watched keys."
            + " Prefer etcd 3.4.31, 3.5.13 or later", version);
      }
    } catch (Exception e) {
      client.close();
      throw StorageException.unavailable("cannot reach etcd at " + b.endpoints + ": " + EtcdErrors.describe(e), e);
    }
    compactor = b.compactionInterval.isZero() ? null : new EtcdCompactor(this, b.compactionInterval);
  }

  /** Starts configuring a store over the etcd members at {@code endpoints} (http://host:port). */
  public static Builder builder(List<URI> endpoints) {
    return new Builder(endpoints);
  }

  // ---- reads ---------------------------------------------------------------------------

  @Override
  public CompletableFuture<Optional<KeyValue>> get(String key, long atRevision) {
    return call(() -> {
      Keys.checkKey(key);
      checkReadable(atRevision);
      GetOption option = GetOption.builder().withRevision(atRevision).build();
      return kv.get(bytes(key), option).thenApply(r -> {
        seen(r.getHeader().getRevision());
        return r.getKvs().isEmpty() ? Optional.<KeyValue>empty() : Optional.of(toKeyValue(r.getKvs().get(0)));
      });
    }, atRevision);
  }

  @Override
  public CompletableFuture<RangeResult> range(RangeRequest request) {
    return call(() -> {
      byte[] prefix = Keys.utf8(request.prefix());
      byte[] start = Keys.utf8(request.startKey());
      checkReadable(request.revision());
      byte[] from = Arrays.compareUnsigned(start, prefix) > 0 ? start : prefix;
      ByteSequence end = prefix.length == 0 ? ALL_KEYS_END : ByteSequence.from(prefixEnd(prefix));
      if (from.length == 0) {
        from = new byte[] {0};
      }
      GetOption option = GetOption.builder().withRange(end).withLimit(request.limit())
          .withRevision(request.revision()).build();
      return kv.get(ByteSequence.from(from), option).thenApply(r -> {
        long header = r.getHeader().getRevision();
        seen(header);
        List<KeyValue> kvs = new ArrayList<>(r.getKvs().size());
        r.getKvs().forEach(k -> kvs.add(toKeyValue(k)));
        return new RangeResult(kvs, r.isMore(), request.revision() == 0 ? header : request.revision());
      });
    }, request.revision());
  }

  /**
   * The cluster's current revision, read from etcd (a linearizable read): at least the revision
   * of every write any replica had acknowledged when the call was made.
   */
  @Override
  public CompletableFuture<Long> readCurrentRevision() {
    return call(() -> kv.get(bytes("\0"), GetOption.builder().withCountOnly(true).build())
        .thenApply(r -> seen(r.getHeader().getRevision())), 0);
  }

  // ---- writes ------------------------------------------------------------------------

  @Override
  public CompletableFuture<KeyValue> create(String key, byte[] value) {
    return call(() -> {
      Keys.checkKey(key);
      Keys.checkValue(key, value, maxValueBytes);
      ByteSequence k = bytes(key);
      return kv.txn().If(new Cmp(k, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
          .Then(Op.put(k, ByteSequence.from(value), PutOption.DEFAULT), Op.get(k, GetOption.DEFAULT))
          .Else(Op.get(k, GetOption.DEFAULT))
          .commit().thenApply(r -> {
            KeyValue current = firstGet(r);
            if (!r.isSucceeded()) {
              throw StorageException.keyExists(key, current);
            }
            return current;
          });
    }, 0);
  }

  @Override
  public CompletableFuture<KeyValue> update(String key, byte[] value, long expectedModRevision) {
    return call(() -> {
      Keys.checkKey(key);
      Keys.checkValue(key, value, maxValueBytes);
      ByteSequence k = bytes(key);
      return kv.txn().If(exists(k), new Cmp(k, Cmp.Op.EQUAL, CmpTarget.modRevision(expectedModRevision)))
          .Then(Op.put(k, ByteSequence.from(value), PutOption.DEFAULT), Op.get(k, GetOption.DEFAULT))
          .Else(Op.get(k, GetOption.DEFAULT))
          .commit().thenApply(r -> {
            KeyValue current = firstGet(r);
            if (!r.isSucceeded()) {
              throw refused(key, expectedModRevision, current);
            }
            return current;
          });
    }, 0);
  }

  @Override
  public CompletableFuture<KeyValue> delete(String key, long expectedModRevision) {
    return call(() -> {
      Keys.checkKey(key);
      ByteSequence k = bytes(key);
      return kv.txn().If(exists(k), new Cmp(k, Cmp.Op.EQUAL, CmpTarget.modRevision(expectedModRevision)))
          .Then(Op.delete(k, DeleteOption.builder().withPrevKV(true).build()))
          .Else(Op.get(k, GetOption.DEFAULT))
          .commit().thenApply(r -> {
            seen(r.getHeader().getRevision());
            if (!r.isSucceeded()) {
              throw refused(key, expectedModRevision, firstGet(r));
            }
            var prev = r.getDeleteResponses().get(0).getPrevKvs();
            if (prev.isEmpty()) {
              // the compare held, so the key existed; etcd returns it unless the answer was lost
              throw StorageException.unavailable("etcd deleted " + key + " without returning it", null);
            }
            return toKeyValue(prev.get(0));
          });
    }, 0);
  }

  /** The key exists (an absent key's create revision is 0, whatever revision a caller expects). */
  private static Cmp exists(ByteSequence k) {
    return new Cmp(k, Cmp.Op.GREATER, CmpTarget.createRevision(0));
  }

  private static StorageException refused(String key, long expectedModRevision, KeyValue current) {
    return current == null ? StorageException.keyNotFound(key)
        : StorageException.conflict(key, expectedModRevision, current);
  }

  /** The key read by a transaction's get (the Then branch's, or the Else branch's). */
  private KeyValue firstGet(TxnResponse r) {
    seen(r.getHeader().getRevision());
    List<GetResponse> gets = r.getGetResponses();
    if (gets.isEmpty() || gets.get(0).getKvs().isEmpty()) {
      return null;
    }
    return toKeyValue(gets.get(0).getKvs().get(0));
  }

  // ---- watch -------------------------------------------------------------------------

  @Override
  public Watch watch(String prefix, long fromRevision, WatchListener listener) {
    Objects.requireNonNull(listener, "listener");
    byte[] p = Keys.utf8(prefix);
    if (closed.get()) {
      throw StorageException.unavailable("the etcd storage is closed", null);
    }
    EtcdWatch watch = new EtcdWatch(this, client.getWatchClient(), p, fromRevision, listener);
    watches.add(watch);
    watch.start();
    return watch;
  }

  void watchEnded(EtcdWatch watch) {
    watches.remove(watch);
  }

  // ---- revisions and compaction --------------------------------------------------------

  @Override
  public long currentRevision() {
    return revision.get();
  }

  @Override
  public long compactedRevision() {
    return compacted.get();
  }

  @Override
  public CompletableFuture<Void> compact(long toRevision) {
    return call(() -> {
      if (toRevision <= compacted.get()) {
        return CompletableFuture.completedFuture(null);
      }
      return kv.compact(toRevision).handle((r, e) -> {
        if (e == null) {
          seen(r.getHeader().getRevision());
          compactedAtLeast(toRevision);
          return null;
        }
        StorageException se = EtcdErrors.translate(e, toRevision, this);
        if (se.code() == StorageException.Code.COMPACTED) {
          return null; // another replica compacted as far already
        }
        throw se;
      });
    }, 0);
  }

  /**
   * Whether etcd {@code version} answers a watch's progress request only once every earlier
   * event has been sent on that watch: 3.4.31 and later 3.4s, 3.5.13 and later, 3.6 on. Before,
   * the answer could overtake events still in the watch's send queue (etcd issue 15220, fixed in
   * 3.4.24 and 3.5.8) or, on a watch still replaying history, report the current revision
   * (issue 17507). kube-apiserver draws the same line for its consistent reads from the cache.
   */
  static boolean reliableProgressNotify(String version) {
    String[] parts = version.split("[.-]");
    try {
      int major = Integer.parseInt(parts[0]);
      int minor = Integer.parseInt(parts[1]);
      int patch = Integer.parseInt(parts[2]);
      if (major != 3) {
        return major > 3;
      }
      return minor > 5 || (minor == 5 && patch >= 13) || (minor == 4 && patch >= 31);
    } catch (RuntimeException e) {
      return true; // a version we cannot read is a newer one, not one to warn about
    }
  }

  /** Records a revision etcd reported; returns it. */
  long seen(long rev) {
    revision.accumulateAndGet(rev, Math::max);
    return rev;
  }

  void compactedAtLeast(long rev) {
    compacted.accumulateAndGet(rev, Math::max);
  }

  /**
   * The cluster's compacted revision, which etcd's API does not report: a read at a revision
   * succeeds from the compacted revision on and fails below it, so a binary search over
   * {@code [1, current]} finds it in about log2(current) reads. 0 when nothing was compacted.
   */
  private long findCompactedRevision(long current) throws Exception {
    long readable = current; // invariant: a read at readable succeeds
    long low = 1;
    if (readableAt(low)) {
      return 0;
    }
    while (readable - low > 1) { // invariant: a read at low fails
      long mid = low + (readable - low) / 2;
      if (readableAt(mid)) {
        readable = mid;
      } else {
        low = mid;
      }
    }
    return readable;
  }

  private boolean readableAt(long rev) throws Exception {
    try {
      kv.get(bytes("\0"), GetOption.builder().withCountOnly(true).withRevision(rev).build())
          .get(requestTimeout.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (java.util.concurrent.ExecutionException e) {
      if (String.valueOf(e.getCause().getMessage()).contains("required revision has been compacted")) {
        return false;
      }
      throw e;
    }
  }

  private void checkReadable(long atRevision) {
    if (atRevision > 0 && atRevision < compacted.get()) {
      throw StorageException.compacted(atRevision, compacted.get());
    }
  }

  // ---- lifecycle -----------------------------------------------------------------------

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    if (compactor != null) {
      compactor.close();
    }
    StorageException error = StorageException.unavailable("the etcd storage is closed", null);
    for (EtcdWatch w : List.copyOf(watches)) {
      w.fail(error);
    }
    client.close();
  }

  boolean verifyProgress() {
    return verifyProgress;
  }

  /**
   * Whether nothing in [{@code key}, {@code rangeEnd}) changed after revision {@code after} up
   * to revision {@code at}: no key there was modified after {@code after} as of {@code at}, and
   * as many keys were there at {@code after} as at {@code at} (a deleted key leaves nothing to
   * be modified). Completes with false when etcd cannot tell (history compacted, an error).
   * Reads every key of the range at {@code at} (keys only): etcd counts before it filters by
   * modification revision.
   */
  CompletableFuture<Boolean> unchangedBetween(ByteSequence key, ByteSequence rangeEnd, long after, long at) {
    GetOption modified = GetOption.builder().withRange(rangeEnd).withRevision(at).withKeysOnly(true)
        .withMinModRevision(after + 1).build();
    CompletableFuture<Long> countBefore = after < 1 ? CompletableFuture.completedFuture(0L)
        : kv.get(key, GetOption.builder().withRange(rangeEnd).withRevision(after).withCountOnly(true).build())
            .thenApply(r -> r.getCount());
    CompletableFuture<Long> countAt =
        kv.get(key, GetOption.builder().withRange(rangeEnd).withRevision(at).withCountOnly(true).build())
            .thenApply(r -> r.getCount());
    return kv.get(key, modified)
        .thenCombine(countBefore, (m, before) -> m.getKvs().isEmpty() ? before : -1L)
        .thenCombine(countAt, (before, now) -> before >= 0 && before.equals(now))
        .exceptionally(e -> false);
  }

  boolean isClosed() {
    return closed.get();
  }

  Duration requestTimeout() {
    return requestTimeout;
  }

  /**
   * Runs one request: argument errors and a closed store fail the future (never thrown), and
   * etcd's errors become {@link StorageException}s.
   */
  private <T> CompletableFuture<T> call(java.util.function.Supplier<CompletableFuture<T>> request, long revision) {
    if (closed.get()) {
      return CompletableFuture.failedFuture(StorageException.unavailable("the etcd storage is closed", null));
    }
    CompletableFuture<T> future;
    try {
      future = request.get();
    } catch (StorageException e) {
      return CompletableFuture.failedFuture(e);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(EtcdErrors.translate(e, revision, this));
    }
    return future.orTimeout(requestTimeout.toMillis(), TimeUnit.MILLISECONDS)
        .exceptionallyCompose(e -> CompletableFuture.failedFuture(EtcdErrors.translate(e, revision, this)));
  }

  static ByteSequence bytes(String s) {
    return ByteSequence.from(s.getBytes(StandardCharsets.UTF_8));
  }

  static KeyValue toKeyValue(io.etcd.jetcd.KeyValue k) {
    return new KeyValue(k.getKey().toString(StandardCharsets.UTF_8), k.getValue().getBytes(),
        k.getCreateRevision(), k.getModRevision(), k.getVersion());
  }

  /** The first byte string after every key that starts with {@code prefix} (etcd's prefix end). */
  static byte[] prefixEnd(byte[] prefix) {
    byte[] end = Arrays.copyOf(prefix, prefix.length);
    for (int i = end.length - 1; i >= 0; i--) {
      if ((end[i] & 0xff) < 0xff) {
        end[i]++;
        return Arrays.copyOf(end, i + 1);
      }
    }
    return new byte[] {0}; // only 0xff bytes: every key after the prefix
  }

  /** Configures an {@link EtcdStorage}. Not thread-safe. */
  public static final class Builder {
    private final List<URI> endpoints;
    private String namespace = "";
    private int maxValueBytes = DEFAULT_MAX_VALUE_BYTES;
    private Duration compactionInterval = DEFAULT_COMPACTION_INTERVAL;
    private Duration requestTimeout = Duration.ofSeconds(30);
    private java.nio.file.Path trustedCa;
    private java.nio.file.Path clientCertificate;
    private java.nio.file.Path clientKey;

    private Builder(List<URI> endpoints) {
      if (endpoints.isEmpty()) {
        throw new IllegalArgumentException("at least one etcd endpoint is needed");
      }
      this.endpoints = List.copyOf(endpoints);
    }

    /**
     * A prefix put before every key in etcd (jetcd's namespace), so that several independent
     * stores can share one cluster; empty (the default) stores keys as they are, as kube does
     * under {@code /registry}.
     */
    public Builder namespace(String prefix) {
      this.namespace = Objects.requireNonNull(prefix);
      return this;
    }

    /** The largest value accepted; raise it only with etcd's {@code --max-request-bytes}. */
    public Builder maxValueBytes(int bytes) {
      if (bytes <= 0) {
        throw new IllegalArgumentException("maxValueBytes must be positive");
      }
      this.maxValueBytes = bytes;
      return this;
    }

    /** How often to compact the cluster's history, to the revision seen one interval ago; 0: never. */
    public Builder compactionInterval(Duration interval) {
      if (interval.isNegative()) {
        throw new IllegalArgumentException("compactionInterval must not be negative");
      }
      this.compactionInterval = interval;
      return this;
    }

    /**
     * Talks TLS to etcd (https:// endpoints): {@code trustedCa} verifies etcd's serving
     * certificate; {@code clientCertificate} and {@code clientKey} (PEM; both or neither) are
     * this client's credentials for an etcd started with {@code --client-cert-auth}. kube's
     * {@code --etcd-cafile}, {@code --etcd-certfile} and {@code --etcd-keyfile}.
     */
    public Builder tls(java.nio.file.Path trustedCa, java.nio.file.Path clientCertificate,
        java.nio.file.Path clientKey) {
      if ((clientCertificate == null) != (clientKey == null)) {
        throw new IllegalArgumentException("an etcd client certificate needs its key, and a key its certificate");
      }
      this.trustedCa = Objects.requireNonNull(trustedCa, "trustedCa");
      this.clientCertificate = clientCertificate;
      this.clientKey = clientKey;
      return this;
    }

    /** How long one request may take, connecting included, before it fails with UNAVAILABLE. */
    public Builder requestTimeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("requestTimeout must be positive");
      }
      this.requestTimeout = timeout;
      return this;
    }

    /**
     * Connects, reads the cluster's current and compacted revisions, and returns the store.
     *
     * @throws StorageException {@code UNAVAILABLE} when no endpoint answers within the timeout
     */
    public EtcdStorage open() {
      return new EtcdStorage(this);
    }
  }
}
