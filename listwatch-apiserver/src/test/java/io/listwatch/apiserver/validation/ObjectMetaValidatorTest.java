package io.listwatch.apiserver.validation;

import static io.listwatch.apiserver.validation.NameRulesTest.DNS1035_MSG;
import static io.listwatch.apiserver.validation.NameRulesTest.LABEL_MSG;
import static io.listwatch.apiserver.validation.NameRulesTest.LABEL_VALUE_MSG;
import static io.listwatch.apiserver.validation.NameRulesTest.QNAME_MSG;
import static io.listwatch.apiserver.validation.NameRulesTest.SUBDOMAIN_MSG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

class ObjectMetaValidatorTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final ResourceRegistry REGISTRY = ResourceRegistry.builtins();
  private static final ResourceDefinition PODS = def("", "pods");
  private static final ResourceDefinition SERVICES = def("", "services");
  private static final ResourceDefinition NAMESPACES = def("", "namespaces");
  private static final ResourceDefinition NODES = def("", "nodes");
  private static final ResourceDefinition EVENTS = def("", "events");
  private static final ResourceDefinition DEPLOYMENTS = def("apps", "deployments");

  private final ObjectMetaValidator validator = new ObjectMetaValidator();

  private static ResourceDefinition def(String group, String plural) {
    return REGISTRY.find(group, "v1", plural).orElseThrow();
  }

  private static ObjectNode obj(String json) {
    try {
      return (ObjectNode) MAPPER.readTree(json);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** An object whose metadata is {@code metadataJson}. */
  private static ObjectNode withMeta(String metadataJson) {
    return obj("{\"apiVersion\":\"v1\",\"kind\":\"X\",\"metadata\":" + metadataJson + "}");
  }

  private static Status.Cause invalid(String field, String valueLiteral, String msg) {
    return new Status.Cause("FieldValueInvalid", "Invalid value: " + valueLiteral + ": " + msg, field);
  }

  private List<Status.Cause> validate(ResourceDefinition def, String metadataJson) {
    return validator.validate(def, withMeta(metadataJson));
  }

  @Test
  void validate_acceptsValidNamespacedObject() {
    assertThat(validate(PODS, """
        {"name":"web-0","namespace":"default",
         "labels":{"app":"web","app.kubernetes.io/name":"web","empty":""},
         "annotations":{"Example.COM/Note":"anything at all: ✓","kubectl.kubernetes.io/last-applied-configuration":"{}"},
         "finalizers":["example.com/cleanup","foregroundDeletion"],"generation":3}""")).isEmpty();
  }

  @Test
  void validate_acceptsValidClusterScopedObject() {
    assertThat(validate(NODES, "{\"name\":\"node-1.example.com\"}")).isEmpty();
    assertThat(validate(NAMESPACES, "{\"name\":\"kube-system\"}")).isEmpty();
  }

  @Test
  void validate_rejectsUppercaseName() {
    assertThat(validate(PODS, "{\"name\":\"Foo\",\"namespace\":\"default\"}"))
        .containsExactly(invalid("metadata.name", "\"Foo\"", SUBDOMAIN_MSG));
  }

  @Test
  void validate_requiresName_withKubeMessage() {
    assertThat(validate(PODS, "{\"namespace\":\"default\"}")).containsExactly(new Status.Cause(
        "FieldValueRequired", "Required value: name or generateName is required", "metadata.name"));
    assertThat(validate(PODS, "{\"name\":\"\",\"namespace\":\"default\"}")).hasSize(1);
    assertThat(validate(PODS, "{\"name\":null,\"namespace\":\"default\"}")).hasSize(1);
  }

  @Test
  void validate_missingMetadata_requiresNameAndNamespace() {
    assertThat(validator.validate(PODS, obj("{\"kind\":\"Pod\"}")))
        .extracting(Status.Cause::field).containsExactly("metadata.name", "metadata.namespace");
    assertThat(validator.validate(PODS, obj("{\"metadata\":null}")))
        .extracting(Status.Cause::field).containsExactly("metadata.name", "metadata.namespace");
  }

  @Test
  void validate_rejectsNameOver253Characters_withLengthMessageOnly() {
    String name = "a".repeat(254);
    assertThat(validate(PODS, "{\"name\":\"" + name + "\",\"namespace\":\"default\"}"))
        .containsExactly(invalid("metadata.name", "\"" + name + "\"", "must be no more than 253 characters"));
  }

  @Test
  void validate_namespaceName_mustBeDns1123Label() {
    assertThat(validate(NAMESPACES, "{\"name\":\"a.b\"}"))
        .containsExactly(invalid("metadata.name", "\"a.b\"", "must not contain dots"));
    assertThat(validate(NAMESPACES, "{\"name\":\"" + "a".repeat(64) + "\"}"))
        .extracting(Status.Cause::message).containsExactly(
            "Invalid value: \"" + "a".repeat(64) + "\": must be no more than 63 characters");
  }

  @Test
  void validate_serviceName_mustStartWithLetter() {
    assertThat(validate(SERVICES, "{\"name\":\"1web\",\"namespace\":\"default\"}"))
        .containsExactly(invalid("metadata.name", "\"1web\"", DNS1035_MSG));
    assertThat(validate(SERVICES, "{\"name\":\"web.svc\",\"namespace\":\"default\"}"))
        .containsExactly(invalid("metadata.name", "\"web.svc\"", DNS1035_MSG));
    assertThat(validate(SERVICES, "{\"name\":\"web1\",\"namespace\":\"default\"}")).isEmpty();
  }

  @Test
  void validate_eventName_onlyFollowsPathSegmentRule() {
    assertThat(validate(EVENTS, "{\"name\":\"Web_Pod.17a3b2c\",\"namespace\":\"default\"}")).isEmpty();
    assertThat(validate(EVENTS, "{\"name\":\"a/b\",\"namespace\":\"default\"}"))
        .containsExactly(invalid("metadata.name", "\"a/b\"", "may not contain '/'"));
    assertThat(validate(EVENTS, "{\"name\":\"..\",\"namespace\":\"default\"}"))
        .containsExactly(invalid("metadata.name", "\"..\"", "may not be '..'"));
    assertThat(validate(EVENTS, "{\"name\":\"50%\",\"namespace\":\"default\"}"))
        .containsExactly(invalid("metadata.name", "\"50%\"", "may not contain '%'"));
  }

  @Test
  void validate_generateName_allowsTrailingDash() {
    assertThat(validate(PODS, "{\"generateName\":\"web-\",\"name\":\"web-x7k2q\",\"namespace\":\"default\"}"))
        .isEmpty();
  }

  @Test
  void validate_rejectsBadGenerateName_beforeName() {
    assertThat(validate(PODS, "{\"generateName\":\"Web-\",\"name\":\"Web-x7k2q\",\"namespace\":\"default\"}"))
        .containsExactly(
            invalid("metadata.generateName", "\"Web-\"", SUBDOMAIN_MSG),
            invalid("metadata.name", "\"Web-x7k2q\"", SUBDOMAIN_MSG));
  }

  @Test
  void validate_twoCharacterGenerateName_isMaskedAway_asInKube() {
    // kube's maskTrailingDash turns "G-" into "a" before checking it.
    assertThat(validate(PODS, "{\"generateName\":\"G-\",\"name\":\"g-abcde\",\"namespace\":\"default\"}"))
        .isEmpty();
  }

  @Test
  void validate_namespacedResource_requiresNamespace() {
    assertThat(validate(PODS, "{\"name\":\"web\"}"))
        .containsExactly(new Status.Cause("FieldValueRequired", "Required value", "metadata.namespace"));
  }

  @Test
  void validate_rejectsInvalidNamespace() {
    assertThat(validate(PODS, "{\"name\":\"web\",\"namespace\":\"Default\"}"))
        .containsExactly(invalid("metadata.namespace", "\"Default\"", LABEL_MSG));
  }

  @Test
  void validate_clusterScopedResource_forbidsNamespace() {
    assertThat(validate(NODES, "{\"name\":\"n1\",\"namespace\":\"default\"}")).containsExactly(
        new Status.Cause("FieldValueForbidden", "Forbidden: not allowed on this type", "metadata.namespace"));
    assertThat(validate(NODES, "{\"name\":\"n1\",\"namespace\":\"\"}")).isEmpty();
  }

  @Test
  void validate_rejectsNegativeGeneration() {
    assertThat(validate(DEPLOYMENTS, "{\"name\":\"d\",\"namespace\":\"default\",\"generation\":-1}"))
        .containsExactly(invalid("metadata.generation", "-1", "must be greater than or equal to 0"));
  }

  @Test
  void validate_rejectsBadLabelKey() {
    assertThat(validate(PODS, "{\"name\":\"web\",\"namespace\":\"default\",\"labels\":{\"bad key\":\"v\"}}"))
        .containsExactly(invalid("metadata.labels", "\"bad key\"", QNAME_MSG));
  }

  @Test
  void validate_rejectsLabelKeyWithUppercasePrefix() {
    assertThat(validate(PODS, "{\"name\":\"web\",\"namespace\":\"default\",\"labels\":{\"Example.com/a\":\"v\"}}"))
        .containsExactly(invalid("metadata.labels", "\"Example.com/a\"", "prefix part " + SUBDOMAIN_MSG));
  }

  @Test
  void validate_rejectsBadLabelValue() {
    assertThat(validate(PODS, "{\"name\":\"web\",\"namespace\":\"default\",\"labels\":{\"app\":\"-web\"}}"))
        .containsExactly(invalid("metadata.labels", "\"-web\"", LABEL_VALUE_MSG));
    String long64 = "v".repeat(64);
    assertThat(validate(PODS, "{\"name\":\"web\",\"namespace\":\"default\",\"labels\":{\"app\":\"" + long64 + "\"}}"))
        .containsExactly(invalid("metadata.labels", "\"" + long64 + "\"", "must be no more than 63 characters"));
  }

  @Test
  void validate_labelsInJsonOrder_keyErrorsBeforeValueErrors() {
    assertThat(validate(PODS,
        "{\"name\":\"web\",\"namespace\":\"default\",\"labels\":{\"b!\":\"x!\",\"a!\":\"ok\"}}"))
        .extracting(Status.Cause::message).containsExactly(
            "Invalid value: \"b!\": " + QNAME_MSG,
            "Invalid value: \"x!\": " + LABEL_VALUE_MSG,
            "Invalid value: \"a!\": " + QNAME_MSG);
  }

  @Test
  void validate_rejectsNonStringLabelValues_andNonObjectLabels() {
    assertThat(validate(PODS, "{\"name\":\"web\",\"namespace\":\"default\",\"labels\":{\"app\":5,\"x\":null}}"))
        .containsExactly(
            new Status.Cause("FieldValueTypeInvalid", "Invalid value: \"integer\": must be of type string",
                "metadata.labels[app]"),
            new Status.Cause("FieldValueTypeInvalid", "Invalid value: \"null\": must be of type string",
                "metadata.labels[x]"));
    assertThat(validate(PODS, "{\"name\":\"web\",\"namespace\":\"default\",\"labels\":[\"a\"]}"))
        .containsExactly(new Status.Cause("FieldValueTypeInvalid",
            "Invalid value: \"array\": must be of type object", "metadata.labels"));
  }

  @Test
  void validate_annotationKeys_areCaseInsensitiveQualifiedNames() {
    assertThat(validate(PODS, "{\"name\":\"web\",\"namespace\":\"default\",\"annotations\":{\"Example.COM/Foo\":\"x\"}}"))
        .isEmpty();
    assertThat(validate(PODS, "{\"name\":\"web\",\"namespace\":\"default\",\"annotations\":{\"-x\":\"y\"}}"))
        .containsExactly(invalid("metadata.annotations", "\"-x\"", QNAME_MSG));
  }

  @Test
  void validate_annotationsAtSizeLimit_areAccepted() {
    String value = "v".repeat(ObjectMetaValidator.TOTAL_ANNOTATION_SIZE_LIMIT_BYTES - 1);
    assertThat(validate(PODS, "{\"name\":\"web\",\"namespace\":\"default\",\"annotations\":{\"k\":\"" + value + "\"}}"))
        .isEmpty();
  }

  @Test
  void validate_rejectsAnnotationsOverSizeLimit_countingKeysAndUtf8Bytes() {
    // 'k' (1 byte) + 131072 'é' (2 bytes each) = 262145 bytes, one over the limit.
    String value = "é".repeat(ObjectMetaValidator.TOTAL_ANNOTATION_SIZE_LIMIT_BYTES / 2);
    assertThat(validate(PODS, "{\"name\":\"web\",\"namespace\":\"default\",\"annotations\":{\"k\":\"" + value + "\"}}"))
        .containsExactly(new Status.Cause("FieldValueTooLong", "Too long: may not be more than 262144 bytes",
            "metadata.annotations"));
  }

  @Test
  void validate_rejectsNonStringAnnotationValue() {
    assertThat(validate(PODS, "{\"name\":\"web\",\"namespace\":\"default\",\"annotations\":{\"a\":true}}"))
        .containsExactly(new Status.Cause("FieldValueTypeInvalid",
            "Invalid value: \"boolean\": must be of type string", "metadata.annotations[a]"));
  }

  @Test
  void validate_rejectsBadFinalizerNames() {
    assertThat(validate(PODS, "{\"name\":\"web\",\"namespace\":\"default\",\"finalizers\":[\"bad finalizer\"]}"))
        .containsExactly(invalid("metadata.finalizers", "\"bad finalizer\"", QNAME_MSG));
  }

  @Test
  void validate_rejectsOrphanTogetherWithForegroundDeletion() {
    assertThat(validate(PODS,
        "{\"name\":\"web\",\"namespace\":\"default\",\"finalizers\":[\"orphan\",\"foregroundDeletion\"]}"))
        .containsExactly(invalid("metadata.finalizers", "[]string{\"orphan\", \"foregroundDeletion\"}",
            "finalizer orphan and foregroundDeletion cannot be both set"));
  }

  @Test
  void validate_rejectsWronglyTypedMetadataFields() {
    assertThat(validator.validate(PODS, obj("{\"metadata\":[]}"))).containsExactly(new Status.Cause(
        "FieldValueTypeInvalid", "Invalid value: \"array\": must be of type object", "metadata"));
    assertThat(validate(PODS, "{\"name\":5,\"namespace\":\"default\"}"))
        .as("no Required cause on top of the type error")
        .containsExactly(new Status.Cause("FieldValueTypeInvalid",
            "Invalid value: \"integer\": must be of type string", "metadata.name"));
    assertThat(validate(PODS, "{\"name\":\"w\",\"namespace\":\"default\",\"generation\":\"1\"}"))
        .extracting(Status.Cause::field).containsExactly("metadata.generation");
    assertThat(validate(PODS, "{\"name\":\"w\",\"namespace\":\"default\",\"finalizers\":\"x\"}"))
        .extracting(Status.Cause::field).containsExactly("metadata.finalizers");
  }

  @Test
  void validate_quotesBadValuesLikeGo() {
    assertThat(validate(PODS, "{\"name\":\"a\\\"b\",\"namespace\":\"default\"}"))
        .extracting(Status.Cause::message).containsExactly("Invalid value: \"a\\\"b\": " + SUBDOMAIN_MSG);
  }

  @Test
  void validate_reportsEveryProblem_inKubeOrder() {
    assertThat(validate(PODS, """
        {"generateName":"GG-","name":"N","namespace":"NS","generation":-2,
         "labels":{"k!":"v"},"annotations":{"a!":"v"},"finalizers":["f!"]}"""))
        .extracting(Status.Cause::field).containsExactly(
            "metadata.generateName", "metadata.name", "metadata.namespace", "metadata.generation",
            "metadata.labels", "metadata.annotations", "metadata.finalizers");
  }

  @Test
  void validate_doesNotModifyObject() {
    ObjectNode object = withMeta("{\"name\":\"Bad\",\"labels\":{\"a\":1}}");
    ObjectNode before = object.deepCopy();
    validator.validate(PODS, object);
    assertThat(object).isEqualTo(before);
  }

  @Test
  void validate_returnsUnmodifiableList() {
    List<Status.Cause> causes = validate(PODS, "{}");
    assertThatThrownBy(causes::clear).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void check_passesValidObject() {
    assertThatCode(() -> ObjectMetaValidator.check(PODS, withMeta("{\"name\":\"web\",\"namespace\":\"default\"}")))
        .doesNotThrowAnyException();
  }

  @Test
  void check_throwsKubeInvalid_forCoreKind() {
    assertThatThrownBy(() -> ObjectMetaValidator.check(PODS, withMeta("{\"name\":\"Foo\",\"namespace\":\"default\"}")))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          Status s = e.status();
          assertThat(s.code()).isEqualTo(422);
          assertThat(s.reason()).isEqualTo("Invalid");
          assertThat(s.message()).isEqualTo(
              "Pod \"Foo\" is invalid: metadata.name: Invalid value: \"Foo\": " + SUBDOMAIN_MSG);
          assertThat(s.details().kind()).isEqualTo("Pod");
          assertThat(s.details().group()).isNull();
          assertThat(s.details().name()).isEqualTo("Foo");
          assertThat(s.details().causes()).containsExactly(invalid("metadata.name", "\"Foo\"", SUBDOMAIN_MSG));
        });
  }

  @Test
  void check_throwsKubeInvalid_withGroupQualifiedKind_andEveryCause() {
    assertThatThrownBy(() -> ObjectMetaValidator.check(DEPLOYMENTS, withMeta("{\"name\":\"X\"}")))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.status().message()).startsWith("Deployment.apps \"X\" is invalid: [metadata.name: ");
          assertThat(e.status().details().group()).isEqualTo("apps");
          assertThat(e.status().details().causes()).hasSize(2);
        });
  }

  @Test
  void check_withoutName_usesEmptyName() {
    assertThatThrownBy(() -> ObjectMetaValidator.check(NODES, withMeta("{}")))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.status().message())
            .isEqualTo("Node \"\" is invalid: metadata.name: Required value: name or generateName is required"));
  }
}
