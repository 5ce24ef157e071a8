package io.listwatch.controllers.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.api.clock.FakeClock;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceType;
import io.listwatch.client.testing.FakeClient;
import io.listwatch.controllers.RecordingController;
import io.listwatch.controllers.events.EventRecorder;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class ControllerManagerTest {

  private final List<String> log = new CopyOnWriteArrayList<>();

  @Test
  void start_buildsEveryControllerOverOneInformerFactory_andRunsThemInOrder_closeStopsThemInReverse() {
    FakeClient client = FakeClient.create();
    List<Object> informers = new CopyOnWriteArrayList<>();
    List<ControllerSet.Entry> entries = List.of(
        new ControllerSet.Entry("first", 2, ctx -> {
          informers.add(ctx.informers().informerFor(ResourceType.PODS, DynamicObject.CODEC));
          return new RecordingController("first", log);
        }),
        new ControllerSet.Entry("second", 5, ctx -> {
          informers.add(ctx.informers().informerFor(ResourceType.PODS, DynamicObject.CODEC));
          return new RecordingController("second", log);
        }));
    ControllerManager manager = new ControllerManager(client, entries, EventRecorder.DISCARD, new FakeClock()).start();

    assertThat(manager.controllerNames()).containsExactly("first", "second");
    assertThat(log).containsExactly("first run 2", "second run 5");
    assertThat(informers.get(0)).isSameAs(informers.get(1)); // one watch per resource

    manager.close();
    manager.close();
    assertThat(log).containsExactly("first run 2", "second run 5", "second closed", "first closed");
    assertThatThrownBy(manager::start).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void entry_refusesZeroWorkers() {
    assertThatThrownBy(() -> new ControllerSet.Entry("x", 0, ctx -> new RecordingController("x", log)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
