package io.listwatch.nodeagent;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Hands out pod IPs from the node's IPv4 pod CIDR (e.g. {@code 10.244.1.0/24}): the network
 * address and the first address (the bridge's, by convention) are never handed out, nor the
 * broadcast address. One IP per pod UID; {@link #release} frees it.
 *
 * <p>Thread-safe (synchronized).
 */
final class PodIpAllocator {

  private final int network;
  private final int size;
  /** Pod UID to IP offset in the range. */
  @GuardedBy("this")
  private final Map<String, Integer> byPod = new HashMap<>();
  /** Offsets in use. */
  @GuardedBy("this")
  private final java.util.BitSet used = new java.util.BitSet();
  /** Where the next search starts, so freed addresses are not reused at once. */
  @GuardedBy("this")
  private int next = 2;

  /**
   * @throws IllegalArgumentException for anything but an IPv4 CIDR with a prefix of 8 to 30
   */
  PodIpAllocator(String cidr) {
    String[] parts = cidr.split("/");
    if (parts.length != 2) {
      throw new IllegalArgumentException("pod CIDR must be an IPv4 a.b.c.d/n, got " + cidr);
    }
    int prefix;
    byte[] addr;
    try {
      prefix = Integer.parseInt(parts[1]);
      addr = InetAddress.getByName(parts[0]).getAddress();
    } catch (NumberFormatException | UnknownHostException e) {
      throw new IllegalArgumentException("pod CIDR must be an IPv4 a.b.c.d/n, got " + cidr, e);
    }
    if (addr.length != 4 || prefix < 8 || prefix > 30 || !parts[0].matches("[0-9.]+")) {
      throw new IllegalArgumentException("pod CIDR must be an IPv4 a.b.c.d/n with n in 8..30, got " + cidr);
    }
    int mask = -1 << (32 - prefix);
    this.network = ByteBuffer.wrap(addr).getInt() & mask;
    this.size = 1 << (32 - prefix);
  }

  /** The pod's IP: the one it has, else the next free one; empty when the range is full. */
  synchronized Optional<String> allocate(String podUid) {
    Integer have = byPod.get(podUid);
    if (have != null) {
      return Optional.of(format(have));
    }
    for (int i = 0; i < size - 3; i++) {
      int offset = 2 + (next - 2 + i) % (size - 3);
      if (!used.get(offset)) {
        used.set(offset);
        byPod.put(podUid, offset);
        next = offset + 1;
        return Optional.of(format(offset));
      }
    }
    return Optional.empty();
  }

  /**
   * Records that {@code podUid} already has {@code ip} (a pod found running when the agent
   * starts); false if the IP is outside the range or another pod's.
   */
  synchronized boolean reserve(String podUid, String ip) {
    int offset;
    try {
      byte[] a = InetAddress.getByName(ip).getAddress();
      if (a.length != 4) {
        return false;
      }
      offset = ByteBuffer.wrap(a).getInt() - network;
    } catch (UnknownHostException e) {
      return false;
    }
    if (offset < 2 || offset >= size - 1) {
      return false;
    }
    Integer have = byPod.get(podUid);
    if (have != null) {
      return have == offset;
    }
    if (used.get(offset)) {
      return false;
    }
    used.set(offset);
    byPod.put(podUid, offset);
    return true;
  }

  /** Frees the pod's IP, if it has one. */
  synchronized void release(String podUid) {
    Integer offset = byPod.remove(podUid);
    if (offset != null) {
      used.clear(offset);
    }
  }

  private String format(int offset) {
    int ip = network + offset;
    return (ip >>> 24) + "." + ((ip >>> 16) & 0xff) + "." + ((ip >>> 8) & 0xff) + "." + (ip & 0xff);
  }
}
