/**
 * Injectable time, shared by the client and the server. Every component that reads time,
 * waits or schedules (the client's reflector backoff, resync, delaying queues and rate
 * limiters; the server's watch deadlines, watch cache timing and metadata timestamps) takes a
 * {@link io.listwatch.api.clock.Clock}, so tests drive time with
 * {@link io.listwatch.api.clock.FakeClock} instead of sleeping.
 */
package io.listwatch.api.clock;
