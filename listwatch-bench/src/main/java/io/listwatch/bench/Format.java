package io.listwatch.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Number formats and data-directory chores shared by the benchmarks. Stateless. */
public final class Format {

  private Format() {
  }

  /** A count or rate, rounded, with thousands separators: {@code 20,345}. */
  public static String count(double n) {
    return String.format("%,.0f", n);
  }

  /** A parameter as given: {@code 3} for a whole number (with separators), else {@code 0.3333}. */
  public static String number(double d) {
    return d == Math.rint(d) ? String.format("%,.0f", d) : Double.toString(d);
  }

  /** Nanoseconds as milliseconds with two decimals: {@code 3.14}. */
  public static String ms(long nanos) {
    return String.format("%.2f", nanos / 1e6);
  }

  /** {@code 0}, or the error count and the first error. */
  public static String errorCell(long errors, Throwable first) {
    return errors == 0 ? "0" : errors + " (first: " + first + ")";
  }

  /** Creates {@code dir} if needed and checks that it is empty; returns it. */
  public static Path requireEmptyDirectory(Path dir) throws IOException {
    Files.createDirectories(dir);
    try (Stream<Path> entries = Files.list(dir)) {
      if (entries.findAny().isPresent()) {
        throw new IllegalArgumentException(dir + " is not empty");
      }
    }
    return dir;
  }

  /** Deletes {@code dir} and everything under it; reports a failure on stderr. */
  public static void deleteRecursively(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (IOException | UncheckedIOException e) {
      System.err.println("could not delete " + dir + ": " + e);
    }
  }
}
