package io.listwatch.apiserver.cacher;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The selectable-field values of one cached object, as a compact read-only map: one array of
 * values laid out by a field-name array shared by every object of the resource. A pod's dozen
 * fields cost one small array instead of a hash map. Immutable; thread-safe.
 */
final class FieldValues extends AbstractMap<String, String> {

  private final String[] names; // shared, never mutated
  private final String[] values;

  FieldValues(String[] names, String[] values) {
    this.names = names;
    this.values = values;
  }

  @Override
  public String get(Object key) {
    for (int i = 0; i < names.length; i++) {
      if (names[i].equals(key)) {
        return values[i];
      }
    }
    return null;
  }

  @Override
  public boolean containsKey(Object key) {
    return get(key) != null;
  }

  @Override
  public int size() {
    return names.length;
  }

  @Override
  public Set<Entry<String, String>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Entry<String, String>> iterator() {
        return new Iterator<>() {
          private int i;

          @Override
          public boolean hasNext() {
            return i < names.length;
          }

          @Override
          public Entry<String, String> next() {
            if (i >= names.length) {
              throw new NoSuchElementException();
            }
            Map.Entry<String, String> e = Map.entry(names[i], values[i]);
            i++;
            return e;
          }
        };
      }

      @Override
      public int size() {
        return names.length;
      }
    };
  }
}
