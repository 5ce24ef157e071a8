package io.listwatch.bench;

import com.sun.management.ThreadMXBean;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.lang.management.ManagementFactory;
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
 * noise beside a window of thousands of writes.
 *
 * <p>{@link #close()} closes the connection, idempotent. Thread-safe (the MXBean proxy is).
 */
public final class AllocationMonitor implements AutoCloseable {

  /** Null when the JVM could not be attached to ({@link #orUnknown}). */
  private final JMXConnector connector;
  private final ThreadMXBean threads;

  private AllocationMonitor(JMXConnector connector, ThreadMXBean threads) {
    this.connector = connector;
    this.threads = threads;
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
      ThreadMXBean threads = ManagementFactory.newPlatformMXBeanProxy(connector.getMBeanServerConnection(),
          ManagementFactory.THREAD_MXBEAN_NAME, ThreadMXBean.class);
      return new AllocationMonitor(connector, threads);
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
      return new AllocationMonitor(null, null);
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

  @Override
  public void close() throws IOException {
    if (connector != null) {
      connector.close();
    }
  }
}
