package io.listwatch.controllers.manager;

import io.listwatch.api.clock.Clock;
import io.listwatch.client.KubeClient;
import io.listwatch.controllers.Controller;
import io.listwatch.controllers.ControllerContext;
import io.listwatch.controllers.deployment.DeploymentController;
import io.listwatch.controllers.events.ClientEventRecorder;
import io.listwatch.controllers.events.EventRecorder;
import io.listwatch.controllers.nodelifecycle.NodeLifecycleController;
import io.listwatch.controllers.replicaset.ReplicaSetController;
import io.listwatch.controllers.scheduler.Scheduler;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The controllers {@code ./listwatch controllers} and {@code ./listwatch demo} run, in start
 * order, each with its worker count (kube-controller-manager's list of initializers). Adding a
 * controller to the process is one {@link Entry} in {@link #defaults()}.
 *
 * <p>Immutable; thread-safe.
 */
public final class ControllerSet {

  /**
   * One controller of the set.
   *
   * @param name the controller's name, as {@link Controller#name()}
   * @param workers how many workers it runs
   * @param factory builds it over the shared context (registering its informer handlers)
   */
  public record Entry(String name, int workers, Function<ControllerContext, Controller> factory) {
    public Entry {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(factory, "factory");
      if (workers < 1) {
        throw new IllegalArgumentException("workers must be at least 1");
      }
    }
  }

  private ControllerSet() {
  }

  /** Every controller of the controller manager, in start order. */
  public static List<Entry> defaults() {
    return List.of(
        new Entry("replicaset", 5, ReplicaSetController::new),
        new Entry("deployment", 5, DeploymentController::new),
        new Entry("scheduler", 1, Scheduler::new),
        new Entry("nodelifecycle", 1, ctx -> new NodeLifecycleController(ctx, NodeLifecycleController.Settings.DEFAULTS)));
  }

  /** The source component of the events the controllers of a process record. */
  public static final String COMPONENT = "listwatch-controller-manager";

  /**
   * The event recorder the controllers of a process share, writing core/v1 Events through
   * {@code client} in the background. {@link ControllerManager#close()} closes it.
   */
  public static EventRecorder eventRecorder(KubeClient client) {
    Objects.requireNonNull(client, "client");
    return new ClientEventRecorder(client, COMPONENT, Clock.system());
  }
}
