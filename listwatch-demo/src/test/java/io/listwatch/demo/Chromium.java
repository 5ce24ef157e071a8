package io.listwatch.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.testsupport.Await;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Headless Chromium (Debian's {@code chromium}) driven over the DevTools protocol: opens one
 * page, evaluates expressions in it, takes screenshots. For tests; {@link #close} kills the
 * browser and waits for it.
 */
final class Chromium implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://[^\\s]+)");

  private final Process process;
  private final WebSocket socket;
  private final AtomicInteger ids = new AtomicInteger();
  private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();

  private Chromium(Process process, WebSocket socket) {
    this.process = process;
    this.socket = socket;
  }

  /** The chromium binary on PATH, or null. */
  static Path binary() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      for (String name : new String[] {"chromium", "chromium-browser"}) {
        Path p = Path.of(dir, name);
        if (Files.isExecutable(p)) {
          return p;
        }
      }
    }
    return null;
  }

  /** Starts a headless browser showing {@code url}, with its profile under {@code profile}. */
  static Chromium open(Path binary, String url, Path profile) throws Exception {
    Process process = new ProcessBuilder(binary.toString(), "--headless=new", "--no-sandbox", "--disable-gpu",
        "--no-first-run", "--disable-dev-shm-usage", "--remote-debugging-address=127.0.0.1",
        // nothing in the background that would write into the profile (or try the network) after the test
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-breakpad",
        "--remote-debugging-port=0", "--user-data-dir=" + profile, "--window-size=1280,900", url)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    try {
      String browserWs = awaitListening(process);
      int port = URI.create(browserWs).getPort();
      HttpClient http = HttpClient.newHttpClient();
      String pageWs = Await.until("chromium opens a page", Duration.ofSeconds(30), () -> {
        JsonNode targets = JSON.readTree(http.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + port + "/json/list")).build(), HttpResponse.BodyHandlers.ofString()).body());
        String page = null;
        for (JsonNode t : targets) {
          if (t.path("type").asText().equals("page")) {
            page = t.path("webSocketDebuggerUrl").asText();
          }
        }
        return page;
      }, Objects::nonNull);
      Chromium[] self = new Chromium[1];
      WebSocket socket = http.newWebSocketBuilder().buildAsync(URI.create(pageWs), new WebSocket.Listener() {
        private final StringBuilder text = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
          text.append(data);
          if (last) {
            String message = text.toString();
            text.setLength(0);
            try {
              JsonNode reply = JSON.readTree(message);
              CompletableFuture<JsonNode> f = reply.has("id") ? self[0].pending.remove(reply.get("id").asInt()) : null;
              if (f != null) {
                f.complete(reply);
              }
            } catch (IOException e) {
              // not a reply we wait for
            }
          }
          ws.request(1);
          return null;
        }
      }).get(30, TimeUnit.SECONDS);
      self[0] = new Chromium(process, socket);
      return self[0];
    } catch (Exception | AssertionError e) {
      process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      throw e;
    }
  }

  /** Evaluates {@code expression} in the page and returns its value (JSON). */
  JsonNode evaluate(String expression) throws Exception {
    ObjectNode params = JSON.createObjectNode().put("expression", expression).put("returnByValue", true);
    JsonNode reply = call("Runtime.evaluate", params);
    return reply.path("result").path("result").path("value");
  }

  /** Saves a PNG of the page to {@code file}. */
  void screenshot(Path file) throws Exception {
    JsonNode reply = call("Page.captureScreenshot", JSON.createObjectNode().put("format", "png"));
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.write(file, Base64.getDecoder().decode(reply.path("result").path("data").asText()));
  }

  private JsonNode call(String method, ObjectNode params) throws Exception {
    int id = ids.incrementAndGet();
    CompletableFuture<JsonNode> reply = new CompletableFuture<>();
    pending.put(id, reply);
    ObjectNode message = JSON.createObjectNode().put("id", id).put("method", method);
    message.set("params", params);
    socket.sendText(JSON.writeValueAsString(message), true).get(30, TimeUnit.SECONDS);
    JsonNode r = reply.get(30, TimeUnit.SECONDS);
    if (r.has("error")) {
      throw new IllegalStateException(method + ": " + r.get("error"));
    }
    return r;
  }

  private static String awaitListening(Process process) throws Exception {
    CompletableFuture<String> url = new CompletableFuture<>();
    Thread.ofPlatform().daemon().name("chromium-stderr").start(() -> {
      try (BufferedReader err = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = err.readLine()) != null) {
          Matcher m = LISTENING.matcher(line);
          if (m.find()) {
            url.complete(m.group(1));
          }
        }
        url.completeExceptionally(new IllegalStateException("chromium exited: " + process.waitFor()));
      } catch (Exception e) {
        url.completeExceptionally(e);
      }
    });
    return url.get(60, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    socket.abort();
    // Chromium's helper processes (zygote, renderers, crashpad) may outlive the browser and
    // still write into the profile directory, which the test deletes next: end them all
    List<ProcessHandle> helpers = process.descendants().toList();
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    for (ProcessHandle helper : helpers) {
      helper.destroy();
    }
    for (ProcessHandle helper : helpers) {
      try {
        helper.onExit().get(10, TimeUnit.SECONDS);
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        helper.destroyForcibly();
      }
    }
  }
}
