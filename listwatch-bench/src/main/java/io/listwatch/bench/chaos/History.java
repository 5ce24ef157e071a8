package io.listwatch.bench.chaos;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The record of one chaos run: every client operation, every watch segment, every fault, and
 * the lists taken from each server after every fault was healed (the final state). Times are
 * nanoseconds since the history was made, on this JVM's monotonic clock, which every client,
 * watcher and the nemesis share. {@link #write} saves it as JSON lines.
 *
 * <p>Thread-safe: clients, watchers and the nemesis add to it concurrently.
 */
final class History {

  private final long origin;
  private final ConcurrentLinkedQueue<Operation> operations = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<WatchSegment> segments = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<Fault> faults = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<Operation> finalLists = new ConcurrentLinkedQueue<>();

  History() {
    this(System.nanoTime());
  }

  private History(long origin) {
    this.origin = origin;
  }

  /** A history of given parts, for the checker's tests. */
  static History of(List<Operation> operations, List<WatchSegment> segments, List<Operation> finalLists) {
    History h = new History(0);
    h.operations.addAll(operations);
    h.segments.addAll(segments);
    h.finalLists.addAll(finalLists);
    return h;
  }

  /** Now, on the history's clock. */
  long now() {
    return System.nanoTime() - origin;
  }

  void add(Operation op) {
    operations.add(op);
  }

  void add(WatchSegment segment) {
    segments.add(segment);
  }

  void add(Fault fault) {
    faults.add(fault);
  }

  void addFinal(Operation list) {
    finalLists.add(list);
  }

  /** Every operation, by invocation time. */
  List<Operation> operations() {
    List<Operation> all = new ArrayList<>(operations);
    all.sort(Comparator.comparingLong(Operation::invoke));
    return all;
  }

  List<WatchSegment> segments() {
    return List.copyOf(segments);
  }

  List<Fault> faults() {
    return List.copyOf(faults);
  }

  List<Operation> finalLists() {
    return List.copyOf(finalLists);
  }

  /** Writes the history to {@code file}, one JSON object a line: operations, segments, faults, final lists. */
  void write(Path file) throws IOException {
    ObjectMapper json = new ObjectMapper();
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (Operation op : operations()) {
        w.write(json.writeValueAsString(Map.of("operation", op)));
        w.newLine();
      }
      for (WatchSegment s : segments()) {
        w.write(json.writeValueAsString(Map.of("watch", s)));
        w.newLine();
      }
      for (Fault f : faults()) {
        w.write(json.writeValueAsString(Map.of("fault", f)));
        w.newLine();
      }
      for (Operation op : finalLists()) {
        w.write(json.writeValueAsString(Map.of("final", op)));
        w.newLine();
      }
    }
  }
}
