package io.listwatch.bench.report;

import io.listwatch.bench.StorageBenchmark;
import io.listwatch.bench.informer.InformerSyncBenchmark;
import io.listwatch.bench.server.FanOutBenchmark;
import io.listwatch.bench.server.ListBenchmark;
import io.listwatch.bench.server.WriteBenchmark;
import java.util.ArrayList;
import java.util.List;

/**
 * The suites {@code bench report} runs, in order, with the exact arguments of each mode: the
 * one table to edit when a suite is added or its arguments change. Quick mode is sized to finish
 * in under 10 minutes on 2 cores (each point once, shorter windows, smaller sizes); the full mode
 * takes each suite's defaults, which run every point at least three times, so that each figure
 * has a spread. Stateless.
 */
final class SuitePlan {

  /** Every suite, in the order it runs and is reported. */
  static final List<Suite> ALL = List.of(
      new Suite(FanOutBenchmark.class,
          List.of("--transports", "http1,ws,h2-tls", "--watchers", "100", "--rate", "1000",
              "--repeats", "1", "--seconds", "4", "--warmup-seconds", "1", "--jit-warmup-seconds", "4",
              "--max-watchers", "1000", "--profile"),
          List.of("--transports", "http1,ws,h2-tls,ws-tls", "--repeats", "3", "--profile")),
      new Suite(ListBenchmark.class,
          List.of("--sizes", "10000,100000", "--repeats", "2"),
          List.of("--sizes", "10000,100000", "--repeats", "5")),
      new Suite(InformerSyncBenchmark.class,
          List.of("--pods", "10000", "--runs", "1", "--busy-retries", "1",
              "--clients", "listwatch,listwatch-typed,fabric8,official", "--profile"),
          List.of("--pods", "10000,100000", "--runs", "3",
              "--clients", "listwatch,listwatch-typed,fabric8,official", "--profile")),
      new Suite(WriteBenchmark.class,
          List.of("--scenarios", "cm-put,pod", "--seconds", "3", "--warmup", "2", "--rounds", "1"),
          List.of("--rounds", "3")),
      new Suite(StorageBenchmark.class,
          List.of("--writers", "1,64", "--repeats", "1", "--seconds", "3", "--warmup-seconds", "1",
              "--range-keys", "20000", "--range-repeats", "2", "--watch-seconds", "3"),
          List.of("--range-repeats", "5")));

  private SuitePlan() {
  }

  /** The suites named in {@code names}, in plan order; all of them when {@code names} is empty. */
  static List<Suite> select(List<String> names) {
    if (names.isEmpty()) {
      return ALL;
    }
    List<String> unknown = new ArrayList<>(names);
    unknown.removeAll(ALL.stream().map(Suite::name).toList());
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("unknown suites " + unknown + "; the plan has "
          + ALL.stream().map(Suite::name).toList());
    }
    return ALL.stream().filter(s -> names.contains(s.name())).toList();
  }
}
