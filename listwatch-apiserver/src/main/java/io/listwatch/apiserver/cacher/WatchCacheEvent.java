package io.listwatch.apiserver.cacher;

import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * One change in the watch cache: the object after it (for a deletion, the last state with
 * the deletion's resourceVersion) and the object before it, so a watcher can tell whether
 * the change made an object start or stop matching its selectors.
 *
 * <p>The wire frame of each form (ADDED, MODIFIED, DELETED) is built on first use and then
 * shared by every watcher that receives that form: serialize once. Frames are built only
 * while holding the owning {@link Cacher}'s dispatch lock (dispatch and watch registration);
 * once built they are immutable, and they reach the event loops through the watchers' queues.
 */
public final class WatchCacheEvent {

  /** The event types of a kube watch that carry objects. */
  public enum Type {
    ADDED, MODIFIED, DELETED;

    final byte[] prefix = ("{\"type\":\"" + name() + "\",\"object\":").getBytes(StandardCharsets.US_ASCII);
  }

  private final Type type;
  private final CachedObject object;
  private final CachedObject prevObject;
  private final long resourceVersion;
  private final long recordedAtNanos;
  private final Supplier<byte[]> prevAtEventVersion;
  /**
   * Built on first dispatch, by encoding and form; most events in a history were never sent to a
   * watcher, and most watches are JSON.
   */
  private byte[][][][] frames;

  /**
   * @param type what happened in storage
   * @param object the new state; for DELETED the last state, re-stamped with the deletion's
   *     resourceVersion
   * @param prevObject the previous state, null for ADDED
   * @param recordedAtNanos when the cache saw it (for the history's age bound)
   */
  public WatchCacheEvent(Type type, CachedObject object, CachedObject prevObject, long recordedAtNanos) {
    this(type, object, prevObject, recordedAtNanos, null);
  }

  /**
   * @param prevAtEventVersion for a MODIFIED event: the previous object's JSON stamped with
   *     this event's resourceVersion, computed on first use. A watcher for which the object
   *     stops matching gets it as DELETED (kube sends the last matching state, at the new
   *     resourceVersion). Null means use the new object.
   */
  public WatchCacheEvent(Type type, CachedObject object, CachedObject prevObject, long recordedAtNanos,
      Supplier<byte[]> prevAtEventVersion) {
    this.type = type;
    this.object = object;
    this.prevObject = prevObject;
    this.resourceVersion = object.resourceVersion();
    this.recordedAtNanos = recordedAtNanos;
    this.prevAtEventVersion = prevAtEventVersion;
  }

  public Type type() {
    return type;
  }

  public CachedObject object() {
    return object;
  }

  public CachedObject prevObject() {
    return prevObject;
  }

  public long resourceVersion() {
    return resourceVersion;
  }

  long recordedAtNanos() {
    return recordedAtNanos;
  }

  /**
   * The wire frame for this event delivered as {@code form} in {@code encoding}, as its parts
   * (see {@link WatchEncoding#event}): built once per encoding and form, then shared by every
   * watcher. A JSON frame copies no bytes: the object's JSON is the cached one.
   */
  byte[][] frame(Type form, WatchEncoding encoding) {
    if (frames == null) {
      frames = new byte[WatchEncoding.values().length][][][];
    }
    byte[][][] byForm = frames[encoding.ordinal()];
    if (byForm == null) {
      byForm = new byte[Type.values().length][][];
      frames[encoding.ordinal()] = byForm;
    }
    byte[][] f = byForm[form.ordinal()];
    if (f == null) {
      boolean leaving = form == Type.DELETED && type == Type.MODIFIED && prevAtEventVersion != null;
      f = leaving ? encoding.event(form, prevAtEventVersion.get()) : encoding.event(form, object);
      byForm[form.ordinal()] = f;
    }
    return f;
  }
}
