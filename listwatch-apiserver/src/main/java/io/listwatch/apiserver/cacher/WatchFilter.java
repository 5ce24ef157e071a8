package io.listwatch.apiserver.cacher;

import io.listwatch.api.FieldSelector;
import io.listwatch.api.LabelSelector;

/**
 * Which objects a list or watch wants: a namespace ("" for all) and label and field
 * selectors. Immutable and thread-safe.
 */
public record WatchFilter(String namespace, LabelSelector labels, FieldSelector fields) {

  public static final WatchFilter EVERYTHING =
      new WatchFilter("", LabelSelector.everything(), FieldSelector.everything());

  public boolean matches(CachedObject o) {
    return (namespace.isEmpty() || namespace.equals(o.namespace()))
        && labels.matches(o.labels())
        && fields.matches(o.fields());
  }
}
