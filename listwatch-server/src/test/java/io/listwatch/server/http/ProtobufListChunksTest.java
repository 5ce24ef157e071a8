package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.proto.V1;
import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.apiserver.protobuf.Envelope;
import io.listwatch.apiserver.protobuf.KubeProtobuf;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProtobufListChunksTest {

  private static List<CachedObject> configMaps(int n, int size) {
    List<CachedObject> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String json = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c" + i
          + "\",\"namespace\":\"ns\",\"resourceVersion\":\"" + (i + 1) + "\"},\"data\":{\"pad\":\"" + "y".repeat(size)
          + "\"}}";
      out.add(new CachedObject("/k/c" + i, "ns", "c" + i, i + 1, json.getBytes(StandardCharsets.UTF_8),
          Map.of(), Map.of()));
    }
    return out;
  }

  @Test
  void chunks_concatenate_toKubesListMessage_inBoundedChunks_ofTheAnnouncedLength() throws Exception {
    List<CachedObject> items = configMaps(1_500, 700);
    List<byte[]> envelopes = items.stream().map(CachedObject::protobuf).toList();
    ProtobufListChunks chunks = new ProtobufListChunks(
        KubeProtobuf.listLayout("v1", "ConfigMapList", 42, "token", 7L, envelopes));
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    List<Integer> sizes = new ArrayList<>();

    while (!chunks.isEndOfInput()) {
      ByteBuf c = chunks.readChunk(UnpooledByteBufAllocator.DEFAULT);
      sizes.add(c.readableBytes());
      body.writeBytes(ByteBufUtil.getBytes(c));
      c.release();
    }

    byte[] whole = body.toByteArray();
    assertThat(chunks.readChunk(UnpooledByteBufAllocator.DEFAULT)).isNull();
    assertThat(whole).isEqualTo(KubeProtobuf.encodeList("v1", "ConfigMapList", 42, "token", 7L, envelopes));
    assertThat(chunks.length()).isEqualTo(whole.length);
    assertThat(sizes).hasSizeGreaterThan(3).allSatisfy(s -> assertThat(s).isLessThanOrEqualTo(ListChunks.CHUNK_BYTES));
    Envelope envelope = Envelope.unwrap(whole);
    assertThat(envelope.kind()).isEqualTo("ConfigMapList");
    V1.ConfigMapList list = V1.ConfigMapList.parseFrom(envelope.raw());
    assertThat(list.getMetadata().getResourceVersion()).isEqualTo("42");
    assertThat(list.getMetadata().getContinue()).isEqualTo("token");
    assertThat(list.getMetadata().getRemainingItemCount()).isEqualTo(7L);
    assertThat(list.getItemsCount()).isEqualTo(1_500);
    assertThat(list.getItems(1_499).getMetadata().getName()).isEqualTo("c1499");
    assertThat(list.getItems(0).getDataMap().get("pad")).hasSize(700);
  }
}
