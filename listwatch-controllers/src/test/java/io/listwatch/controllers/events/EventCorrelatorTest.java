package io.listwatch.controllers.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.clock.FakeClock;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.testing.FakeClient;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EventCorrelatorTest {

  private final FakeClock clock = new FakeClock();
  private final EventCorrelator correlator = new EventCorrelator(EventCorrelator.DEFAULT_CAPACITY, clock::nanoTime);
  /** Builds the events (nothing is recorded with it). */
  private final ClientEventRecorder maker = new ClientEventRecorder(FakeClient.create(), "tester", clock);

  @AfterEach
  void tearDown() {
    maker.close();
  }

  private ObjectNode event(String object, String reason, String message) {
    return maker.makeEvent(DynamicObject.parse("{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\","
        + "\"metadata\":{\"name\":\"" + object + "\",\"namespace\":\"ns\",\"uid\":\"u-" + object + "\"}}"),
        EventRecorder.NORMAL, reason, message);
  }

  /** Correlates and pretends the write succeeded, as the recorder's writer does. */
  private EventCorrelator.Correlation write(ObjectNode event) {
    EventCorrelator.Correlation c = correlator.correlate(event).orElseThrow();
    ObjectNode stored = switch (c) {
      case EventCorrelator.Create create -> create.event();
      case EventCorrelator.Patch patch -> patch.event();
    };
    correlator.written(c.key(), stored);
    return c;
  }

  @Test
  void firstEvent_isCreated_andItsRepeat_patchesTheSameName() {
    EventCorrelator.Correlation first = write(event("web", "Scaled", "to 3"));
    EventCorrelator.Correlation again = write(event("web", "Scaled", "to 3"));

    assertThat(first).isInstanceOf(EventCorrelator.Create.class);
    EventCorrelator.Patch patch = (EventCorrelator.Patch) again;
    assertThat(patch.name()).isEqualTo(((EventCorrelator.Create) first).event().path("metadata").path("name").asText());
    assertThat(patch.count()).isEqualTo(2);
  }

  @Test
  void similarEvents_areCombined_fromTheTenthDistinctMessage() {
    for (int i = 0; i < EventCorrelator.MAX_SIMILAR - 1; i++) {
      assertThat(write(event("web", "SuccessfulCreate", "Created pod: " + i))).isInstanceOf(EventCorrelator.Create.class);
    }
    EventCorrelator.Create combined = (EventCorrelator.Create) write(event("web", "SuccessfulCreate", "Created pod: 9"));
    assertThat(combined.event().path("message").asText()).isEqualTo("(combined from similar events): Created pod: 9");

    EventCorrelator.Patch next = (EventCorrelator.Patch) write(event("web", "SuccessfulCreate", "Created pod: 10"));
    assertThat(next.name()).isEqualTo(combined.event().path("metadata").path("name").asText());
    assertThat(next.patch()).contains("(combined from similar events): Created pod: 10");

    assertThat(write(event("web", "SuccessfulDelete", "Deleted pod: 0")))
        .as("another reason is not similar").isInstanceOf(EventCorrelator.Create.class);
  }

  @Test
  void similarEvents_tenMinutesApart_startOver() {
    for (int i = 0; i < EventCorrelator.MAX_SIMILAR - 1; i++) {
      write(event("web", "SuccessfulCreate", "Created pod: " + i));
    }
    clock.advance(EventCorrelator.SIMILAR_INTERVAL.plusSeconds(1));

    EventCorrelator.Create c = (EventCorrelator.Create) write(event("web", "SuccessfulCreate", "Created pod: 9"));
    assertThat(c.event().path("message").asText()).isEqualTo("Created pod: 9");
  }

  @Test
  void spamFilter_holdsBackEventsBeyondTheBurst_perObject_untilRefilled() {
    for (int i = 0; i < EventCorrelator.SPAM_BURST; i++) {
      write(event("web", "Scaled", "same"));
    }
    assertThat(correlator.correlate(event("web", "Scaled", "same"))).isEmpty();
    assertThat(correlator.correlate(event("api", "Scaled", "same"))).as("another object's bucket").isPresent();

    clock.advance(EventCorrelator.SPAM_REFILL);
    Optional<EventCorrelator.Correlation> refilled = correlator.correlate(event("web", "Scaled", "same"));
    assertThat(refilled).isPresent();
    assertThat(correlator.correlate(event("web", "Scaled", "same"))).isEmpty();
  }
}
