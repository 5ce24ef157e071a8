package io.listwatch.client.testing;

/**
 * What a {@link Reactor} did with an {@link Action}: nothing (the next reactor, finally the
 * fake's API server, handles it), or handled it with a result. To answer with an error, a reactor
 * throws the {@link io.listwatch.api.StatusException} instead.
 *
 * <p>The result must be what the verb returns: the object ({@code T}) for get (null for
 * not found), create, update and patch; an {@link io.listwatch.client.ObjectList} for list;
 * a {@link io.listwatch.client.WatchStream} for watch; a {@link Boolean} for delete. A
 * result of another type fails the call with a {@link ClassCastException}.
 *
 * @param handled whether the reactor answered the call
 * @param result the answer, when handled
 */
public record Reaction(boolean handled, Object result) {

  private static final Reaction PASS_THROUGH = new Reaction(false, null);

  /** Let the next reactor, or the fake's API server, handle the action. */
  public static Reaction passThrough() {
    return PASS_THROUGH;
  }

  /** Answer the call with {@code result} (see the class comment for its type). */
  public static Reaction handled(Object result) {
    return new Reaction(true, result);
  }
}
