package io.listwatch.apiserver.request;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code Warning} headers of one response, as kube-apiserver's warning recorder bounds
 * them: each text once (later repeats dropped), and about 4 KiB of text in all. Warnings are
 * sent whole while their texts add up to at most {@value #TOTAL_RUNES} code points; the one that
 * would pass that turns on truncation: every warning so far is sent again cut to
 * {@value #ITEM_RUNES} code points, later ones are cut too, and once the cut texts reach the total
 * the rest are dropped. (A body with thousands of unknown fields gets a few dozen headers, not
 * thousands.) Stateless; thread-safe.
 */
public final class WarningHeaders {

  /** The code points of warning text a response carries before warnings are cut. */
  static final int TOTAL_RUNES = 4 * 1024;
  /** The code points each warning keeps once they are cut. */
  static final int ITEM_RUNES = 256;

  private WarningHeaders() {
  }

  /** The header value of kube's {@code Warning} for {@code text}: {@code 299 - "text"}, quoted. */
  public static String value(String text) {
    return "299 - \"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  /**
   * The headers to send for {@code values}, the response's {@code Warning} values in the order
   * they were added (each made by {@link #value}; another value is kept as it is, counted whole).
   */
  public static List<String> bounded(List<String> values) {
    return bounded(values, TOTAL_RUNES, ITEM_RUNES);
  }

  static List<String> bounded(List<String> values, int totalRunes, int itemRunes) {
    Set<String> seen = new HashSet<>();
    List<String> texts = new ArrayList<>();
    List<String> out = new ArrayList<>();
    int written = 0;
    boolean truncating = false;
    for (String value : values) {
      if (truncating && written >= totalRunes) {
        break;
      }
      String text = text(value);
      if (text.isEmpty() || !seen.add(text)) {
        continue;
      }
      texts.add(text);
      String sent = truncating ? cut(text, itemRunes) : text;
      int runes = runes(sent);
      if (truncating || written + runes <= totalRunes) {
        written += runes;
        out.add(sent.length() == text.length() ? value : value(sent));
        continue;
      }
      truncating = true;
      written = 0;
      out.clear();
      for (String t : texts) {
        String c = cut(t, itemRunes);
        written += runes(c);
        out.add(value(c));
      }
    }
    return out;
  }

  /** The text of a header {@link #value}, or the value itself when it is not one. */
  static String text(String value) {
    if (!value.startsWith("299 - \"") || !value.endsWith("\"") || value.length() < 8) {
      return value;
    }
    String quoted = value.substring(7, value.length() - 1);
    StringBuilder b = new StringBuilder(quoted.length());
    for (int i = 0; i < quoted.length(); i++) {
      char c = quoted.charAt(i);
      if (c == '\\' && i + 1 < quoted.length()) {
        c = quoted.charAt(++i);
      }
      b.append(c);
    }
    return b.toString();
  }

  private static int runes(String s) {
    return s.codePointCount(0, s.length());
  }

  private static String cut(String s, int runes) {
    return runes(s) <= runes ? s : s.substring(0, s.offsetByCodePoints(0, runes));
  }
}
