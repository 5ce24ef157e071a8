package io.listwatch.bench.server;

import io.listwatch.bench.Report;

/**
 * The named figures ({@link Report#figure}) of one run of a {@code bench server-fanout} point,
 * for a report to plot: {@code fanout.<server side>.w<watchers>.r<writes/s or Max>.<figure>.run<i>}.
 * The figures: {@code p50Ms}, {@code p99Ms}, {@code p999Ms}, {@code maxMs} (write to watcher),
 * {@code writeP50Ms}, {@code writeP99Ms}, {@code writeP999Ms}, {@code writeMaxMs} (the write's
 * answer), all from each write's intended send time; {@code pacerLateP99Ms} (fixed rate only);
 * {@code writesPerSecond}, {@code deliveriesPerSecond}, {@code serverCpuMicrosPerWrite},
 * {@code serverCpuMicrosPerDelivery}, {@code gcMaxPauseMs}, and {@code watchersFailingCheck}
 * (watches that failed the {@link DeliveryCheck}).
 *
 * <p>Stateless; thread-safe.
 */
final class FanOutFigures {

  private FanOutFigures() {
  }

  /**
   * Records run {@code run} (from 1) of point {@code r} on the server side named
   * {@code serverSide} (e.g. {@code http1Tls}, {@code http1.etcd2Haproxy}).
   */
  static void record(Report report, String serverSide, FanOutPoint.Result r, long run) {
    String key = key(serverSide, r) + ".";
    String suffix = ".run" + run;
    report.figure(key + "p50Ms" + suffix, r.p50() / 1e6);
    report.figure(key + "p99Ms" + suffix, r.p99() / 1e6);
    report.figure(key + "p999Ms" + suffix, r.p999() / 1e6);
    report.figure(key + "maxMs" + suffix, r.max() / 1e6);
    report.figure(key + "writeP50Ms" + suffix, r.writeP50() / 1e6);
    report.figure(key + "writeP99Ms" + suffix, r.writeP99() / 1e6);
    report.figure(key + "writeP999Ms" + suffix, r.writeP999() / 1e6);
    report.figure(key + "writeMaxMs" + suffix, r.writeMax() / 1e6);
    if (r.rate() != 0) {
      report.figure(key + "pacerLateP99Ms" + suffix, r.pacerLateP99() / 1e6);
    }
    report.figure(key + "writesPerSecond" + suffix, r.writesPerSecond());
    report.figure(key + "deliveriesPerSecond" + suffix, r.deliveriesPerSecond());
    report.figure(key + "serverCpuMicrosPerWrite" + suffix, r.serverCpuNanosPerWrite() / 1e3);
    report.figure(key + "serverCpuMicrosPerDelivery" + suffix, r.serverCpuNanosPerDelivery() / 1e3);
    report.figure(key + "gcMaxPauseMs" + suffix, r.pauses().gcMaxNanos() / 1e6);
    report.figure(key + "watchersFailingCheck" + suffix, r.check().failed());
  }

  /** The key of point {@code r}'s figures on {@code serverSide}, before the figure's name: {@code fanout.http1.w100.r1000}. */
  static String key(String serverSide, FanOutPoint.Result r) {
    return "fanout." + serverSide + ".w" + r.watchers() + ".r" + (r.rate() == 0 ? "Max" : r.rate());
  }

  /** A command-line label in lower camel case: {@code etcd-2-haproxy} as {@code etcd2Haproxy}. */
  static String lowerCamel(String label) {
    StringBuilder b = new StringBuilder();
    boolean upper = false;
    for (char ch : label.toCharArray()) {
      if (!Character.isLetterOrDigit(ch)) {
        upper = true;
      } else {
        b.append(upper && b.length() > 0 ? Character.toUpperCase(ch) : ch);
        upper = false;
      }
    }
    return b.toString();
  }
}
