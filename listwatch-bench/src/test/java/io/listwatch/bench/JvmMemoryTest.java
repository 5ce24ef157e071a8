package io.listwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JvmMemoryTest {

  @Test
  void nativeMemory_isTheCommittedTotal_andEachCategoryCommitted_largestFirst() throws IOException {
    JvmMemory.NativeMemory nmt = JvmMemory.parseNativeMemory("""
        24901:

        Native Memory Tracking:

        (Omitting categories weighting less than 1KB)

        Total: reserved=7735125KB, committed=476981KB
               malloc: 11233KB #46322, peak=18418KB #45247
               mmap:   reserved=7723892KB, committed=465748KB

        -                 Java Heap (reserved=6172672KB, committed=393216KB)
                                    (mmap: reserved=6172672KB, committed=393216KB, at peak)

        -                     Class (reserved=1048772KB, committed=1412KB)
                                    (classes #2815)
                                    (    reserved=65536KB, committed=8256KB)

        -                    Thread (reserved=19518KB, committed=970KB)
                                    (stack: reserved=19456KB, committed=908KB, peak=908KB)

        -                        GC (reserved=158273KB, committed=45393KB)
                                    (malloc=4741KB tag=GC #1380) (peak=4767KB #1511)
        """.lines().toList());
    assertThat(nmt.committedBytes()).isEqualTo(476_981L * 1024);
    assertThat(nmt.committedByCategory()).containsExactly(Map.entry("Java Heap", 393_216L * 1024),
        Map.entry("GC", 45_393L * 1024), Map.entry("Class", 1_412L * 1024), Map.entry("Thread", 970L * 1024));
    assertThat(nmt.largest(2)).isEqualTo("Java Heap 384.0, GC 44.3");
  }

  @Test
  void nativeMemory_withoutTracking_fails() {
    assertThatThrownBy(() -> JvmMemory.parseNativeMemory(List.of("24901:", "Native memory tracking is not enabled")))
        .isInstanceOf(IOException.class).hasMessageContaining(JvmMemory.NMT);
  }

  @Test
  void histogram_isInstancesAndBytesByClass_summedOverLoaders() {
    Map<String, JvmMemory.ClassCount> h = JvmMemory.parseHistogram("""
        24901:
         num     #instances         #bytes  class name (module)
        -------------------------------------------------------
           1:         15391         757992  [B (java.base@25.0.3)
           2:          3302         425688  java.lang.Class (java.base@25.0.3)
           3:            10            160  com.example.Twice
         824:             1             16  com.example.Twice
        Total         66876        2983496
        """.lines().toList());
    assertThat(h).containsExactly(Map.entry("[B", new JvmMemory.ClassCount(15_391, 757_992)),
        Map.entry("java.lang.Class", new JvmMemory.ClassCount(3_302, 425_688)),
        Map.entry("com.example.Twice", new JvmMemory.ClassCount(11, 176)));
  }
}
