package io.listwatch.bench.chaos;

import java.util.List;

/**
 * One client operation of a {@link History}, Jepsen's way: when it was invoked and when it
 * completed (nanoseconds since the history began, on the harness's one clock), and how it
 * ended. A write puts a value no other write puts, so whoever sees that value knows which write
 * it was.
 *
 * @param process the client (or watcher) that ran it; a process runs one operation at a time
 * @param type what it did
 * @param server the index of the server it was sent to
 * @param key the ConfigMap's name; null for a list
 * @param value what a create or update wrote (in both {@code data.value} and a label); else null
 * @param expectedRv an update's precondition ({@code metadata.resourceVersion}); else 0
 * @param invoke when it was sent
 * @param complete when its answer (or its failure) came
 * @param outcome ok, failed, or indeterminate
 * @param status the HTTP status, or -1 when there was none (timeout, connection lost)
 * @param rv a write's new resourceVersion, a read's object's, a list's; 0 when there is none
 * @param seen what a read or a list returned (a read: zero or one object)
 *
 * <p>Immutable; thread-safe.
 */
record Operation(int process, Type type, int server, String key, String value, long expectedRv, long invoke,
    long complete, Outcome outcome, int status, long rv, List<Version> seen) {

  /** What an operation did. */
  enum Type {
    /** POST of a new ConfigMap. */
    CREATE,
    /** PUT with {@code metadata.resourceVersion}: compare-and-set. */
    UPDATE,
    /** DELETE, unconditional. */
    DELETE,
    /** GET of one ConfigMap, a consistent read. */
    READ,
    /** LIST of the namespace, a consistent read. */
    LIST;

    boolean writesValue() {
      return this == CREATE || this == UPDATE;
    }
  }

  /** How an operation ended, as Jepsen names them. */
  enum Outcome {
    /** Acknowledged (2xx). */
    OK,
    /** Refused (4xx): it changed nothing. */
    FAIL,
    /** Unknown: a timeout, a lost connection or a 5xx; it may or may not have been applied. */
    INFO
  }

  Operation {
    seen = List.copyOf(seen);
  }

  boolean ok() {
    return outcome == Outcome.OK;
  }

  @Override
  public String toString() {
    return "p" + process + " " + type + (key == null ? "" : " " + key) + (value == null ? "" : " value=" + value)
        + (expectedRv == 0 ? "" : " if rv=" + expectedRv) + " on server " + server + " ["
        + ms(invoke) + "-" + ms(complete) + " ms] -> " + outcome + (status < 0 ? "" : " " + status)
        + (rv == 0 ? "" : " rv=" + rv) + (type == Type.READ || type == Type.LIST ? " seen=" + seen : "");
  }

  static String ms(long nanos) {
    return Long.toString(nanos / 1_000_000);
  }
}
