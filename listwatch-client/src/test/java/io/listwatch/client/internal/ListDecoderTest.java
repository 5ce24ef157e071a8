package io.listwatch.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParser;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ObjectList;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class ListDecoderTest {

  private static ObjectList<DynamicObject> read(String json) throws IOException {
    try (JsonParser p = Json.FACTORY.createParser(json)) {
      return ListDecoder.read(p, DynamicObject.CODEC);
    }
  }

  @Test
  void readsItemsAndListMetadata_inAnyFieldOrder() throws IOException {
    ObjectList<DynamicObject> list = read("""
        {"kind":"PodList","items":[{"metadata":{"name":"a"}},{"metadata":{"name":"b"}}],
         "apiVersion":"v1","metadata":{"resourceVersion":"42","continue":"tok","remainingItemCount":7,"x":{"y":1}}}""");
    assertThat(list.items()).extracting(DynamicObject::name).containsExactly("a", "b");
    assertThat(list.resourceVersion()).isEqualTo("42");
    assertThat(list.continueToken()).isEqualTo("tok");
    assertThat(list.hasMore()).isTrue();
    assertThat(list.remainingItemCount()).hasValue(7);
  }

  @Test
  void nullOrMissingItems_areAnEmptyList() throws IOException {
    ObjectList<DynamicObject> nullItems = read("{\"metadata\":{\"resourceVersion\":\"3\"},\"items\":null}");
    assertThat(nullItems.items()).isEmpty();
    assertThat(nullItems.hasMore()).isFalse();
    assertThat(nullItems.remainingItemCount()).isEmpty();
    assertThat(read("{\"metadata\":{\"resourceVersion\":\"3\"}}").items()).isEmpty();
  }
}
