package io.listwatch.api.apply;

import java.util.ArrayList;
import java.util.List;

/**
 * A path from an object's root to one of its nodes: a list of {@link PathElement}s
 * (structured-merge-diff's {@code fieldpath.Path}). Ordered element by element, a prefix
 * before its extensions.
 *
 * <p>Immutable.
 *
 * @param elements the steps from the root; empty for the root itself
 */
public record FieldPath(List<PathElement> elements) implements Comparable<FieldPath> {

  /** The root. */
  public static final FieldPath ROOT = new FieldPath(List.of());

  public FieldPath {
    elements = List.copyOf(elements);
  }

  /** A path of object fields, e.g. {@code FieldPath.of("spec", "replicas")}. */
  public static FieldPath of(String... fields) {
    List<PathElement> e = new ArrayList<>();
    for (String f : fields) {
      e.add(PathElement.field(f));
    }
    return new FieldPath(e);
  }

  /** This path followed by {@code next}. */
  public FieldPath child(PathElement next) {
    PathElement[] e = elements.toArray(new PathElement[elements.size() + 1]);
    e[e.length - 1] = java.util.Objects.requireNonNull(next);
    return new FieldPath(List.of(e)); // already immutable: the constructor does not copy it again
  }

  /** The number of elements. */
  public int size() {
    return elements.size();
  }

  /** Whether this path is {@code other} or lies beneath it. */
  public boolean startsWith(FieldPath other) {
    return other.size() <= size() && elements.subList(0, other.size()).equals(other.elements);
  }

  @Override
  public int compareTo(FieldPath o) {
    for (int i = 0; i < Math.min(size(), o.size()); i++) {
      PathElement mine = elements.get(i);
      PathElement theirs = o.elements.get(i);
      if (mine == theirs) {
        continue; // paths built from one parent share its elements: skip the common prefix cheaply
      }
      int c = mine.compareTo(theirs);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(size(), o.size());
  }

  /** The path as kube prints it in conflicts, e.g. {@code .spec.containers[name="c"].image}. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    elements.forEach(sb::append);
    return sb.toString();
  }
}
