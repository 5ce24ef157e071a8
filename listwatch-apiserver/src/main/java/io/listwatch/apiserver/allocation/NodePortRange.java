package io.listwatch.apiserver.allocation;

/**
 * A node port range ({@code --service-node-port-range}, kube's default {@code 30000-32767}) as
 * kube's port allocator numbers it: item i is port {@code base + i}. The dynamic band starts at
 * kube's {@code min(max(16, size/32), 128)} (0 for ranges of 16 ports or fewer). Immutable.
 */
public final class NodePortRange {

  /** kube-apiserver's default {@code --service-node-port-range}. */
  public static final String DEFAULT = "30000-32767";

  private final int base;
  private final int size;

  private NodePortRange(int base, int size) {
    this.base = base;
    this.size = size;
  }

  /**
   * Parses {@code first-last} (or a single port).
   *
   * @throws IllegalArgumentException when it is not a range of ports
   */
  public static NodePortRange parse(String range) {
    String[] parts = range.trim().split("-", -1);
    try {
      int first = Integer.parseInt(parts[0].trim());
      int last = parts.length == 1 ? first : Integer.parseInt(parts[1].trim());
      if (parts.length > 2 || first < 1 || last > 65535 || last < first) {
        throw new IllegalArgumentException("not a port range: " + range);
      }
      return new NodePortRange(first, last - first + 1);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a port range: " + range, e);
    }
  }

  /** The item of {@code port}, or -1 when it is outside the range. */
  int offset(long port) {
    return port < base || port >= (long) base + size ? -1 : (int) (port - base);
  }

  int port(int offset) {
    return base + offset;
  }

  int size() {
    return size;
  }

  int dynamicOffset() {
    return size <= 16 ? 0 : Math.min(Math.max(16, size / 32), 128);
  }

  /** The range as kube prints it ({@code 30000-32767}). */
  @Override
  public String toString() {
    return base + "-" + (base + size - 1);
  }
}
