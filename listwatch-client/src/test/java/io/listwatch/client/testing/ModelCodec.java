package io.listwatch.client.testing;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.listwatch.client.ObjectCodec;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * A test-only codec for fabric8 model classes (the real codecs live elsewhere): Jackson
 * reads and writes the object, metadata comes from {@code getMetadata()}. Thread-safe.
 */
final class ModelCodec<T extends HasMetadata> implements ObjectCodec<T> {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final Class<T> type;

  private ModelCodec(Class<T> type) {
    this.type = type;
  }

  static <T extends HasMetadata> ModelCodec<T> of(Class<T> type) {
    return new ModelCodec<>(type);
  }

  @Override
  public T decode(JsonParser parser) throws IOException {
    return MAPPER.readValue(parser, type);
  }

  @Override
  public void encode(T object, JsonGenerator generator) throws IOException {
    MAPPER.writeValue(generator, object);
  }

  @Override
  public Class<T> type() {
    return type;
  }

  @Override
  public String namespace(T object) {
    return meta(object, ObjectMeta::getNamespace);
  }

  @Override
  public String name(T object) {
    return meta(object, ObjectMeta::getName);
  }

  @Override
  public String resourceVersion(T object) {
    return meta(object, ObjectMeta::getResourceVersion);
  }

  @Override
  public String uid(T object) {
    return meta(object, ObjectMeta::getUid);
  }

  @Override
  public Map<String, String> labels(T object) {
    return object.getMetadata() == null || object.getMetadata().getLabels() == null
        ? Map.of() : Map.copyOf(object.getMetadata().getLabels());
  }

  @Override
  public Map<String, String> annotations(T object) {
    return object.getMetadata() == null || object.getMetadata().getAnnotations() == null
        ? Map.of() : Map.copyOf(object.getMetadata().getAnnotations());
  }

  private static <T extends HasMetadata> String meta(T object, Function<ObjectMeta, String> field) {
    return object.getMetadata() == null ? "" : Objects.requireNonNullElse(field.apply(object.getMetadata()), "");
  }
}
