package io.listwatch.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * One table of results, printed either aligned for a terminal or as a Markdown table for
 * docs/benchmarks.md. Columns whose cells are all numbers are right-aligned in both forms.
 *
 * <p>Not thread-safe: built and printed by the benchmark's main thread.
 */
public final class ResultTable {

  private final String title;
  private final List<String> headers;
  private final List<List<String>> rows = new ArrayList<>();

  public ResultTable(String title, String... headers) {
    this.title = title;
    this.headers = List.of(headers);
  }

  /** Adds a row; it must have one cell per header. */
  public ResultTable row(Object... cells) {
    if (cells.length != headers.size()) {
      throw new IllegalArgumentException("expected " + headers.size() + " cells, got "
          + cells.length);
    }
    List<String> row = new ArrayList<>(cells.length);
    for (Object cell : cells) {
      row.add(String.valueOf(cell));
    }
    rows.add(row);
    return this;
  }

  /** The table as aligned plain text, with its title above it. */
  public String toText() {
    int[] widths = widths();
    StringBuilder b = new StringBuilder();
    b.append(title).append('\n');
    appendTextRow(b, headers, widths);
    for (int i = 0; i < widths.length; i++) {
      b.append("  ").append("-".repeat(widths[i]));
    }
    b.append('\n');
    for (List<String> row : rows) {
      appendTextRow(b, row, widths);
    }
    return b.toString();
  }

  /** The table as Markdown, with its title as a bold line above it. */
  public String toMarkdown() {
    StringBuilder b = new StringBuilder();
    b.append("**").append(title).append("**\n\n");
    b.append('|');
    for (String h : headers) {
      b.append(' ').append(h).append(" |");
    }
    b.append("\n|");
    for (int i = 0; i < headers.size(); i++) {
      boolean numeric = columnIsNumeric(i);
      b.append(numeric ? " ---: |" : " --- |");
    }
    b.append('\n');
    for (List<String> row : rows) {
      b.append('|');
      for (String cell : row) {
        b.append(' ').append(cell.replace("|", "\\|")).append(" |");
      }
      b.append('\n');
    }
    return b.toString();
  }

  private void appendTextRow(StringBuilder b, List<String> cells, int[] widths) {
    int lineStart = b.length();
    for (int i = 0; i < cells.size(); i++) {
      String cell = cells.get(i);
      String pad = " ".repeat(widths[i] - cell.length());
      b.append("  ");
      b.append(columnIsNumeric(i) ? pad + cell : cell + pad);
    }
    int end = b.length();
    while (end > lineStart && b.charAt(end - 1) == ' ') {
      end--;
    }
    b.setLength(end);
    b.append('\n');
  }

  private int[] widths() {
    int[] widths = new int[headers.size()];
    for (int i = 0; i < widths.length; i++) {
      widths[i] = headers.get(i).length();
      for (List<String> row : rows) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    return widths;
  }

  private boolean columnIsNumeric(int column) {
    if (rows.isEmpty()) {
      return false;
    }
    for (List<String> row : rows) {
      if (!looksNumeric(row.get(column))) {
        return false;
      }
    }
    return true;
  }

  private static boolean looksNumeric(String cell) {
    return !cell.isEmpty() && cell.matches("[-+]?[0-9][0-9,.]*\\s*[a-zA-Z%/]*");
  }
}
