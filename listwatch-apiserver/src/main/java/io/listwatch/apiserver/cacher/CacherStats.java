package io.listwatch.apiserver.cacher;

/**
 * What a {@link Cacher} reports about itself (read by the metrics at scrape time). Immutable.
 *
 * @param watchers watchers registered now
 * @param objects objects in the watch cache
 * @param historyEvents events kept for resuming watches
 * @param historyCapacity the most events the history keeps
 * @param oldestResumable the oldest resourceVersion a watch can resume from
 * @param resourceVersion the newest resourceVersion the cache has seen
 * @param eventsReceived events received from storage since start
 * @param eventsDispatched events queued to watchers since start (one per watcher per event)
 * @param terminatedWatchers watchers closed since start because they could not keep up
 * @param unreadableObjects stored objects skipped since start because they could not be read
 *     (or, for a custom resource, converted)
 */
public record CacherStats(int watchers, int objects, int historyEvents, int historyCapacity,
    long oldestResumable, long resourceVersion, long eventsReceived, long eventsDispatched,
    long terminatedWatchers, long unreadableObjects) {
}
