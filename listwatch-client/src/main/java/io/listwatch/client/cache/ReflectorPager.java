package io.listwatch.client.cache;

import io.listwatch.api.ListOptions;
import io.listwatch.client.ObjectList;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Lists a whole resource page by page, as client-go's {@code pager.ListPager}: the first
 * request carries the resourceVersion and the limit, later ones the {@code continue} token
 * and the limit but no resourceVersion (the token pins the snapshot). A server that ignores
 * the limit answers everything in one page, which ends the list too. Stateless.
 */
final class ReflectorPager {

  /** Caps the capacity reserved from {@code remainingItemCount}, which the server controls. */
  private static final int MAX_PRESIZE = 1 << 20;

  private ReflectorPager() {
  }

  /** A whole list: every page's items and the list's resourceVersion. */
  record Result<T>(List<T> items, String resourceVersion) {
  }

  /**
   * Lists every page, from {@code resourceVersion}, {@code pageSize} at a time (0: unpaged).
   *
   * @return the list, or empty when {@code stopping} turned true between pages
   * @throws RuntimeException what the ListerWatcher throws (an expired continue token is a
   *     410 StatusException)
   */
  static <T> Optional<Result<T>> listAll(ListerWatcher<T> listerWatcher, String resourceVersion,
      long pageSize, BooleanSupplier stopping) {
    ObjectList<T> page = listerWatcher.list(
        ListOptions.builder().resourceVersion(resourceVersion).limit(pageSize).build());
    List<T> items = new ArrayList<>(page.items().size()
        + (int) Math.min(page.remainingItemCount().orElse(0), MAX_PRESIZE));
    items.addAll(page.items());
    while (page.hasMore()) {
      if (stopping.getAsBoolean()) {
        return Optional.empty();
      }
      page = listerWatcher.list(ListOptions.builder()
          .continueToken(page.continueToken()).limit(pageSize).build());
      items.addAll(page.items());
    }
    return Optional.of(new Result<>(items, page.resourceVersion()));
  }
}
