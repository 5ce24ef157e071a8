package io.listwatch.apiserver.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;
import io.listwatch.apiserver.registry.ResourceRegistry;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The v2 document in gnostic's openapi.v2 messages, read back field by field with the numbers of
 * gnostic's published OpenAPIv2.proto (Document 9 definitions, NamedSchema 1 name / 2 value,
 * Schema 1 _ref / 4 description / 19 required / 21 additionalProperties / 22 type / 23 items /
 * 25 properties / 31 vendor extensions, Any 2 yaml, ...).
 */
class OpenApiV2ProtobufTest {

  private static UnknownFieldSet parse(ByteString bytes) {
    try {
      return UnknownFieldSet.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new AssertionError(e);
    }
  }

  private static String string(UnknownFieldSet m, int field) {
    List<ByteString> values = m.getField(field).getLengthDelimitedList();
    return values.isEmpty() ? "" : values.get(0).toString(StandardCharsets.UTF_8);
  }

  private static UnknownFieldSet message(UnknownFieldSet m, int field) {
    return parse(m.getField(field).getLengthDelimitedList().get(0));
  }

  /** A repeated Named* field (1: name, 2: value) as a map, in order. */
  private static Map<String, UnknownFieldSet> named(UnknownFieldSet m, int field) {
    Map<String, UnknownFieldSet> out = new LinkedHashMap<>();
    for (ByteString b : m.getField(field).getLengthDelimitedList()) {
      UnknownFieldSet pair = parse(b);
      out.put(string(pair, 1), message(pair, 2));
    }
    return out;
  }

  @Test
  void document_mapsSwaggerJsonOntoGnosticsMessages() {
    String json = """
        {"swagger":"2.0","info":{"title":"Kubernetes","version":"v1.32.0"},
         "paths":{"/api/v1/pods":{"get":{"operationId":"listPods","produces":["application/json"],
           "parameters":[{"name":"watch","in":"query","uniqueItems":true,"type":"boolean"},
                         {"name":"body","in":"body","required":true,"schema":{"$ref":"#/definitions/P"}}],
           "responses":{"200":{"description":"OK","schema":{"$ref":"#/definitions/P"}}},
           "x-kubernetes-action":"list"}}},
         "definitions":{"P":{"type":"object","description":"a pod","required":["spec"],
           "properties":{"spec":{"type":"string","format":"byte"},
                         "tags":{"type":"array","items":{"type":"string"}},
                         "labels":{"type":"object","additionalProperties":{"type":"string"}},
                         "any":{"type":"object","additionalProperties":false,"x-kubernetes-preserve-unknown-fields":true}},
           "x-kubernetes-group-version-kind":[{"group":"","kind":"Pod","version":"v1"}]}}}""";

    UnknownFieldSet doc = parse(ByteString.copyFrom(OpenApiV2Protobuf.document(json.getBytes(StandardCharsets.UTF_8))));

    assertThat(string(doc, 1)).isEqualTo("2.0");
    assertThat(string(message(doc, 2), 1)).isEqualTo("Kubernetes");
    assertThat(string(message(doc, 2), 2)).isEqualTo("v1.32.0");

    UnknownFieldSet p = named(message(doc, 9), 1).get("P");
    assertThat(string(p, 4)).isEqualTo("a pod");
    assertThat(string(p, 19)).isEqualTo("spec");
    assertThat(string(message(p, 22), 1)).isEqualTo("object");
    Map<String, UnknownFieldSet> gvk = named(p, 31);
    assertThat(string(gvk.get("x-kubernetes-group-version-kind"), 2))
        .isEqualTo("[{\"group\":\"\",\"kind\":\"Pod\",\"version\":\"v1\"}]\n");
    Map<String, UnknownFieldSet> properties = named(message(p, 25), 1);
    assertThat(properties).containsOnlyKeys("spec", "tags", "labels", "any");
    assertThat(string(properties.get("spec"), 2)).isEqualTo("byte");
    assertThat(string(message(message(properties.get("tags"), 23), 1), 22)).isNotEmpty();
    assertThat(string(message(message(message(properties.get("tags"), 23), 1), 22), 1)).isEqualTo("string");
    UnknownFieldSet labelsValues = message(message(properties.get("labels"), 21), 1);
    assertThat(string(message(labelsValues, 22), 1)).isEqualTo("string");
    // additionalProperties: false is the oneof's boolean (2), written although false
    assertThat(message(properties.get("any"), 21).getField(2).getVarintList()).containsExactly(0L);
    assertThat(named(properties.get("any"), 31)).containsKey("x-kubernetes-preserve-unknown-fields");

    UnknownFieldSet get = message(named(message(doc, 8), 2).get("/api/v1/pods"), 2);
    assertThat(string(get, 5)).isEqualTo("listPods");
    assertThat(string(get, 6)).isEqualTo("application/json");
    assertThat(named(get, 13)).containsKey("x-kubernetes-action");
    List<ByteString> parameters = get.getField(8).getLengthDelimitedList();
    // ParametersItem 1: Parameter; 2: NonBodyParameter; 3: QueryParameterSubSchema (4 name, 6 type, 20 uniqueItems)
    UnknownFieldSet query = message(message(message(parse(parameters.get(0)), 1), 2), 3);
    assertThat(string(query, 4)).isEqualTo("watch");
    assertThat(string(query, 2)).isEqualTo("query");
    assertThat(string(query, 6)).isEqualTo("boolean");
    assertThat(query.getField(20).getVarintList()).containsExactly(1L);
    // Parameter 1: BodyParameter (2 name, 4 required, 5 schema)
    UnknownFieldSet body = message(message(parse(parameters.get(1)), 1), 1);
    assertThat(string(body, 2)).isEqualTo("body");
    assertThat(body.getField(4).getVarintList()).containsExactly(1L);
    assertThat(string(message(body, 5), 1)).isEqualTo("#/definitions/P");
    // Responses 1: NamedResponseValue; ResponseValue 1: Response (1 description, 2 SchemaItem 1 Schema)
    UnknownFieldSet ok = message(named(message(get, 9), 1).get("200"), 1);
    assertThat(string(ok, 1)).isEqualTo("OK");
    assertThat(string(message(message(ok, 2), 1), 1)).isEqualTo("#/definitions/P");
  }

  @Test
  void builtinDocument_describesEveryServedKind_withItsGroupVersionKind() {
    OpenApiDocuments docs = OpenApiDocuments.build(ResourceRegistry.builtins().all(),
        ProtoSchemas.builtins(BuiltinPatchMetadata.INSTANCE));

    UnknownFieldSet doc = parse(ByteString.copyFrom(docs.v2Protobuf().bytes()));

    Map<String, UnknownFieldSet> definitions = named(message(doc, 9), 1);
    UnknownFieldSet deployment = definitions.get("io.k8s.api.apps.v1.Deployment");
    assertThat(string(named(deployment, 31).get("x-kubernetes-group-version-kind"), 2))
        .contains("\"kind\":\"Deployment\"").contains("\"group\":\"apps\"");
    assertThat(named(message(deployment, 25), 1)).containsKeys("apiVersion", "kind", "metadata", "spec", "status");
    assertThat(definitions).containsKeys("io.k8s.api.core.v1.Pod", "io.k8s.api.batch.v1.Job",
        "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
    assertThat(docs.v2Protobuf()).isSameAs(docs.v2Protobuf());
    assertThat(docs.v2Protobuf().hash()).isNotEqualTo(docs.v2().hash());
  }
}
