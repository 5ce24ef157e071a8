/**
 * The live page: {@link io.listwatch.server.ui.UiHandler} serves the static files under
 * {@code /ui/} (an HTML page, one script, one stylesheet, from the classpath's {@code ui/}),
 * which list and watch nodes, pods and deployments from this server's own API in the browser.
 */
package io.listwatch.server.ui;
