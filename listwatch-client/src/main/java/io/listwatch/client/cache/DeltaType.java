package io.listwatch.client.cache;

/** What happened to an object, as recorded in a {@link DeltaFIFO} (client-go's names). */
public enum DeltaType {
  /** Seen for the first time by a watch event. */
  ADDED,
  /** Changed, by a watch event. */
  UPDATED,
  /** Deleted, by a watch event or because a relist no longer has it. */
  DELETED,
  /** Part of a relist (the object is in the new list). */
  REPLACED,
  /** A periodic resync of an object already known. */
  SYNC
}
