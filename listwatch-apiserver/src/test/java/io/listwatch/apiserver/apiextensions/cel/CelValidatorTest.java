package io.listwatch.apiserver.apiextensions.cel;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.listwatch.api.schema.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each case: a schema with {@code x-kubernetes-validations}, a custom resource (and the stored
 * one on update), and the errors kube's 422 lists for it. Rules from kube's CRD documentation.
 */
class CelValidatorTest {

  private static final JsonMapper JSON = JsonMapper.builder()
      .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES).build();

  /** kube's documented replicas example, with a rule that has a message and one without. */
  private static final String REPLICAS = root("{'type':'object','properties':{"
      + "'minReplicas':{'type':'integer'},'replicas':{'type':'integer'},"
      + "'maxReplicas':{'type':'integer'}},"
      + "'x-kubernetes-validations':["
      + "{'rule':'self.minReplicas <= self.replicas',"
      + " 'message':'replicas should be greater than or equal to minReplicas.'},"
      + "{'rule':'self.replicas <= self.maxReplicas'}]}");

  static Stream<Arguments> cases() {
    return Stream.of(
        c("rules that hold", REPLICAS, "{'minReplicas':1,'replicas':5,'maxReplicas':10}", null),
        c("a rule with a message", REPLICAS,
            "{'minReplicas':6,'replicas':5,'maxReplicas':10}", null,
            "spec: Invalid value: \"object\": replicas should be greater than or equal to"
                + " minReplicas."),
        c("a rule without a message: failed rule", REPLICAS,
            "{'minReplicas':1,'replicas':20,'maxReplicas':10}", null,
            "spec: Invalid value: \"object\": failed rule: self.replicas <= self.maxReplicas"),
        c("both rules fail, in order", REPLICAS,
            "{'minReplicas':30,'replicas':20,'maxReplicas':10}", null,
            "spec: Invalid value: \"object\": replicas should be greater than or equal to"
                + " minReplicas.",
            "spec: Invalid value: \"object\": failed rule: self.replicas <= self.maxReplicas"),
        c("a field the rule reads is absent: no such key", REPLICAS,
            "{'minReplicas':1,'replicas':5}", null,
            "spec: Invalid value: \"object\": no such key: maxReplicas evaluating rule:"
                + " self.replicas <= self.maxReplicas"),
        c("has() guards an optional field",
            spec("'x':{'type':'string'},'y':{'type':'string'}",
                "{'rule':'has(self.x) || !has(self.y)','message':'y requires x'}"),
            "{'y':'b'}", null,
            "spec: Invalid value: \"object\": y requires x"),
        c("has() satisfied",
            spec("'x':{'type':'string'},'y':{'type':'string'}",
                "{'rule':'has(self.x) || !has(self.y)','message':'y requires x'}"),
            "{'x':'a','y':'b'}", null),
        c("a list rule runs once on the list",
            root("{'type':'object','properties':{'tags':{'type':'array','items':{'type':'string'},"
                + "'x-kubernetes-validations':[{'rule':'self.all(x, x.size() < 10)'}]}}}"),
            "{'tags':['short','much-too-long-tag']}", null,
            "spec.tags: Invalid value: \"array\": failed rule: self.all(x, x.size() < 10)"),
        c("an items rule runs on every item",
            root("{'type':'object','properties':{'tags':{'type':'array','items':{'type':'string',"
                + "'x-kubernetes-validations':[{'rule':'self.size() < 10',"
                + "'message':'too long'}]}}}}"),
            "{'tags':['short','much-too-long-tag','x','another-long-one']}", null,
            "spec.tags[1]: Invalid value: \"string\": too long",
            "spec.tags[3]: Invalid value: \"string\": too long"),
        c("a map-values rule runs on every value, at its key",
            root("{'type':'object','properties':{'labels':{'type':'object',"
                + "'additionalProperties':{'type':'string','x-kubernetes-validations':"
                + "[{'rule':'self.size() <= 5'}]}}}}"),
            "{'labels':{'app':'web','tier':'frontend'}}", null,
            "spec.labels[tier]: Invalid value: \"string\": failed rule: self.size() <= 5"),
        c("messageExpression gives the message", spec(
                "'replicas':{'type':'integer'},'maxReplicas':{'type':'integer'}",
                "{'rule':'self.replicas <= self.maxReplicas','messageExpression':"
                    + "'\"replicas \" + string(self.replicas) + \" exceeds \""
                    + " + string(self.maxReplicas)'}"),
            "{'replicas':12,'maxReplicas':10}", null,
            "spec: Invalid value: \"object\": replicas 12 exceeds 10"),
        c("a messageExpression that fails at runtime falls back to the message", spec(
                "'replicas':{'type':'integer'},'maxReplicas':{'type':'integer'}",
                "{'rule':'self.replicas <= self.maxReplicas','message':'too many',"
                    + "'messageExpression':'string(self.replicas / (self.maxReplicas - 10))'}"),
            "{'replicas':12,'maxReplicas':10}", null,
            "spec: Invalid value: \"object\": too many"),
        c("fieldPath moves the error to the field", spec(
                "'replicas':{'type':'integer'},'maxReplicas':{'type':'integer'}",
                "{'rule':'self.replicas <= self.maxReplicas','fieldPath':'.replicas',"
                    + "'message':'too many'}"),
            "{'replicas':12,'maxReplicas':10}", null,
            "spec.replicas: Invalid value: \"object\": too many"),
        c("fieldPath with a map key", root("{'type':'object','properties':{"
                + "'labels':{'type':'object','additionalProperties':{'type':'string'}}},"
                + "'x-kubernetes-validations':[{'rule':\"self.labels['app'] != 'x'\","
                + "'fieldPath':\".labels['app']\"}]}"),
            "{'labels':{'app':'x'}}", null,
            "spec.labels[app]: Invalid value: \"object\": failed rule: self.labels['app'] != 'x'"),
        c("reason FieldValueForbidden", spec("'x':{'type':'string'}",
                "{'rule':'!has(self.x)','message':'x is not allowed',"
                    + "'reason':'FieldValueForbidden'}"),
            "{'x':'a'}", null,
            "spec: Forbidden: x is not allowed"),
        c("reason FieldValueRequired", spec("'x':{'type':'string'}",
                "{'rule':'has(self.x)','message':'x is required','reason':'FieldValueRequired'}"),
            "{}", null,
            "spec: Required value: x is required"),
        c("reason FieldValueDuplicate", spec("'x':{'type':'string'}",
                "{'rule':'!has(self.x)','reason':'FieldValueDuplicate'}"),
            "{'x':'a'}", null,
            "spec: Duplicate value: \"object\""),
        c("a rule at the root reads metadata.name",
            "{'type':'object','properties':{'spec':{'type':'object'}},"
                + "'x-kubernetes-validations':[{'rule':\"self.metadata.name.startsWith('web-')\","
                + "'message':'name must start with web-'}]}",
            "{'apiVersion':'x.io/v1','kind':'Web','metadata':{'name':'api-1'},'spec':{}}", null,
            "Invalid value: \"object\": name must start with web-"),
        c("immutability on create: the transition rule is skipped", IMMUTABLE,
            "{'name':'a'}", null),
        c("immutability on update, unchanged", IMMUTABLE,
            "{'name':'a'}", "{'name':'a'}"),
        c("immutability on update, changed", IMMUTABLE,
            "{'name':'b'}", "{'name':'a'}",
            "spec.name: Invalid value: \"string\": Value is immutable"),
        c("a transition rule is skipped where the old value is absent", IMMUTABLE,
            "{'name':'b'}", "{}"),
        c("optionalOldSelf: the rule runs on create with oldSelf absent", spec(
                "'name':{'type':'string','x-kubernetes-validations':[{'rule':"
                    + "\"oldSelf.hasValue() ? self == oldSelf.value() : self.startsWith('v')\","
                    + "'optionalOldSelf':true,'message':'must start with v, then never change'}]}",
                null),
            "{'name':'a'}", null,
            "spec.name: Invalid value: \"string\": must start with v, then never change"),
        c("list-map items correlate by key, not position", PORTS,
            "{'ports':[{'name':'b','port':2},{'name':'a','port':3},{'name':'c','port':4}]}",
            "{'ports':[{'name':'a','port':1},{'name':'b','port':2}]}",
            "spec.ports[1]: Invalid value: \"object\": port is immutable"),
        c("an atomic object's fields do not correlate", root("{'type':'object',"
                + "'x-kubernetes-map-type':'atomic','properties':{'name':{'type':'string',"
                + "'x-kubernetes-validations':[{'rule':'self == oldSelf'}]}}}"),
            "{'name':'b'}", "{'name':'a'}"),
        c("int-or-string is dyn", spec("'port':{'x-kubernetes-int-or-string':true,"
                + "'x-kubernetes-validations':[{'rule':"
                + "\"type(self) == int ? self > 0 : self.endsWith('%')\"}]}", null),
            "{'port':'50'}", null,
            "spec.port: Invalid value: \"\": failed rule: type(self) == int ? self > 0 :"
                + " self.endsWith('%')"),
        c("preserve-unknown-fields is dyn", spec("'extra':{'type':'object',"
                + "'x-kubernetes-preserve-unknown-fields':true,'x-kubernetes-validations':"
                + "[{'rule':\"!has(self.debug) || self.debug == false\"}]}", null),
            "{'extra':{'debug':true,'other':1}}", null,
            "spec.extra: Invalid value: \"object\": failed rule: !has(self.debug) ||"
                + " self.debug == false"),
        c("a number written without a fraction is a double", spec(
                "'ratio':{'type':'number','x-kubernetes-validations':"
                    + "[{'rule':'self <= 1.0'}]}", null),
            "{'ratio':2}", null,
            "spec.ratio: Invalid value: \"number\": failed rule: self <= 1.0"),
        c("a property name that is not an identifier is escaped as kube escapes it", spec(
                "'max-surge':{'type':'integer'},'namespace':{'type':'string'}",
                "{'rule':\"self.max__dash__surge < 5 && self.__namespace__ != ''\"}"),
            "{'max-surge':7,'namespace':'a'}", null,
            "spec: Invalid value: \"object\": failed rule: self.max__dash__surge < 5 &&"
                + " self.__namespace__ != ''"),
        c("formatted strings are timestamps, durations and bytes", spec(
                "'start':{'type':'string','format':'date-time'},"
                    + "'day':{'type':'string','format':'date'},"
                    + "'timeout':{'type':'string','format':'duration'},"
                    + "'data':{'type':'string','format':'byte'}",
                "{'rule':\"self.start > timestamp('2024-01-01T00:00:00Z')\",'message':'start'},"
                    + "{'rule':\"self.day < self.start\",'message':'day'},"
                    + "{'rule':\"self.timeout <= duration('1h')\",'message':'timeout'},"
                    + "{'rule':\"size(self.data) == 5\",'message':'data'}"),
            "{'start':'2023-06-01T10:00:00+02:00','day':'2023-07-01',"
                + "'timeout':'1h30m','data':'aGVsbG8='}", null,
            "spec: Invalid value: \"object\": start",
            "spec: Invalid value: \"object\": day",
            "spec: Invalid value: \"object\": timeout"),
        c("kube's URL functions", spec("'endpoint':{'type':'string'}",
                "{'rule':\"isURL(self.endpoint) && url(self.endpoint).getScheme() == 'https'\","
                    + "'message':'scheme'},"
                    + "{'rule':\"url(self.endpoint).getHost() == 'example.com:8443' &&"
                    + " url(self.endpoint).getHostname() == 'example.com' &&"
                    + " url(self.endpoint).getPort() == '8443'\",'message':'host'},"
                    + "{'rule':\"url(self.endpoint).getEscapedPath() == '/a%20b' &&"
                    + " url(self.endpoint).getQuery()['k'] == ['1', '2']\",'message':'path'},"
                    + "{'rule':\"!isURL('not a url')\",'message':'isURL'}"),
            "{'endpoint':'https://example.com:8443/a%20b?k=1&k=2'}", null),
        c("url() of a string that is not a URL fails to evaluate", spec(
                "'endpoint':{'type':'string'}",
                "{'rule':\"url(self.endpoint).getScheme() == 'https'\"}"),
            "{'endpoint':'example'}", null,
            "spec: Invalid value: \"object\": URL parse error during conversion from string:"
                + " parse \"example\": invalid URI for request evaluating rule:"
                + " url(self.endpoint).getScheme() == 'https'"),
        c("kube's quantity functions", spec("'memory':{'type':'string'},'cpu':{'type':'string'}",
                "{'rule':\"quantity(self.memory).isLessThan(quantity('2Gi'))\",'message':'lt'},"
                    + "{'rule':\"quantity(self.cpu) == quantity('0.5')\",'message':'eq'},"
                    + "{'rule':\"quantity(self.memory).add(quantity('512Mi')).compareTo("
                    + "quantity('1.5Gi')) == 0\",'message':'add'},"
                    + "{'rule':\"quantity(self.memory).isInteger() &&"
                    + " quantity(self.memory).asInteger() == 1073741824 &&"
                    + " !quantity(self.cpu).isInteger()\",'message':'int'},"
                    + "{'rule':\"isQuantity(self.cpu) && !isQuantity('1Zi')\",'message':'is'}"),
            "{'memory':'1Gi','cpu':'500m'}", null),
        c("a quantity over the limit", spec("'memory':{'type':'string'}",
                "{'rule':\"quantity(self.memory).isLessThan(quantity('2Gi'))\","
                    + "'message':'memory must be under 2Gi'}"),
            "{'memory':'3G'}", null,
            "spec: Invalid value: \"object\": memory must be under 2Gi"),
        c("kube's CIDR and IP functions: isCIDR(self) on a string field",
            root("{'type':'object','properties':{'cidr':{'type':'string',"
                + "'x-kubernetes-validations':[{'rule':'isCIDR(self)',"
                + "'message':'must be a valid CIDR'}]},"
                + "'gateway':{'type':'string','x-kubernetes-validations':[{'rule':"
                + "\"isIP(self) && ip(self).family() == 4 && ip.isCanonical(self)\"}]}},"
                + "'x-kubernetes-validations':[{'rule':"
                + "'cidr(self.cidr).containsIP(self.gateway)','message':'gateway outside cidr'}]}"),
            "{'cidr':'10.0.0.0/24','gateway':'10.0.0.1'}", null),
        c("isCIDR(self) refuses what is not a CIDR",
            root("{'type':'object','properties':{'cidr':{'type':'string',"
                + "'x-kubernetes-validations':[{'rule':'isCIDR(self)',"
                + "'message':'must be a valid CIDR'}]},"
                + "'gateway':{'type':'string'}},"
                + "'x-kubernetes-validations':[{'rule':"
                + "'cidr(self.cidr).containsIP(self.gateway)','message':'gateway outside cidr'}]}"),
            "{'cidr':'10.0.0.0/33','gateway':'10.0.1.1'}", null,
            "spec: Invalid value: \"object\": network address parse error during conversion from"
                + " string: network address parse error during conversion from string:"
                + " netip.ParsePrefix(\"10.0.0.0/33\"): prefix length out of range evaluating"
                + " rule: gateway outside cidr",
            "spec.cidr: Invalid value: \"string\": must be a valid CIDR"),
        c("null values are not evaluated", IMMUTABLE, "{'name':null}", "{'name':'a'}"),
        c("string and list functions kube offers", spec(
                "'name':{'type':'string'},'nums':{'type':'array','items':{'type':'integer'}},"
                    + "'tags':{'type':'array','items':{'type':'string'}}",
                "{'rule':\"self.name.lowerAscii() == self.name\",'message':'lower'},"
                    + "{'rule':\"self.name.split('-').size() <= 2\",'message':'split'},"
                    + "{'rule':\"self.tags.join(',') == 'a,b'\",'message':'join'},"
                    + "{'rule':\"self.name.find('[0-9]+') == '12'\",'message':'find'},"
                    + "{'rule':\"self.name.findAll('[a-z]') == ['a','b']\",'message':'findAll'},"
                    + "{'rule':\"self.name.matches('^[a-z]+-[0-9]+$')\",'message':'matches'},"
                    + "{'rule':'self.nums.isSorted()','message':'isSorted'},"
                    + "{'rule':'self.nums.sum() == 6 && self.nums.min() == 1 &&"
                    + " self.nums.max() == 3','message':'sum'},"
                    + "{'rule':'self.nums.indexOf(2) == 1','message':'indexOf'},"
                    + "{'rule':\"self.tags.exists_one(t, t == 'a') && self.tags.map(t, t +"
                    + " 'x').filter(t, t.endsWith('x')).size() == 2\",'message':'macros'},"
                    + "{'rule':\"self.name.upperAscii().startsWith('AB') &&"
                    + " self.name.contains('-')\",'message':'upper'}"),
            "{'name':'ab-12','nums':[1,2,3],'tags':['a','b']}", null),
        c("the same functions reject", spec(
                "'name':{'type':'string'},'nums':{'type':'array','items':{'type':'integer'}}",
                "{'rule':\"self.name.lowerAscii() == self.name\",'message':'lower'},"
                    + "{'rule':'self.nums.isSorted()','message':'isSorted'}"),
            "{'name':'Ab','nums':[3,1]}", null,
            "spec: Invalid value: \"object\": lower",
            "spec: Invalid value: \"object\": isSorted"));
  }

  private static final String IMMUTABLE = spec("'name':{'type':'string',"
      + "'x-kubernetes-validations':[{'rule':'self == oldSelf','message':'Value is immutable'}]}",
      null);

  private static final String PORTS = root("{'type':'object','properties':{'ports':{"
      + "'type':'array','x-kubernetes-list-type':'map','x-kubernetes-list-map-keys':['name'],"
      + "'items':{'type':'object','required':['name'],'properties':{'name':{'type':'string'},"
      + "'port':{'type':'integer'}},'x-kubernetes-validations':[{'rule':"
      + "'self.port == oldSelf.port','message':'port is immutable'}]}}}}");

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void validate_reportsKubesErrors(String name, String schema, String spec, String oldSpec,
      List<String> expected) {
    assertThat(CelValidator.compileErrors(json(schema), "openAPIV3Schema")).isEmpty();
    CelValidator validator = CelValidator.compile(json(schema));
    List<FieldError> errors = validator.validate(object(spec),
        oldSpec == null ? null : object(oldSpec));
    assertThat(errors).map(FieldError::toString).containsExactlyElementsOf(expected);
  }

  @Test
  void validate_stopsARuleAtThePerCallCostLimit() {
    String schema = root("{'type':'object','properties':{'nums':{'type':'array',"
        + "'items':{'type':'integer'},'x-kubernetes-validations':["
        + "{'rule':'self.all(x, self.all(y, x + y > -1))'}]}}}");
    CelValidator validator = CelValidator.compile(json(schema));
    assertThat(validator.validate(object("{'nums':" + numbers(20) + "}"), null)).isEmpty();

    List<FieldError> errors = validator.validate(object("{'nums':" + numbers(500) + "}"), null);

    assertThat(errors).map(FieldError::toString).containsExactly(
        "spec.nums: Invalid value: \"array\": 'operation cancelled: actual cost limit exceeded':"
            + " no further validation rules will be run due to call cost exceeds limit for rule:"
            + " self.all(x, self.all(y, x + y > -1))");
  }

  @Test
  void validate_stopsAllRulesWhenTheWritesBudgetIsSpent() {
    // each item costs under the per-call limit; together they pass the per-write budget
    // (kube's 10,000,000 made smaller, as kube's own tests do, to keep the test quick)
    String schema = root("{'type':'object','properties':{'groups':{'type':'array',"
        + "'items':{'type':'object','properties':{'nums':{'type':'array',"
        + "'items':{'type':'integer'}}},'x-kubernetes-validations':["
        + "{'rule':'self.nums.all(x, self.nums.all(y, x + y > -1))'}]}}}}");
    CelValidator validator = CelValidator.compile(json(schema));
    StringBuilder groups = new StringBuilder("[");
    for (int i = 0; i < 20; i++) {
      groups.append(i > 0 ? "," : "").append("{'nums':").append(numbers(30)).append('}');
    }
    JsonNode object = object("{'groups':" + groups.append(']') + "}");
    assertThat(validator.validate(object, null)).isEmpty();

    List<FieldError> errors = validator.validate(object, null, 50_000);

    assertThat(errors).map(FieldError::toString).hasSize(1).first().asString()
        .matches("spec\\.groups\\[\\d+\\]: Invalid value: \"object\": validation failed due to"
            + " running out of cost budget, no further validation rules will be run");
  }

  @Test
  void validate_isSafeFromManyThreads() throws Exception {
    CelValidator validator = CelValidator.compile(json(PORTS));
    JsonNode bad = object("{'ports':[{'name':'a','port':3}]}");
    JsonNode good = object("{'ports':[{'name':'a','port':1}]}");
    JsonNode old = object("{'ports':[{'name':'a','port':1}]}");
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        boolean expectBad = i % 2 == 0;
        results.add(pool.submit(() -> {
          List<FieldError> errors = validator.validate(expectBad ? bad : good, old);
          return expectBad ? errors.size() == 1
              && errors.get(0).field().equals("spec.ports[0]") : errors.isEmpty();
        }));
      }
      for (Future<Boolean> r : results) {
        assertThat(r.get()).isTrue();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void validateAfterSchema_skipsTheRules_whenTheSchemaFoundABlockingError() {
    CelValidator validator = CelValidator.compile(json(REPLICAS));
    JsonNode object = object("{'minReplicas':1,'replicas':20,'maxReplicas':10}");

    assertThat(validator.validateAfterSchema(
        List.of(FieldError.required("spec.image", "")), object, null))
        .map(FieldError::toString).containsExactly("<nil>: Invalid value: \"null\": some"
            + " validation rules were not checked because the object was invalid; correct the"
            + " existing errors to complete validation");
    assertThat(validator.validateAfterSchema(
        List.of(FieldError.invalid("spec.replicas", 20, "must be less than 11")), object, null))
        .map(FieldError::toString).containsExactly("spec: Invalid value: \"object\": failed"
            + " rule: self.replicas <= self.maxReplicas");
  }

  @Test
  void compile_withoutRules_acceptsEverything() {
    CelValidator validator = CelValidator.compile(json(root("{'type':'object'}")));
    assertThat(validator.hasRules()).isFalse();
    assertThat(validator.validate(object("{'a':1}"), null)).isEmpty();
  }

  static String numbers(int n) {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < n; i++) {
      b.append(i > 0 ? "," : "").append(i);
    }
    return b.append(']').toString();
  }

  /** A resource schema whose {@code spec} is {@code specSchema}. */
  static String root(String specSchema) {
    return "{'type':'object','properties':{'spec':" + specSchema + "}}";
  }

  /** A resource schema whose {@code spec} has these properties and rules. */
  static String spec(String properties, String rules) {
    return root("{'type':'object','properties':{" + properties + "}"
        + (rules == null ? "" : ",'x-kubernetes-validations':[" + rules + "]") + "}");
  }

  static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (Exception e) {
      throw new IllegalArgumentException(text, e);
    }
  }

  private static JsonNode object(String spec) {
    if (spec.contains("'apiVersion'")) {
      return json(spec);
    }
    return json("{'apiVersion':'x.io/v1','kind':'Web','metadata':{'name':'w'},'spec':"
        + spec + "}");
  }

  private static Arguments c(String name, String schema, String spec, String oldSpec,
      String... expected) {
    return Arguments.of(name, schema, spec, oldSpec, List.of(expected));
  }
}
