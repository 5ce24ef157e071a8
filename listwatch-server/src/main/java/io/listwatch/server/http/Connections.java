package io.listwatch.server.http;

import io.listwatch.apiserver.request.ConnectionInfo;
import io.netty.channel.Channel;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.AttributeKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * What the filters need to know about the connection a request came on: its listener and the
 * client's verified certificate chain. Read once per connection (an HTTP/2 stream asks its
 * parent connection) and kept in a channel attribute. Stateless; call on the channel's event loop.
 */
final class Connections {

  private static final AttributeKey<ConnectionInfo> INFO = AttributeKey.valueOf("listwatch.connection");

  private Connections() {
  }

  static ConnectionInfo info(Channel channel, ConnectionInfo.Listener listener) {
    Channel connection = channel instanceof Http2StreamChannel ? channel.parent() : channel;
    ConnectionInfo info = connection.attr(INFO).get();
    if (info == null) {
      info = new ConnectionInfo(listener, peerCertificates(connection), connection.remoteAddress());
      connection.attr(INFO).set(info);
    }
    return info;
  }

  private static List<X509Certificate> peerCertificates(Channel connection) {
    SslHandler ssl = connection.pipeline().get(SslHandler.class);
    if (ssl == null) {
      return List.of();
    }
    try {
      List<X509Certificate> out = new ArrayList<>();
      for (Certificate c : ssl.engine().getSession().getPeerCertificates()) {
        if (c instanceof X509Certificate x) {
          out.add(x);
        }
      }
      return out;
    } catch (SSLPeerUnverifiedException e) {
      return List.of(); // the client sent no certificate
    }
  }
}
