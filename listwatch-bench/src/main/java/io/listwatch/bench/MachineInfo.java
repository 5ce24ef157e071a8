package io.listwatch.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The machine a benchmark ran on, printed with every result: processors, memory, CPU model,
 * Java runtime, operating system, the file system holding the data directory and what a disk
 * sync costs there (a durable write costs at least one).
 */
public record MachineInfo(int processors, long totalMemoryBytes, String cpuModel, String java,
    String os, long maxHeapBytes, String fileSystem, String diskSync) {

  private static final int SYNC_PROBES = 1000;

  /**
   * Describes this machine; {@code dataDir} is the directory whose file system is named and
   * where the disk sync is timed (a scratch file, deleted again; it takes well under a second).
   */
  public static MachineInfo describe(Path dataDir) {
    return new MachineInfo(
        Runtime.getRuntime().availableProcessors(),
        readTotalMemory(),
        readCpuModel().orElse("unknown"),
        System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
            + " (" + System.getProperty("java.vendor") + ")",
        System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
            + System.getProperty("os.arch"),
        Runtime.getRuntime().maxMemory(),
        describeFileSystem(dataDir),
        probeSync(dataDir));
  }

  /** The description as labelled lines, in print order. */
  public Map<String, String> asMap() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("processors", Integer.toString(processors));
    m.put("cpu", cpuModel);
    m.put("memory", gib(totalMemoryBytes) + " total, max heap " + gib(maxHeapBytes));
    m.put("java", java);
    m.put("os", os);
    m.put("data dir file system", fileSystem);
    m.put("disk sync", diskSync);
    return m;
  }

  /** One line, for the Markdown form. */
  public String oneLine() {
    return processors + " processors (" + cpuModel + "), " + gib(totalMemoryBytes)
        + " RAM, " + os + ", " + java + ", data on " + fileSystem + ", disk sync " + diskSync;
  }

  private static long readTotalMemory() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getTotalMemorySize();
    }
    return -1;
  }

  private static Optional<String> readCpuModel() {
    try {
      return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
          .filter(line -> line.startsWith("model name"))
          .map(line -> line.substring(line.indexOf(':') + 1).trim())
          .findFirst();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static String describeFileSystem(Path dir) {
    try {
      FileStore store = Files.getFileStore(dir);
      return store.type() + " (" + store.name() + ")";
    } catch (IOException e) {
      return "unknown";
    }
  }

  /**
   * What one durable write costs on this disk: the latency of {@code fdatasync} after a 4 KB
   * append, measured {@value #SYNC_PROBES} times in {@code dir}. A group commit cannot be
   * faster than one of these.
   */
  private static String probeSync(Path dir) {
    Path file = dir.resolve("sync-probe.tmp");
    LatencyRecorder latencies = new LatencyRecorder();
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE, StandardOpenOption.DELETE_ON_CLOSE)) {
      ByteBuffer block = ByteBuffer.allocate(4096);
      for (int i = 0; i < SYNC_PROBES; i++) {
        block.clear();
        channel.write(block);
        long start = System.nanoTime();
        channel.force(false);
        latencies.record(System.nanoTime() - start);
      }
    } catch (IOException e) {
      return "unknown (" + e + ")";
    }
    return String.format("p50 %.3f ms, p99 %.3f ms (fdatasync after a 4 KB append, %d times)",
        latencies.percentile(0.5) / 1e6, latencies.percentile(0.99) / 1e6, SYNC_PROBES);
  }

  private static String gib(long bytes) {
    return bytes < 0 ? "unknown" : String.format("%.1f GiB", bytes / (1024.0 * 1024 * 1024));
  }
}
