package io.listwatch.server.http;

import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.apiserver.rest.AggregatedApis;
import io.listwatch.apiserver.webhook.TlsClients;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.function.IntConsumer;

/**
 * Sends a request on to the server of an aggregated API and streams its answer back, as
 * kube-aggregator's proxy handler does: the same method, path, query, body and headers, except
 * the caller's credentials ({@code Authorization}, impersonation headers), which this server
 * has already used, and hop-by-hop headers; the user this server authenticated goes in
 * {@code X-Remote-User}, {@code X-Remote-Group} and {@code X-Remote-Extra-<key>} (any the
 * caller sent are dropped). The answer's status and headers come back as they are, and its
 * body as a chunked stream, each piece written as it arrives and the next read once it has
 * been written (a watch streams for as long as the remote keeps it open). A failure before the
 * answer starts is a 503 {@code service unavailable}; after it, the connection is closed.
 *
 * <p>One instance per proxied request; its callbacks hop onto the channel's event loop.
 */
final class AggregatedApiProxy implements Flow.Subscriber<List<ByteBuffer>> {

  /** How long the remote may take to accept the connection (kube's proxy dialer: 30 s). */
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);
  private static final TlsClients CLIENTS = new TlsClients();
  /** Not passed on: hop-by-hop headers, what the JDK's client sets itself, and the caller's credentials. */
  private static final Set<String> DROPPED_REQUEST_HEADERS = Set.of("connection", "keep-alive", "proxy-connection",
      "transfer-encoding", "te", "trailer", "upgrade", "host", "content-length", "expect", "authorization",
      "http2-settings");
  private static final Set<String> DROPPED_RESPONSE_HEADERS = Set.of("connection", "keep-alive", "proxy-connection",
      "transfer-encoding", "te", "trailer", "upgrade", "content-length");

  private final ChannelHandlerContext ctx;
  private final IntConsumer onDone;
  private Flow.Subscription subscription;
  private int status;
  private volatile boolean done;

  /**
   * @param onDone called once on the event loop with the status when the answer is over (or
   *     aborted: 503 before it started)
   */
  private AggregatedApiProxy(ChannelHandlerContext ctx, IntConsumer onDone) {
    this.ctx = ctx;
    this.onDone = onDone;
  }

  /** Proxies {@code request} to {@code target}; returns a handle to abort it when the client goes. */
  static Runnable forward(ChannelHandlerContext ctx, ApiRequest request, AggregatedApis.ProxyTarget target,
      IntConsumer onDone) {
    AggregatedApiProxy proxy = new AggregatedApiProxy(ctx, onDone);
    HttpClient client;
    try {
      client = CLIENTS.client(target.caBundle(), target.serverName(), target.insecureSkipTlsVerify(), CONNECT_TIMEOUT);
    } catch (java.io.IOException | java.security.GeneralSecurityException e) {
      proxy.unavailable();
      return proxy::abort;
    }
    HttpRequest.Builder out = HttpRequest.newBuilder(target.uri())
        .method(request.method(), request.body().length == 0 ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(request.body()));
    for (Map.Entry<String, String> h : request.headers()) {
      String name = h.getKey().toLowerCase(Locale.ROOT);
      if (!DROPPED_REQUEST_HEADERS.contains(name) && !name.startsWith("impersonate-") && !name.startsWith("x-remote-")
          && !name.startsWith(":")) {
        out.header(h.getKey(), h.getValue());
      }
    }
    UserInfo user = request.user();
    if (user != null) {
      out.header("X-Remote-User", user.name());
      user.groups().forEach(g -> out.header("X-Remote-Group", g));
      user.extra().forEach((key, values) -> values.forEach(v ->
          out.header("X-Remote-Extra-" + URLEncoder.encode(key, StandardCharsets.UTF_8).replace("+", "%20"), v)));
    }
    CompletableFuture<java.net.http.HttpResponse<Flow.Publisher<List<ByteBuffer>>>> sent =
        client.sendAsync(out.build(), BodyHandlers.ofPublisher());
    sent.whenComplete((response, e) -> ctx.executor().execute(() -> {
      if (e != null) {
        proxy.unavailable();
      } else {
        proxy.start(response);
      }
    }));
    return proxy::abort;
  }

  /** kube's proxy error: 503 with a plain-text body. */
  private void unavailable() {
    finishWith(Responses.text(HttpResponseStatus.SERVICE_UNAVAILABLE, "service unavailable\n"), 503);
  }

  private void finishWith(io.netty.handler.codec.http.FullHttpResponse response, int code) {
    if (done) {
      return;
    }
    done = true;
    ctx.writeAndFlush(response);
    onDone.accept(code);
  }

  /** Writes the head, then subscribes to the body. Event loop. */
  private void start(java.net.http.HttpResponse<Flow.Publisher<List<ByteBuffer>>> response) {
    if (done) {
      response.body().subscribe(new Flow.Subscriber<>() { // abandoned: drain nothing, close the stream
        @Override
        public void onSubscribe(Flow.Subscription s) {
          s.cancel();
        }

        @Override
        public void onNext(List<ByteBuffer> item) {
        }

        @Override
        public void onError(Throwable throwable) {
        }

        @Override
        public void onComplete() {
        }
      });
      return;
    }
    status = response.statusCode();
    HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status));
    response.headers().map().forEach((name, values) -> {
      if (!DROPPED_RESPONSE_HEADERS.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")) {
        head.headers().add(name, values);
      }
    });
    HttpUtil.setTransferEncodingChunked(head, true);
    ctx.writeAndFlush(head);
    response.body().subscribe(this);
  }

  @Override
  public void onSubscribe(Flow.Subscription s) {
    ctx.executor().execute(() -> {
      subscription = s;
      if (done) {
        s.cancel();
      } else {
        s.request(1);
      }
    });
  }

  @Override
  public void onNext(List<ByteBuffer> item) {
    ctx.executor().execute(() -> {
      if (done) {
        return;
      }
      int size = item.stream().mapToInt(ByteBuffer::remaining).sum();
      if (size == 0) {
        subscription.request(1);
        return;
      }
      ctx.writeAndFlush(new DefaultHttpContent(Unpooled.wrappedBuffer(item.toArray(ByteBuffer[]::new))))
          .addListener(f -> {
            if (f.isSuccess() && !done) {
              subscription.request(1); // the next piece once this one is on its way
            }
          });
    });
  }

  @Override
  public void onError(Throwable e) {
    ctx.executor().execute(() -> {
      if (!done) {
        done = true;
        ctx.close(); // the head is out: a broken stream is all the client can be told
        onDone.accept(status);
      }
    });
  }

  @Override
  public void onComplete() {
    ctx.executor().execute(() -> {
      if (!done) {
        done = true;
        ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
        onDone.accept(status);
      }
    });
  }

  /** The client went away: stop reading the remote. Event loop. */
  private void abort() {
    if (!done) {
      done = true;
      onDone.accept(status == 0 ? 499 : status);
    }
    Flow.Subscription s = subscription;
    if (s != null) {
      s.cancel();
    }
  }
}
