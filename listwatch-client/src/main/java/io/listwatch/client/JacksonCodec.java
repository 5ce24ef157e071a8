package io.listwatch.client;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.DefaultDeserializationContext;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.listwatch.client.internal.Json;
import io.listwatch.client.internal.ReflectiveMetaAccessor;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;

/**
 * An {@link ObjectCodec} for any Jackson-mapped class, fabric8's model classes included
 * ({@code JacksonCodec.of(Pod.class)}).
 *
 * <p>Metadata is read through {@code getMetadata()} (or a record's {@code metadata()}) and
 * that object's {@code getName()}, {@code getNamespace()}, {@code getResourceVersion()},
 * {@code getUid()}, {@code getLabels()}, {@code getAnnotations()}, looked up once per class
 * as method handles; or through an explicit {@link MetaAccessor}. The default mapper ignores
 * unknown properties and leaves nulls out.
 *
 * <p>Thread-safe and stateless, as long as the mapper is not reconfigured after use.
 *
 * @param <T> the object type
 */
public final class JacksonCodec<T> implements ObjectCodec<T> {

  private final Class<T> type;
  private final ObjectMapper mapper;
  private final JavaType javaType;
  /** The mapper's root deserializer for {@code T}, looked up on first use. */
  private volatile JsonDeserializer<Object> rootDeserializer;
  private final ObjectWriter writer;
  private final MetaAccessor<T> meta;

  private JacksonCodec(Class<T> type, ObjectMapper mapper, MetaAccessor<T> meta) {
    this.type = Objects.requireNonNull(type, "type");
    Objects.requireNonNull(mapper, "mapper");
    this.mapper = mapper;
    this.javaType = mapper.constructType(type);
    this.writer = mapper.writerFor(type);
    this.meta = Objects.requireNonNull(meta, "meta");
  }

  /**
   * A codec for {@code type} with the default mapper.
   *
   * @throws IllegalArgumentException if {@code type} has no {@code getMetadata()} with the
   *     usual getters (use {@link #of(Class, ObjectMapper, MetaAccessor)} then)
   */
  public static <T> JacksonCodec<T> of(Class<T> type) {
    return of(type, Json.MAPPER);
  }

  /** A codec for {@code type} with {@code mapper}; metadata as in {@link #of(Class)}. */
  public static <T> JacksonCodec<T> of(Class<T> type, ObjectMapper mapper) {
    return new JacksonCodec<>(type, mapper, ReflectiveMetaAccessor.forType(type));
  }

  /** A codec for {@code type} with {@code mapper}, reading metadata with {@code meta}. */
  public static <T> JacksonCodec<T> of(Class<T> type, ObjectMapper mapper, MetaAccessor<T> meta) {
    return new JacksonCodec<>(type, mapper, meta);
  }

  /**
   * Binds the object at the parser with the mapper's deserializer for {@code T}, leaving the
   * parser on the object's {@code END_OBJECT} ({@code ObjectMapper.readValue} would clear
   * the current token, as it does for root values).
   */
  @Override
  public T decode(JsonParser parser) throws IOException {
    DeserializationConfig config = mapper.getDeserializationConfig();
    DefaultDeserializationContext context = ((DefaultDeserializationContext) mapper.getDeserializationContext())
        .createInstance(config, parser, mapper.getInjectableValues());
    JsonDeserializer<Object> deserializer = rootDeserializer;
    if (deserializer == null) { // resolved once; a race only resolves it twice
      deserializer = context.findRootValueDeserializer(javaType);
      rootDeserializer = deserializer;
    }
    Object value = deserializer.deserialize(parser, context);
    context.checkUnresolvedObjectId();
    return type.cast(value);
  }

  @Override
  public void encode(T object, JsonGenerator generator) throws IOException {
    writer.writeValue(generator, object);
  }

  @Override
  public Class<T> type() {
    return type;
  }

  @Override
  public String namespace(T object) {
    return meta.namespace(object);
  }

  @Override
  public String name(T object) {
    return meta.name(object);
  }

  @Override
  public String resourceVersion(T object) {
    return meta.resourceVersion(object);
  }

  @Override
  public String uid(T object) {
    return meta.uid(object);
  }

  @Override
  public Map<String, String> labels(T object) {
    return meta.labels(object);
  }

  @Override
  public Map<String, String> annotations(T object) {
    return meta.annotations(object);
  }

  @Override
  public String toString() {
    return "JacksonCodec[" + type.getName() + "]";
  }
}
