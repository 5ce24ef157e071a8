package io.listwatch.server.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.server.ApiServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class UiHandlerTest {

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void ui_servesThePageItsScriptAndStylesheet_withTheirContentTypes() throws Exception {
    try (ApiServer server = ApiServer.builder().ui(true).build().start()) {
      HttpResponse<String> page = get(server.url() + "/ui/");
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.headers().firstValue("content-type")).contains("text/html; charset=utf-8");
      assertThat(page.body()).contains("/ui/app.js").contains("/ui/style.css");
      assertThat(get(server.url() + "/ui").body()).isEqualTo(page.body());
      HttpResponse<String> script = get(server.url() + "/ui/app.js");
      assertThat(script.headers().firstValue("content-type")).contains("text/javascript; charset=utf-8");
      assertThat(script.body()).contains("/api/v1/pods");
      assertThat(get(server.url() + "/ui/style.css").headers().firstValue("content-type"))
          .contains("text/css; charset=utf-8");
      assertThat(get(server.url() + "/ui/missing.js").statusCode()).isEqualTo(404);
    }
  }

  @Test
  void withoutUi_thePageIsNotServed() throws Exception {
    try (ApiServer server = ApiServer.builder().build().start()) {
      HttpResponse<String> page = get(server.url() + "/ui/");
      assertThat(page.statusCode()).isEqualTo(404);
      assertThat(page.body()).contains("\"kind\":\"Status\"");
    }
  }

  private HttpResponse<String> get(String url) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
  }
}
