package io.listwatch.bench;

import com.sun.management.ThreadMXBean;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import javax.management.MBeanServerConnection;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * The bytes another JVM on this machine (a server under test, by its pid) has allocated so far,
 * summed over all its threads, live and ended: {@code com.sun.management.ThreadMXBean}'s
 * {@code getTotalThreadAllocatedBytes()}, read over a local JMX connection that the attach API
 * opens (the JVM's local management agent: a Unix-domain attach, then RMI on the loopback
 * interface; no port to choose, no option the child needs, so a baseline build started from
 * another classpath is measured alike). Virtual threads' allocations count in their carriers'.
 * The difference of two readings divided by the writes between them is the allocation per
 * write; each reading allocates a few kilobytes in the child itself (the RMI call), which is
 * noise beside a window of thousands of writes. {@link #pauses()} reads its collectors' pauses
 * and {@link #compilationMillis()} its JIT's compiling time over the same connection.
 *
 * <p>{@link #close()} closes the connection, idempotent. Thread-safe (the MXBean proxy is).
 */
public final class AllocationMonitor implements AutoCloseable {

  /** Null when the JVM could not be attached to ({@link #orUnknown}). */
  private final JMXConnector connector;
  private final ThreadMXBean threads;
  private final List<GarbageCollectorMXBean> pausing;
  private final CompilationMXBean compiler;

  private AllocationMonitor(JMXConnector connector, ThreadMXBean threads, List<GarbageCollectorMXBean> pausing,
      CompilationMXBean compiler) {
    this.connector = connector;
    this.threads = threads;
    this.pausing = pausing;
    this.compiler = compiler;
  }

  /** Connects to the JVM of process {@code pid} (same user), starting its local management agent if needed. */
  public static AllocationMonitor attach(long pid) throws IOException {
    String address;
    try {
      VirtualMachine vm = VirtualMachine.attach(String.valueOf(pid));
      try {
        address = vm.startLocalManagementAgent();
      } finally {
        vm.detach();
      }
    } catch (AttachNotSupportedException e) {
      throw new IOException("cannot attach to the JVM of process " + pid, e);
    }
    JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(address));
    try {
      MBeanServerConnection server = connector.getMBeanServerConnection();
      ThreadMXBean threads = ManagementFactory.newPlatformMXBeanProxy(server,
          ManagementFactory.THREAD_MXBEAN_NAME, ThreadMXBean.class);
      List<GarbageCollectorMXBean> pausing = new ArrayList<>();
      for (ObjectName name : server.queryNames(
          new ObjectName(ManagementFactory.GARBAGE_COLLECTOR_MXBEAN_DOMAIN_TYPE + ",*"), null)) {
        if (!name.getKeyProperty("name").endsWith("Cycles")) { // ZGC's and Shenandoah's whole cycles, not pauses
          pausing.add(ManagementFactory.newPlatformMXBeanProxy(server, name.toString(), GarbageCollectorMXBean.class));
        }
      }
      CompilationMXBean compiler = ManagementFactory.newPlatformMXBeanProxy(server,
          ManagementFactory.COMPILATION_MXBEAN_NAME, CompilationMXBean.class);
      return new AllocationMonitor(connector, threads, List.copyOf(pausing), compiler);
    } catch (MalformedObjectNameException e) {
      connector.close();
      throw new IllegalStateException(e);
    } catch (IOException | RuntimeException e) {
      connector.close();
      throw e;
    }
  }

  /**
   * As {@link #attach}, but a JVM that cannot be attached to (attach disabled, another user)
   * gives a monitor whose every reading is unknown (-1) rather than an error.
   */
  public static AllocationMonitor orUnknown(long pid) {
    try {
      return attach(pid);
    } catch (IOException | RuntimeException e) {
      System.err.println("allocations of process " + pid + " unknown: " + e);
      return new AllocationMonitor(null, null, List.of(), null);
    }
  }

  /** Bytes allocated by the JVM's threads so far; -1 if unknown (the JVM does not measure it, or is gone). */
  public long allocatedBytes() {
    if (threads == null) {
      return -1;
    }
    try {
      return threads.getTotalThreadAllocatedBytes();
    } catch (RuntimeException e) { // the connection broke (an UndeclaredThrowableException of an IOException)
      return -1;
    }
  }

  /** How many stop-the-world collections a JVM has made so far, and their summed time. */
  public record Pauses(long count, long millis) {
  }

  /**
   * The JVM's stop-the-world collections so far, over the collectors' MXBeans that count pauses
   * (G1's young and old collections and its concurrent cycles' remark and cleanup pauses;
   * Serial's and Parallel's collections; ZGC's and Shenandoah's "Pauses" beans, not their
   * "Cycles"); null if unknown.
   */
  public Pauses pauses() {
    if (threads == null) {
      return null;
    }
    try {
      long count = 0;
      long millis = 0;
      for (GarbageCollectorMXBean gc : pausing) {
        count += gc.getCollectionCount();
        millis += gc.getCollectionTime();
      }
      return new Pauses(count, millis);
    } catch (RuntimeException e) { // the connection broke
      return null;
    }
  }

  /**
   * The time the JVM's JIT compilers have spent compiling so far, summed over their threads, in
   * milliseconds; -1 if unknown (no compiler, the JVM does not measure it, or is gone). On a JVM
   * confined to one CPU, compiling takes that CPU from everything else.
   */
  public long compilationMillis() {
    if (compiler == null) {
      return -1;
    }
    try {
      return compiler.isCompilationTimeMonitoringSupported() ? compiler.getTotalCompilationTime() : -1;
    } catch (RuntimeException e) { // the connection broke
      return -1;
    }
  }

  @Override
  public void close() throws IOException {
    if (connector != null) {
      connector.close();
    }
  }
}
