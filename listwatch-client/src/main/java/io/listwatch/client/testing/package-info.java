/**
 * A fake {@link io.listwatch.client.KubeClient} for users' tests: client-go's fake clientset
 * and {@code ObjectTracker}, with the server's resourceVersion semantics, so informers and
 * controllers run against it unchanged.
 *
 * <p>Map: {@link io.listwatch.client.testing.FakeClient} is the client (records every call
 * as an {@link io.listwatch.client.testing.Action}, runs
 * {@link io.listwatch.client.testing.Reactor}s that may inject errors or answers, returning a
 * {@link io.listwatch.client.testing.Reaction}); {@link io.listwatch.client.testing.ObjectTracker}
 * is the in-memory store behind it (objects as JSON trees, one resourceVersion counter,
 * bounded change history, watches; {@code compact()}, {@code closeAllWatches()},
 * {@code sendBookmarks()} simulate what a server does to clients). Package-private:
 * {@code FakeResourceClient} (the verbs), {@code TrackerWatch} / {@code FakeWatchStream} (one
 * watch, bounded buffer), {@code EventHistory} and {@code StoredEvent} (the change ring),
 * {@code FakeObjectMeta} (the server-owned metadata, by the server's own rules in
 * {@link io.listwatch.api.meta.ObjectMetaRules}), {@code MergePatch} (RFC 7386),
 * {@code Filter} (namespace and selectors), {@code Trees} (codec and tree helpers),
 * {@code TrackerReads} (kube's resourceVersion rules for lists and watches) and
 * {@code TrackerArgs} (argument checks). {@link io.listwatch.client.testing.ObjectTrackerBuilder}
 * configures a tracker.
 */
package io.listwatch.client.testing;
