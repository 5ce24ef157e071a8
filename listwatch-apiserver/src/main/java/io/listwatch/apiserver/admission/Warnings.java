package io.listwatch.apiserver.admission;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.ArrayList;
import java.util.List;

/**
 * The warnings one write collects for its client (kube's {@code warning.Recorder}, which a
 * request's context carries): each becomes a {@code Warning: 299 - "text"} header of the
 * answer, after the warnings of decoding (unknown fields). A text recorded twice is sent once,
 * as kube's recorder does; an empty text is dropped.
 *
 * <p>Thread-safe: a write's steps may run on different threads.
 */
public final class Warnings {

  /** The texts in the order first recorded, without repeats. */
  @GuardedBy("this")
  private final List<String> texts = new ArrayList<>();

  /** Records {@code text} for the client. */
  public synchronized void add(String text) {
    if (!text.isEmpty() && !texts.contains(text)) {
      texts.add(text);
    }
  }

  /** The texts recorded so far, in order. */
  public synchronized List<String> list() {
    return List.copyOf(texts);
  }
}
