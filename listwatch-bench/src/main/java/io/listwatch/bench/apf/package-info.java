/**
 * {@code bench apf}: what API Priority and Fairness is for, measured. A light user's GET latency
 * (open loop) while another user floods lists and watches, against its latency on a quiet
 * server, with APF on and then off ({@link io.listwatch.bench.apf.ApfBenchmark}); the load's
 * parts: {@code OpenLoopGets} (the light user, sending through a {@code LightClient}) and
 * {@code Flood} (the heavy one).
 */
package io.listwatch.bench.apf;
