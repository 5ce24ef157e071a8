package io.listwatch.server.ui;

import io.listwatch.apiserver.request.ApiResponse;
import io.listwatch.apiserver.rest.ApiRoutes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Serves the live page's static files as non-resource GET routes: {@code /ui} and
 * {@code /ui/} (the page), {@code /ui/app.js} and {@code /ui/style.css}. The files are read
 * from the classpath once, at install.
 *
 * <p>Who may load the page is the authorizer's decision, as for any non-resource URL (RBAC
 * {@code nonResourceURLs: ["/ui", "/ui/*"]}); the bootstrap policy grants it to no one but
 * cluster admins. On the plain-HTTP listener every request acts as the admin, so that is where
 * a browser, which has no client certificate, uses it: the page then reads the API with the
 * same rights. The page makes only GET requests.
 *
 * <p>Thread-safe: immutable after install.
 */
public final class UiHandler {

  /** Classpath resource (under {@code ui/}) and content type, by served path. */
  private static final Map<String, String[]> FILES = Map.of(
      "/ui", new String[] {"index.html", "text/html; charset=utf-8"},
      "/ui/", new String[] {"index.html", "text/html; charset=utf-8"},
      "/ui/index.html", new String[] {"index.html", "text/html; charset=utf-8"},
      "/ui/app.js", new String[] {"app.js", "text/javascript; charset=utf-8"},
      "/ui/style.css", new String[] {"style.css", "text/css; charset=utf-8"});

  private UiHandler() {
  }

  /**
   * Registers the page's routes on {@code routes}; call before the server accepts requests.
   *
   * @throws IllegalStateException if a file is missing from the classpath
   */
  public static void install(ApiRoutes routes) {
    for (Map.Entry<String, String[]> e : FILES.entrySet()) {
      ApiResponse response = new ApiResponse(200, new ApiResponse.Binary(read(e.getValue()[0]), e.getValue()[1]))
          .withHeader("Cache-Control", "no-cache");
      routes.registerNonResource(e.getKey(), () -> response);
    }
  }

  private static byte[] read(String file) {
    try (InputStream in = UiHandler.class.getClassLoader().getResourceAsStream("ui/" + file)) {
      if (in == null) {
        throw new IllegalStateException("ui/" + file + " is not on the classpath");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
