package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.apiserver.registry.ResourceRegistry;
import io.listwatch.apiserver.request.ApiResponse;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ListChunksTest {

  private static final io.listwatch.apiserver.registry.ResourceDefinition PODS =
      ResourceRegistry.builtins().find("", "v1", "pods").orElseThrow();

  private static List<CachedObject> objects(int n, int size) {
    List<CachedObject> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String json = "{\"metadata\":{\"name\":\"p" + i + "\"},\"pad\":\"" + "y".repeat(size) + "\"}";
      out.add(new CachedObject("/k/p" + i, "ns", "p" + i, i + 1, json.getBytes(StandardCharsets.UTF_8),
          Map.of(), Map.of()));
    }
    return out;
  }

  /** Reads every chunk; returns the chunks' sizes and fills {@code body}. */
  private static List<Integer> drain(ListChunks chunks, ByteArrayOutputStream body) {
    List<Integer> sizes = new ArrayList<>();
    while (!chunks.isEndOfInput()) {
      ByteBuf c = chunks.readChunk(UnpooledByteBufAllocator.DEFAULT);
      sizes.add(c.readableBytes());
      body.writeBytes(ByteBufUtil.getBytes(c));
      c.release();
    }
    assertThat(chunks.readChunk(UnpooledByteBufAllocator.DEFAULT)).isNull();
    return sizes;
  }

  @Test
  void chunks_concatenate_toTheWholeList_inBoundedChunks_ofTheAnnouncedLength() {
    List<CachedObject> items = objects(2_000, 900);
    ApiResponse.ListBody list = new ApiResponse.ListBody(PODS, 42, "token", 7L, items);
    ListChunks chunks = new ListChunks(list);
    ByteArrayOutputStream body = new ByteArrayOutputStream();

    List<Integer> sizes = drain(chunks, body);

    byte[] whole = ByteBufUtil.getBytes(Responses.list(list));
    assertThat(body.toByteArray()).isEqualTo(whole);
    assertThat(chunks.length()).isEqualTo(whole.length);
    assertThat(chunks.progress()).isEqualTo(whole.length);
    assertThat(sizes).hasSizeGreaterThan(5).allSatisfy(s -> assertThat(s).isLessThanOrEqualTo(ListChunks.CHUNK_BYTES + 1_000));
  }

  @Test
  void emptyList_isOneChunk_withAnEmptyItemsArray() {
    ListChunks chunks = new ListChunks(new ApiResponse.ListBody(PODS, 5, null, null, List.of()));
    ByteArrayOutputStream body = new ByteArrayOutputStream();

    assertThat(drain(chunks, body)).hasSize(1);
    assertThat(body.toString(StandardCharsets.UTF_8))
        .isEqualTo("{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"5\"},\"items\":[]}");
    assertThat(chunks.length()).isEqualTo(body.size());
  }

  @Test
  void oneItem_isTheHeadTheItemAndTheTail_withoutAComma() {
    List<CachedObject> items = objects(1, 3);
    ListChunks chunks = new ListChunks(new ApiResponse.ListBody(PODS, 9, null, null, items));
    ByteArrayOutputStream body = new ByteArrayOutputStream();

    assertThat(drain(chunks, body)).hasSize(1);
    assertThat(body.toString(StandardCharsets.UTF_8)).isEqualTo("{\"kind\":\"PodList\",\"apiVersion\":\"v1\","
        + "\"metadata\":{\"resourceVersion\":\"9\"},\"items\":[{\"metadata\":{\"name\":\"p0\"},\"pad\":\"yyy\"}]}");
    assertThat(chunks.length()).isEqualTo(body.size());
  }
}
