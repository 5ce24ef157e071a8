package io.listwatch.api.meta;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/**
 * Turns a {@code metadata.generateName} into a name, as kube's
 * {@code names.SimpleNameGenerator} does: the base, cut to {@value #MAX_GENERATED_NAME_LENGTH}
 * characters, followed by {@value #RANDOM_LENGTH} characters from {@value #ALPHABET} (kube's
 * {@code utilrand} alphabet: no vowels, so no words; no {@code 0}, {@code 1} or {@code 3}, which
 * look like letters). The result is at most 63 characters, a valid DNS label if the base is a
 * valid prefix.
 *
 * <p>The generated name is not checked for collisions; the caller creates the object and, on
 * AlreadyExists, generates again or fails as kube does.
 *
 * <p>Thread-safe. The default instance draws from {@link ThreadLocalRandom} without locking; an
 * injected {@link RandomGenerator} (for reproducible tests) is only called under this object's
 * lock, so a generator that is not thread-safe may be passed.
 */
public final class NameGenerator {

  /** kube's {@code utilrand} alphabet. */
  public static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
  /** How many random characters are appended. */
  public static final int RANDOM_LENGTH = 5;
  /** The longest generated name. */
  public static final int MAX_NAME_LENGTH = 63;
  /** The longest base kept from {@code generateName}: kube's {@code MaxGeneratedNameLength}. */
  public static final int MAX_GENERATED_NAME_LENGTH = MAX_NAME_LENGTH - RANDOM_LENGTH;

  /** Null for the lock-free default. */
  @GuardedBy("this")
  private final RandomGenerator random;

  /** A generator drawing from {@link ThreadLocalRandom}. */
  public NameGenerator() {
    this.random = null;
  }

  /** A generator drawing from {@code random}, which is only used under this object's lock. */
  public NameGenerator(RandomGenerator random) {
    this.random = Objects.requireNonNull(random, "random");
  }

  /**
   * A name for {@code generateName}: its first {@value #MAX_GENERATED_NAME_LENGTH} characters
   * plus {@value #RANDOM_LENGTH} random ones. kube cuts at 58 bytes; names valid enough to be
   * generated are ASCII, where bytes and characters agree, and a surrogate pair is never split.
   *
   * @param generateName the prefix, usually ending in {@code '-'}; may be empty
   */
  public String generate(String generateName) {
    Objects.requireNonNull(generateName, "generateName");
    String base = generateName;
    if (base.length() > MAX_GENERATED_NAME_LENGTH) {
      int end = MAX_GENERATED_NAME_LENGTH;
      if (Character.isHighSurrogate(base.charAt(end - 1))) {
        end--;
      }
      base = base.substring(0, end);
    }
    char[] suffix = new char[RANDOM_LENGTH];
    // A final field, so reading it needs no lock: only drawing from the generator does.
    @SuppressWarnings("GuardedBy")
    boolean lockFree = random == null;
    if (lockFree) {
      fill(suffix, ThreadLocalRandom.current());
    } else {
      synchronized (this) {
        fill(suffix, random);
      }
    }
    return base + new String(suffix);
  }

  private static void fill(char[] suffix, RandomGenerator rng) {
    for (int i = 0; i < suffix.length; i++) {
      suffix[i] = ALPHABET.charAt(rng.nextInt(ALPHABET.length()));
    }
  }
}
