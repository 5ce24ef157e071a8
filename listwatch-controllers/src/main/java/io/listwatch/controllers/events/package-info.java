/** Events about objects, recorded as client-go's event recorder records them. */
package io.listwatch.controllers.events;
