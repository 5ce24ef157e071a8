/**
 * The controller manager: which controllers a process runs and how it runs them
 * (kube-controller-manager's wiring of {@code pkg/controller/*}).
 * {@link io.listwatch.controllers.manager.ControllerSet} lists the controllers in start order,
 * each with its worker count and its factory; {@link io.listwatch.controllers.manager.ControllerManager}
 * builds them over one shared {@link io.listwatch.controllers.ControllerContext}, starts the
 * informers, runs the controllers and stops them in reverse.
 *
 * <p>This package sits above the controllers: it knows every controller package, and none of
 * them knows it. The contract they share ({@link io.listwatch.controllers.Controller},
 * {@link io.listwatch.controllers.ControllerContext}) stays in {@code io.listwatch.controllers}.
 */
package io.listwatch.controllers.manager;
