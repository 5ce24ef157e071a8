package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of the Prometheus text format (0.0.4) for tests: every line must be a HELP,
 * a TYPE or a sample line, every sample must belong to a family whose TYPE came first, and
 * values must be numbers. Parsed samples can then be looked up by name and labels.
 */
final class PrometheusText {

  private static final String NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
  private static final String LABEL = "[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n]|\\\\.)*\"";
  private static final Pattern HELP = Pattern.compile("# HELP (" + NAME + ") .*");
  private static final Pattern TYPE = Pattern.compile("# TYPE (" + NAME + ") (counter|gauge|histogram|summary|untyped)");
  private static final Pattern SAMPLE = Pattern.compile(
      "(" + NAME + ")(\\{(?:" + LABEL + ")(?:," + LABEL + ")*,?\\})? (-?[0-9.]+(?:[eE][-+]?[0-9]+)?|NaN|\\+Inf|-Inf)( -?[0-9]+)?");
  private static final Pattern ONE_LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\\\n]|\\\\.)*)\"");

  record Sample(String name, Map<String, String> labels, double value) {
  }

  private final List<Sample> samples = new ArrayList<>();
  private final Map<String, String> types = new TreeMap<>();

  private PrometheusText() {
  }

  static PrometheusText parse(String text) {
    PrometheusText p = new PrometheusText();
    assertThat(text).as("exposition ends with a newline").endsWith("\n");
    Set<String> declared = new HashSet<>();
    int n = 0;
    for (String line : text.split("\n", -1)) {
      n++;
      if (line.isEmpty()) {
        continue;
      }
      Matcher m;
      if ((m = HELP.matcher(line)).matches()) {
        continue;
      }
      if ((m = TYPE.matcher(line)).matches()) {
        if (!declared.add(m.group(1))) {
          fail("line %d: TYPE of %s declared twice", n, m.group(1));
        }
        p.types.put(m.group(1), m.group(2));
        continue;
      }
      if (!(m = SAMPLE.matcher(line)).matches()) {
        fail("line %d is not Prometheus text format: %s", n, line);
      }
      String name = m.group(1);
      if (p.family(name) == null) {
        fail("line %d: sample %s has no TYPE before it", n, name);
      }
      Map<String, String> labels = new TreeMap<>();
      if (m.group(2) != null) {
        Matcher l = ONE_LABEL.matcher(m.group(2));
        while (l.find()) {
          labels.put(l.group(1), l.group(2));
        }
      }
      String v = m.group(3);
      double value = v.equals("+Inf") ? Double.POSITIVE_INFINITY : v.equals("-Inf") ? Double.NEGATIVE_INFINITY
          : Double.parseDouble(v);
      p.samples.add(new Sample(name, labels, value));
    }
    return p;
  }

  /** The declared family a sample name belongs to (histograms: _bucket, _sum, _count). */
  private String family(String sample) {
    if (types.containsKey(sample)) {
      return sample;
    }
    for (String suffix : List.of("_bucket", "_sum", "_count", "_total", "_created")) {
      if (sample.endsWith(suffix) && types.containsKey(sample.substring(0, sample.length() - suffix.length()))) {
        return sample.substring(0, sample.length() - suffix.length());
      }
    }
    return null;
  }

  String type(String family) {
    return types.get(family);
  }

  /** The sum of the samples named {@code name} whose labels include all of {@code labels}. */
  double sum(String name, Map<String, String> labels) {
    return matching(name, labels).stream().mapToDouble(Sample::value).sum();
  }

  List<Sample> matching(String name, Map<String, String> labels) {
    return samples.stream()
        .filter(s -> s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet()))
        .toList();
  }
}
