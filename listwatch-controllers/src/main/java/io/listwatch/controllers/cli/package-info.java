/**
 * The commands of the controllers module, run by the {@code listwatch} launcher:
 * {@code ./listwatch controllers} ({@link io.listwatch.controllers.cli.ControllersCommand}: the
 * {@link io.listwatch.controllers.manager.ControllerSet} against any server, optionally only while
 * leading through a Lease). {@link io.listwatch.controllers.cli.LeaderElectedControllers} is
 * the piece the demo reuses.
 */
package io.listwatch.controllers.cli;
