/**
 * Injectable time. Every component of the client that waits or schedules (reflector
 * backoff, resync, delaying queues, rate limiters) takes a {@link io.listwatch.client.clock.Clock},
 * so tests drive time with {@link io.listwatch.client.clock.FakeClock} instead of sleeping.
 */
package io.listwatch.client.clock;
