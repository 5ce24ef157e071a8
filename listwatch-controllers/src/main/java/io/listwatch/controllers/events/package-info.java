/**
 * Events about objects, recorded as client-go's event recorder records them:
 * {@link io.listwatch.controllers.events.EventRecorder} (the interface controllers use),
 * {@link io.listwatch.controllers.events.ClientEventRecorder} (writes core/v1 Events in the
 * background through a client) and {@code EventCorrelator} (turns repeats into count patches).
 */
package io.listwatch.controllers.events;
