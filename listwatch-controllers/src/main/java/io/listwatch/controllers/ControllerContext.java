package io.listwatch.controllers;

import io.listwatch.api.clock.Clock;
import io.listwatch.client.KubeClient;
import io.listwatch.client.cache.SharedInformerFactory;
import io.listwatch.controllers.events.EventRecorder;
import java.util.Objects;

/**
 * What every controller is built over: the client it writes with, the informer factory it
 * shares with the other controllers of the process (one cache and one watch per resource), an
 * event recorder, and the clock. The caller starts the factory after building the controllers
 * and closes everything at the end.
 *
 * @param client the API client (the HTTP client, or a FakeClient in unit tests)
 * @param informers the shared informer factory over {@code client}
 * @param events where controllers record Events about the objects they act on
 * @param clock the time source (a fake one in unit tests)
 */
public record ControllerContext(KubeClient client, SharedInformerFactory informers, EventRecorder events,
    Clock clock) {

  public ControllerContext {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(informers, "informers");
    Objects.requireNonNull(events, "events");
    Objects.requireNonNull(clock, "clock");
  }
}
