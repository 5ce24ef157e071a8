package io.listwatch.client.cache;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import io.listwatch.client.ObjectCodec;
import java.util.Map;

/**
 * A tiny object for the informer tests: namespace, name, resourceVersion and a value.
 * Immutable.
 */
record InformerTestObject(String namespace, String name, String resourceVersion,
    String value) {

  /** Reads the metadata; encode/decode are not used by these tests (no wire). */
  static final ObjectCodec<InformerTestObject> CODEC = new ObjectCodec<>() {
    @Override public String namespace(InformerTestObject o) { return o.namespace(); }
    @Override public String name(InformerTestObject o) { return o.name(); }
    @Override public String resourceVersion(InformerTestObject o) { return o.resourceVersion(); }
    @Override public String uid(InformerTestObject o) { return o.namespace() + "/" + o.name(); }
    @Override public Map<String, String> labels(InformerTestObject o) { return Map.of(); }
    @Override public Map<String, String> annotations(InformerTestObject o) { return Map.of(); }

    @Override
    public InformerTestObject decode(JsonParser parser) {
      throw new UnsupportedOperationException("the informer tests use no wire format");
    }

    @Override
    public void encode(InformerTestObject object, JsonGenerator generator) {
      throw new UnsupportedOperationException("the informer tests use no wire format");
    }

    @Override
    public Class<InformerTestObject> type() {
      return InformerTestObject.class;
    }
  };

  static InformerTestObject obj(String namespace, String name, long rv) {
    return new InformerTestObject(namespace, name, Long.toString(rv), "");
  }

  static InformerTestObject obj(String namespace, String name, long rv, String value) {
    return new InformerTestObject(namespace, name, Long.toString(rv), value);
  }

  InformerTestObject withValue(String newValue) {
    return new InformerTestObject(namespace, name, resourceVersion, newValue);
  }

  String key() {
    return namespace.isEmpty() ? name : namespace + "/" + name;
  }
}
