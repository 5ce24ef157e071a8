package io.listwatch.bench.informer;

import java.util.HashMap;
import java.util.Map;

/**
 * What one child JVM measured for one client at one pod count, plus what the parent saw of
 * the run (the server's CPU, other processes' CPU).
 *
 * @param client the client's name ({@link InformerClients#NAMES})
 * @param pods pods on the server
 * @param syncNanos from the informer's start call to "has synced and holds every pod"
 * @param hasSyncedNanos from the start call to the client's hasSynced flag turning true
 * @param heapBytes heap used after full GCs with the informer running, minus the same just
 *     before it was started (the client already built)
 * @param cpuSyncNanos the child's process CPU (every thread, GC and JIT included) over
 *     {@code syncNanos}
 * @param cpuTotalNanos the child's process CPU from JVM start to the end of the measurement
 * @param gcCount collections during the sync
 * @param gcMillis collection time during the sync, as the collectors' MXBeans count it
 * @param serverCpuPercent the server JVM's CPU over the child's lifetime, in percent of one core
 * @param othersCpuPercent every other process's CPU (not this benchmark, the server or the
 *     child) over the same span, in percent of one core
 * @param eventsReceived update notifications the informer's handler counted after the sync
 * @param eventsExpected pod updates written through the server after the sync
 * @param eventsNanos from the child's ready line to the last update counted (or to the end of
 *     its wait, if short)
 * @param holds what the cache holds per pod ({@link PodInformerUnderTest#holds})
 * @param describe how the client was configured
 */
record SyncResult(String client, int pods, long syncNanos, long hasSyncedNanos, long heapBytes,
    long cpuSyncNanos, long cpuTotalNanos, long gcCount, long gcMillis, long eventsReceived, long eventsExpected,
    long eventsNanos, double serverCpuPercent, double othersCpuPercent, String holds, String describe) {

  /**
   * Parses the child's result line (starting with {@link InformerSyncRun#RESULT_PREFIX});
   * the run conditions are 0 until {@link #withConditions}.
   */
  static SyncResult parse(String client, int pods, String line) {
    Map<String, String> kv = new HashMap<>();
    for (String pair : line.substring(InformerSyncRun.RESULT_PREFIX.length()).trim().split(" ")) {
      int eq = pair.indexOf('=');
      kv.put(pair.substring(0, eq), pair.substring(eq + 1));
    }
    return new SyncResult(client, pods,
        Long.parseLong(kv.get("syncNanos")),
        Long.parseLong(kv.get("hasSyncedNanos")),
        Long.parseLong(kv.get("heapAfterBytes")) - Long.parseLong(kv.get("baselineBytes")),
        Long.parseLong(kv.get("cpuSyncNanos")),
        Long.parseLong(kv.get("cpuTotalNanos")),
        Long.parseLong(kv.get("gcCount")),
        Long.parseLong(kv.get("gcMillis")),
        Long.parseLong(kv.get("eventsReceived")),
        Long.parseLong(kv.get("eventsExpected")),
        Long.parseLong(kv.get("eventsNanos")),
        0, 0,
        kv.getOrDefault("holds", "").replace('\u00a0', ' '),
        kv.getOrDefault("describe", "").replace('\u00a0', ' '));
  }

  /** This result with the CPU the parent saw of the server and of other processes. */
  SyncResult withConditions(double serverCpuPercent, double othersCpuPercent) {
    return new SyncResult(client, pods, syncNanos, hasSyncedNanos, heapBytes, cpuSyncNanos, cpuTotalNanos, gcCount,
        gcMillis, eventsReceived, eventsExpected, eventsNanos, serverCpuPercent, othersCpuPercent, holds, describe);
  }

  /** Whether the informer counted every update written after its sync. */
  boolean allEventsReceived() {
    return eventsReceived >= eventsExpected;
  }
}
