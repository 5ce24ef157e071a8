package io.listwatch.api.meta;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.validation.NameSyntax;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class NameGeneratorTest {

  private static final String SUFFIX_PATTERN = "[bcdfghjklmnpqrstvwxz2456789]{5}";

  @Test
  void generate_appendsFiveCharactersFromKubesAlphabet() {
    String name = new NameGenerator().generate("web-");
    assertThat(name).hasSize(9).startsWith("web-");
    assertThat(name.substring(4)).matches(SUFFIX_PATTERN);
  }

  @Test
  void generate_truncatesBaseTo58_soResultIs63() {
    String base = "a".repeat(100);
    String name = new NameGenerator().generate(base);
    assertThat(name).hasSize(63).startsWith("a".repeat(58));
    assertThat(name.substring(58)).matches(SUFFIX_PATTERN);
  }

  @Test
  void generate_keepsBaseOfExactly58() {
    String base = "b".repeat(57) + "-";
    assertThat(new NameGenerator().generate(base)).hasSize(63).startsWith(base);
  }

  @Test
  void generate_emptyBase_isJustTheSuffix() {
    assertThat(new NameGenerator().generate("")).matches(SUFFIX_PATTERN);
  }

  @Test
  void generate_doesNotSplitSurrogatePair() {
    String base = "a".repeat(57) + "😀" + "tail";
    String name = new NameGenerator().generate(base);
    assertThat(name.substring(0, name.length() - 5)).isEqualTo("a".repeat(57));
  }

  @Test
  void generate_withValidPrefix_yieldsValidDns1123Label() {
    NameGenerator generator = new NameGenerator();
    for (int i = 0; i < 1000; i++) {
      assertThat(NameSyntax.isDns1123Label(generator.generate("x".repeat(70) + "-"))).isEmpty();
      assertThat(NameSyntax.isDns1123Subdomain(generator.generate("web-"))).isEmpty();
    }
  }

  @Test
  void generate_withSameSeed_isReproducible() {
    NameGenerator a = new NameGenerator(new SplittableRandom(42));
    NameGenerator b = new NameGenerator(new SplittableRandom(42));
    for (int i = 0; i < 100; i++) {
      assertThat(a.generate("p-")).isEqualTo(b.generate("p-"));
    }
  }

  @Test
  void generate_usesEveryAlphabetCharacter() {
    NameGenerator generator = new NameGenerator(new SplittableRandom(1));
    StringBuilder all = new StringBuilder();
    for (int i = 0; i < 1000; i++) {
      all.append(generator.generate(""));
    }
    for (char c : NameGenerator.ALPHABET.toCharArray()) {
      assertThat(all.toString()).contains(String.valueOf(c));
    }
  }

  @Test
  void generate_callsInjectedGeneratorOneThreadAtATime() throws Exception {
    AtomicInteger inside = new AtomicInteger();
    AtomicBoolean overlapped = new AtomicBoolean();
    SplittableRandom delegate = new SplittableRandom(3);
    RandomGenerator exclusive = new RandomGenerator() {
      @Override
      public long nextLong() {
        if (inside.incrementAndGet() > 1) {
          overlapped.set(true);
        }
        long v = delegate.nextLong(); // SplittableRandom is not thread-safe
        inside.decrementAndGet();
        return v;
      }

      @Override
      public int nextInt(int bound) {
        if (inside.incrementAndGet() > 1) {
          overlapped.set(true);
        }
        int v = delegate.nextInt(bound);
        inside.decrementAndGet();
        return v;
      }
    };
    NameGenerator generator = new NameGenerator(exclusive);
    int threads = 8;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        futures.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < 20_000; i++) {
            assertThat(generator.generate("w-")).matches("w-" + SUFFIX_PATTERN);
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(overlapped).isFalse();
  }
}
