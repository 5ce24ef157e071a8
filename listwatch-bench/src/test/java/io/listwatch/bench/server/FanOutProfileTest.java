package io.listwatch.bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.bench.JfrProfile;
import io.listwatch.bench.JfrProfile.Frame;
import java.util.List;
import org.junit.jupiter.api.Test;

class FanOutProfileTest {

  private static final Frame EVENT_LOOP = new Frame("io.netty.channel.SingleThreadIoEventLoop", "run");
  private static final Frame SSL_UNWRAP = new Frame("io.netty.handler.ssl.SslHandler", "unwrap");

  private static String kind(Frame... topFirst) {
    return JfrProfile.kindOf(FanOutProfile.KINDS, List.of(topFirst));
  }

  @Test
  void aPatchReadFromATlsConnection_isTheWriteRequest_notTls() {
    assertThat(kind(new Frame("com.fasterxml.jackson.databind.node.ObjectNode", "serialize"),
        new Frame("io.listwatch.api.JsonMergePatch", "apply"),
        new Frame("io.listwatch.apiserver.rest.ResourceHandler", "patch"),
        new Frame("io.netty.handler.codec.http.HttpObjectDecoder", "decode"), SSL_UNWRAP, EVENT_LOOP))
        .isEqualTo("write request: other");
  }

  @Test
  void validatingAPatchedPod_isItsValidation_andMergingManagedFields_itsManagedFields() {
    Frame handler = new Frame("io.listwatch.apiserver.rest.ResourceHandler", "patch");
    assertThat(kind(new Frame("io.listwatch.apiserver.strategy.ContainerValidation", "validate"),
        new Frame("io.listwatch.apiserver.strategy.PodStrategy", "validateUpdate"), handler, SSL_UNWRAP, EVENT_LOOP))
        .isEqualTo("write request: validation");
    assertThat(kind(new Frame("com.fasterxml.jackson.databind.node.ObjectNode", "get"),
        new Frame("io.listwatch.api.apply.FieldManager", "update"), handler, EVENT_LOOP))
        .isEqualTo("write request: managed fields");
  }

  @Test
  void encryptingAWatchEvent_isTls_andItsSocketWrite_isASystemCall() {
    Frame sink = new Frame("io.listwatch.server.http.ChunkedWatchSink", "flush");
    Frame watcher = new Frame("io.listwatch.apiserver.cacher.CacheWatcher", "drain");
    Frame wrap = new Frame("io.netty.handler.ssl.SslHandler", "wrap");

    assertThat(kind(new Frame("io.netty.internal.tcnative.SSL", "writeToSSL"), wrap, sink, watcher, EVENT_LOOP))
        .isEqualTo("TLS");
    assertThat(kind(new Frame("sun.nio.ch.SocketDispatcher", "writev0"), new Frame("io.netty.channel.nio"
        + ".AbstractNioByteChannel", "doWrite"), wrap, sink, watcher, EVENT_LOOP)).isEqualTo("socket system calls");
  }

  @Test
  void copyingAnEventForOneWatcher_isWatchDelivery_andAnEventLoopWaiting_isNetty() {
    assertThat(kind(new Frame("io.netty.buffer.AbstractByteBuf", "writeBytes"),
        new Frame("io.listwatch.server.http.IoBuffers", "flatten"),
        new Frame("io.listwatch.server.http.ChunkedWatchSink", "write"),
        new Frame("io.listwatch.apiserver.cacher.CacheWatcher", "drain"), EVENT_LOOP)).isEqualTo("watch delivery");
    assertThat(kind(new Frame("io.netty.util.concurrent.SingleThreadEventExecutor", "runAllTasks"), EVENT_LOOP))
        .isEqualTo("Netty");
    assertThat(kind(new Frame("java.lang.Thread", "run"))).isEqualTo(JfrProfile.OTHER);
  }
}
