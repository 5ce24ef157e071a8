/**
 * End-to-end tests of the informer machinery against the in-process API server: sync at
 * scale, per-object order, server restart, compaction, dropped and silently dead
 * connections, slow handlers, typed and dynamic objects, and the {@code informer} command.
 */
package io.listwatch.client.e2e;
