package io.listwatch.bench.chaos;

import io.listwatch.storage.etcd.testing.EtcdServer;
import java.io.IOException;

/**
 * One member of the run's etcd cluster as a {@link Node}: killed and started again on its own
 * data directory and ports.
 *
 * <p>Thread-safe (guards the member, which is not).
 */
final class EtcdNode implements Node {

  private final String name;
  private final EtcdServer member;
  private boolean running = true;

  EtcdNode(String name, EtcdServer member) {
    this.name = name;
    this.member = member;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public synchronized long pid() {
    return running ? member.pid() : -1;
  }

  @Override
  public synchronized void kill() throws InterruptedException {
    member.kill();
    running = false;
  }

  @Override
  public synchronized void start() throws IOException, InterruptedException {
    if (!running) {
      member.restart();
      running = true;
    }
  }

  @Override
  public synchronized void close() throws InterruptedException {
    try {
      signal("CONT");
    } catch (IOException e) {
      // it is gone
    }
    member.close();
    running = false;
  }

  @Override
  public String toString() {
    return name;
  }
}
