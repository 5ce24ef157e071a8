package io.listwatch.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ThreadDumpTest {

  @Test
  void now_namesAParkedVirtualThread_withItsStack() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    Thread t = Thread.ofVirtual().name("dump-me").start(() -> {
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    try {
      Await.until("the virtual thread waits on its latch", Duration.ofSeconds(10),
          () -> t.getState() == Thread.State.WAITING);
      String dump = ThreadDump.now();
      // a virtual thread, which Thread.getAllStackTraces() leaves out, with the frame it waits in
      assertThat(dump).contains("\"dump-me\" virtual").contains("CountDownLatch.await");
      assertThat(dump).contains(Thread.currentThread().getName());
    } finally {
      release.countDown();
      t.join();
    }
  }
}
