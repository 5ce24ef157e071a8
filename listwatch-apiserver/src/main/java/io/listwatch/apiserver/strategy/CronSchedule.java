package io.listwatch.apiserver.strategy;

import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The syntax of a CronJob's schedule, as kube checks it with robfig/cron v3's
 * {@code ParseStandard}: five fields (minute, hour, day of month, month, day of week; each a
 * comma list of {@code *}, {@code ?}, a number or name, a range {@code a-b}, with an optional
 * step {@code /n}), or a descriptor ({@code @yearly}, {@code @annually}, {@code @monthly},
 * {@code @weekly}, {@code @daily}, {@code @midnight}, {@code @hourly}, {@code @every <duration>}),
 * optionally after {@code TZ=<zone> } or {@code CRON_TZ=<zone> }. {@link #problem} gives the
 * parser's error text, which kube puts in the field error. Stateless.
 */
final class CronSchedule {

  private record Bounds(int min, int max, Map<String, Integer> names) {
  }

  private static final Map<String, Integer> MONTHS = Map.ofEntries(Map.entry("jan", 1), Map.entry("feb", 2),
      Map.entry("mar", 3), Map.entry("apr", 4), Map.entry("may", 5), Map.entry("jun", 6), Map.entry("jul", 7),
      Map.entry("aug", 8), Map.entry("sep", 9), Map.entry("oct", 10), Map.entry("nov", 11), Map.entry("dec", 12));
  private static final Map<String, Integer> DAYS = Map.of("sun", 0, "mon", 1, "tue", 2, "wed", 3, "thu", 4,
      "fri", 5, "sat", 6);
  private static final List<Bounds> FIELDS = List.of(new Bounds(0, 59, Map.of()), new Bounds(0, 23, Map.of()),
      new Bounds(1, 31, Map.of()), new Bounds(1, 12, MONTHS), new Bounds(0, 6, DAYS));
  private static final List<String> DESCRIPTORS = List.of("@yearly", "@annually", "@monthly", "@weekly", "@daily",
      "@midnight", "@hourly");
  private static final Pattern DURATION_PART = Pattern.compile("([0-9]*(?:\\.[0-9]*)?)(ns|us|µs|μs|ms|s|m|h)?");

  private CronSchedule() {
  }

  /** The parser's error for {@code schedule}, or empty when it is a valid schedule. */
  static Optional<String> problem(String schedule) {
    if (schedule.isEmpty()) {
      return Optional.of("empty spec string");
    }
    String spec = schedule;
    if (spec.startsWith("TZ=") || spec.startsWith("CRON_TZ=")) {
      int space = spec.indexOf(' ');
      String zone = spec.substring(spec.indexOf('=') + 1, space < 0 ? spec.length() : space);
      if (!knownZone(zone)) {
        return Optional.of("provided bad location " + zone + ": unknown time zone " + zone);
      }
      spec = space < 0 ? "" : spec.substring(space).strip();
    }
    if (spec.startsWith("@")) {
      return descriptor(spec);
    }
    String[] fields = spec.isBlank() ? new String[0] : spec.strip().split("\\s+");
    if (fields.length != 5) {
      return Optional.of("expected exactly 5 fields, found " + fields.length + ": [" + String.join(" ", fields) + "]");
    }
    for (int i = 0; i < 5; i++) {
      for (String range : fields[i].split(",", -1)) {
        Optional<String> problem = range(range, FIELDS.get(i));
        if (problem.isPresent()) {
          return problem;
        }
      }
    }
    return Optional.empty();
  }

  /** Whether Go's {@code time.LoadLocation} knows {@code zone}. */
  static boolean knownZone(String zone) {
    return zone.isEmpty() || zone.equals("UTC") || zone.equals("Local") || ZoneId.getAvailableZoneIds().contains(zone);
  }

  private static Optional<String> descriptor(String spec) {
    if (DESCRIPTORS.contains(spec)) {
      return Optional.empty();
    }
    if (spec.startsWith("@every ")) {
      String duration = spec.substring("@every ".length());
      return durationProblem(duration).map(p -> "failed to parse duration " + duration + ": " + p);
    }
    return Optional.of("unrecognized descriptor: " + spec);
  }

  /** Go's {@code time.ParseDuration} errors, for the forms a schedule meets. */
  private static Optional<String> durationProblem(String s) {
    String quoted = io.listwatch.apiserver.validation.FieldErrors.goValue(s);
    String rest = s.startsWith("-") || s.startsWith("+") ? s.substring(1) : s;
    if (rest.equals("0")) {
      return Optional.empty();
    }
    if (rest.isEmpty()) {
      return Optional.of("time: invalid duration " + quoted);
    }
    Matcher m = DURATION_PART.matcher(rest);
    int at = 0;
    while (at < rest.length()) {
      if (!m.find(at) || m.start() != at || m.group(1).isEmpty() || m.group(1).equals(".")) {
        return Optional.of("time: invalid duration " + quoted);
      }
      if (m.group(2) == null) {
        int end = m.end();
        if (end < rest.length()) {
          int unitEnd = end;
          while (unitEnd < rest.length() && rest.charAt(unitEnd) != '.' && !Character.isDigit(rest.charAt(unitEnd))) {
            unitEnd++;
          }
          return Optional.of("time: unknown unit " + io.listwatch.apiserver.validation.FieldErrors.goValue(
              rest.substring(end, unitEnd)) + " in duration " + quoted);
        }
        return Optional.of("time: missing unit in duration " + quoted);
      }
      at = m.end();
    }
    return Optional.empty();
  }

  /** robfig/cron's {@code getRange}. */
  private static Optional<String> range(String expr, Bounds bounds) {
    String[] rangeAndStep = expr.split("/", -1);
    String[] lowAndHigh = rangeAndStep[0].split("-", -1);
    long start;
    long end;
    if (lowAndHigh[0].equals("*") || lowAndHigh[0].equals("?")) {
      start = bounds.min();
      end = bounds.max();
    } else {
      ParsedInt low = intOrName(lowAndHigh[0], bounds.names());
      if (low.problem != null) {
        return Optional.of(low.problem);
      }
      start = low.value;
      switch (lowAndHigh.length) {
        case 1 -> end = start;
        case 2 -> {
          ParsedInt high = intOrName(lowAndHigh[1], bounds.names());
          if (high.problem != null) {
            return Optional.of(high.problem);
          }
          end = high.value;
        }
        default -> {
          return Optional.of("too many hyphens: " + expr);
        }
      }
    }
    long step;
    switch (rangeAndStep.length) {
      case 1 -> step = 1;
      case 2 -> {
        ParsedInt parsed = positiveInt(rangeAndStep[1]);
        if (parsed.problem != null) {
          return Optional.of(parsed.problem);
        }
        step = parsed.value;
        if (lowAndHigh.length == 1) {
          end = bounds.max();
        }
      }
      default -> {
        return Optional.of("too many slashes: " + expr);
      }
    }
    if (start < bounds.min()) {
      return Optional.of("beginning of range (" + start + ") below minimum (" + bounds.min() + "): " + expr);
    }
    if (end > bounds.max()) {
      return Optional.of("end of range (" + end + ") above maximum (" + bounds.max() + "): " + expr);
    }
    if (start > end) {
      return Optional.of("beginning of range (" + start + ") beyond end of range (" + end + "): " + expr);
    }
    if (step == 0) {
      return Optional.of("step of range should be a positive number: " + expr);
    }
    return Optional.empty();
  }

  private record ParsedInt(long value, String problem) {
  }

  private static ParsedInt intOrName(String expr, Map<String, Integer> names) {
    Integer named = names.get(expr.toLowerCase(Locale.ROOT));
    return named != null ? new ParsedInt(named, null) : positiveInt(expr);
  }

  /** robfig/cron's {@code mustParseInt}, with Go's {@code strconv.Atoi} errors. */
  private static ParsedInt positiveInt(String expr) {
    String quoted = io.listwatch.apiserver.validation.FieldErrors.goValue(expr);
    if (!expr.matches("[+-]?[0-9]+")) {
      return new ParsedInt(0, "failed to parse int from " + expr + ": strconv.Atoi: parsing " + quoted + ": invalid syntax");
    }
    long num;
    try {
      num = Long.parseLong(expr);
    } catch (NumberFormatException e) {
      return new ParsedInt(0, "failed to parse int from " + expr + ": strconv.Atoi: parsing " + quoted
          + ": value out of range");
    }
    if (num < 0) {
      return new ParsedInt(0, "negative number (" + num + ") not allowed: " + expr);
    }
    return new ParsedInt(num, null);
  }
}
