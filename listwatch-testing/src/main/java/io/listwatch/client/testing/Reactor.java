package io.listwatch.client.testing;

/**
 * Intercepts calls to a {@link FakeClient} before its API server serves them (client-go's
 * {@code testing.Reactor}): to inject errors (throw a {@link io.listwatch.api.StatusException},
 * e.g. 500, 429, 409), to answer with a canned result, or to observe and pass through.
 * Registered with {@link FakeClient#prependReactor} / {@link FakeClient#addReactor}.
 *
 * <p>Called on the thread making the call, possibly from several threads at once.
 */
@FunctionalInterface
public interface Reactor {

  /**
   * Reacts to one call.
   *
   * @return {@link Reaction#passThrough()} or {@link Reaction#handled(Object)}
   * @throws io.listwatch.api.StatusException to fail the call with that error
   */
  Reaction react(Action action);
}
