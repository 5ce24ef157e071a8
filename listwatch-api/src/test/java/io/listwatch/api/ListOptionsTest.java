package io.listwatch.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ListOptionsTest {

  // ---- decoding ----

  @Test
  void parse_noParameters_givesAPlainListOfEverything() {
    ListOptions o = ListOptions.parse(Map.of());
    assertThat(o.labelSelector().isEverything()).isTrue();
    assertThat(o.fieldSelector().isEverything()).isTrue();
    assertThat(o.resourceVersion()).isEmpty();
    assertThat(o.resourceVersionMatch()).isEqualTo(ResourceVersionMatch.UNSET);
    assertThat(o.limit()).isZero();
    assertThat(o.continueToken()).isEmpty();
    assertThat(o.watch()).isFalse();
    assertThat(o.allowWatchBookmarks()).isFalse();
    assertThat(o.sendInitialEvents()).isNull();
    assertThat(o.timeoutSeconds()).isNull();
    assertThat(ListOptions.parse(null)).isEqualTo(o);
    assertThat(ListOptions.builder().build()).isEqualTo(o);
  }

  @Test
  void parse_readsTheReflectorsWatch() {
    ListOptions o = parse("allowWatchBookmarks=true&resourceVersion=123&timeoutSeconds=431"
        + "&watch=true&labelSelector=app=web&fieldSelector=metadata.name=web-1");
    assertThat(o.watch()).isTrue();
    assertThat(o.allowWatchBookmarks()).isTrue();
    assertThat(o.resourceVersion()).isEqualTo("123");
    assertThat(o.resourceVersionNumber()).hasValue(123);
    assertThat(o.timeoutSeconds()).isEqualTo(431L);
    assertThat(o.labelSelector()).isEqualTo(LabelSelector.parse("app=web"));
    assertThat(o.fieldSelector()).isEqualTo(FieldSelector.parse("metadata.name=web-1"));
  }

  @Test
  void parse_readsAPagedList() {
    ListOptions o = parse("limit=500&continue=abc&resourceVersion=0");
    assertThat(o.limit()).isEqualTo(500);
    assertThat(o.continueToken()).isEqualTo("abc");
    assertThat(o.resourceVersionNumber()).hasValue(0);
  }

  @ParameterizedTest
  @ValueSource(strings = {"true", "1", "", "TRUE", "yes", "anything"})
  void parse_takesAnyBooleanValueButZeroOrFalseAsTrue_likeKube(String value) {
    ListOptions o = ListOptions.parse(Map.of("watch", List.of(value),
        "allowWatchBookmarks", List.of(value)));
    assertThat(o.watch()).isTrue();
    assertThat(o.allowWatchBookmarks()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"false", "0", "False", "FALSE"})
  void parse_takesZeroOrFalseAsFalse(String value) {
    assertThat(ListOptions.parse(Map.of("watch", List.of(value))).watch()).isFalse();
  }

  @Test
  void parse_usesTheFirstValueOfARepeatedParameter() {
    ListOptions o = ListOptions.parse(Map.of("limit", List.of("5", "7"),
        "watch", List.of("0", "1")));
    assertThat(o.limit()).isEqualTo(5);
    assertThat(o.watch()).isFalse();
  }

  @Test
  void parse_treatsAnEmptyValueListAsAbsent() {
    ListOptions o = ListOptions.parse(Map.of("limit", List.of(), "sendInitialEvents", List.of()));
    assertThat(o.limit()).isZero();
    assertThat(o.sendInitialEvents()).isNull();
  }

  @Test
  void parse_ignoresUnknownParameters() {
    assertThat(parse("pretty=true&includeObject=Object&foo")).isEqualTo(ListOptions.parse(Map.of()));
  }

  @Test
  void parse_storesANegativeLimitAsZero() {
    assertThat(parse("limit=-5").limit()).isZero();
    assertThat(ListOptions.parse(Map.of("limit", List.of("+5"))).limit()).isEqualTo(5);
  }

  @Test
  void parse_keepsTimeoutSecondsAsGiven() {
    assertThat(parse("watch=1&timeoutSeconds=0").timeoutSeconds()).isZero();
    assertThat(parse("watch=1&timeoutSeconds=-1").timeoutSeconds()).isEqualTo(-1L);
  }

  @Test
  void parse_readsSendInitialEventsFalseAsPresent() {
    ListOptions o = parse("watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan");
    assertThat(o.sendInitialEvents()).isFalse();
  }

  @Test
  void parse_rejectsNonIntegerLimit() {
    StatusException e = badRequest(() -> parse("limit=ten"));
    assertThat(e.getMessage()).isEqualTo(
        "limit: Invalid value: \"ten\": strconv.ParseInt: parsing \"ten\": invalid syntax");
    badRequest(() -> parse("limit="));
    badRequest(() -> parse("limit=1.5"));
    assertThat(badRequest(() -> parse("limit=99999999999999999999")).getMessage())
        .endsWith("value out of range");
  }

  @Test
  void parse_rejectsNonIntegerTimeoutSeconds() {
    assertThat(badRequest(() -> parse("watch=1&timeoutSeconds=5s")).getMessage())
        .isEqualTo("timeoutSeconds: Invalid value: \"5s\": "
            + "strconv.ParseInt: parsing \"5s\": invalid syntax");
  }

  @Test
  void parse_rejectsBadSelectors() {
    assertThat(badRequest(() -> parse("labelSelector=x in (a")).getMessage())
        .startsWith("unable to parse requirement: ");
    assertThat(badRequest(() -> parse("fieldSelector=metadata.name")).getMessage())
        .startsWith("invalid selector: ");
  }

  @ParameterizedTest
  @ValueSource(strings = {"abc", "-1", "+1", "1.0", " 1", "0x10"})
  void parse_rejectsNonNumericResourceVersion(String rv) {
    StatusException e = badRequest(() -> ListOptions.parse(
        Map.of("resourceVersion", List.of(rv))));
    assertThat(e.getMessage()).isEqualTo("resourceVersion: Invalid value: \"" + rv
        + "\": strconv.ParseUint: parsing \"" + rv + "\": invalid syntax");
  }

  @Test
  void resourceVersionNumber_isEmptyWhenUnset() {
    assertThat(parse("").resourceVersionNumber()).isEmpty();
    assertThat(parse("resourceVersion=").resourceVersionNumber()).isEmpty();
    assertThat(parse("resourceVersion=9223372036854775807").resourceVersionNumber())
        .hasValue(Long.MAX_VALUE);
  }

  // ---- ValidateListOptions: lists ----

  @Test
  void list_acceptsResourceVersionMatchWithResourceVersion() {
    assertThat(parse("resourceVersion=5&resourceVersionMatch=NotOlderThan")
        .resourceVersionMatch()).isEqualTo(ResourceVersionMatch.NOT_OLDER_THAN);
    assertThat(parse("resourceVersion=5&resourceVersionMatch=Exact").resourceVersionMatch())
        .isEqualTo(ResourceVersionMatch.EXACT);
    assertThat(parse("resourceVersion=0&resourceVersionMatch=NotOlderThan")
        .resourceVersionMatch()).isEqualTo(ResourceVersionMatch.NOT_OLDER_THAN);
    assertThat(parse("resourceVersion=5&resourceVersionMatch=").resourceVersionMatch())
        .isEqualTo(ResourceVersionMatch.UNSET);
  }

  @Test
  void list_rejectsResourceVersionMatchWithoutResourceVersion() {
    StatusException e = invalid(() -> parse("resourceVersionMatch=NotOlderThan"));
    assertThat(e.getMessage()).isEqualTo("ListOptions.meta.k8s.io \"\" is invalid: "
        + "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless "
        + "resourceVersion is provided");
    assertThat(e.status().details().causes()).containsExactly(new Status.Cause(
        Reasons.FIELD_VALUE_FORBIDDEN,
        "Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided",
        "resourceVersionMatch"));
  }

  @Test
  void list_rejectsResourceVersionMatchWithContinue() {
    StatusException e = invalid(() -> parse(
        "resourceVersion=5&resourceVersionMatch=Exact&continue=tok"));
    assertThat(e.getMessage()).endsWith(
        "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is "
            + "provided");
  }

  @Test
  void list_rejectsExactAtResourceVersionZero() {
    StatusException e = invalid(() -> parse("resourceVersion=0&resourceVersionMatch=Exact"));
    assertThat(e.getMessage()).isEqualTo("ListOptions.meta.k8s.io \"\" is invalid: "
        + "resourceVersionMatch: Forbidden: resourceVersionMatch \"exact\" is forbidden for "
        + "resourceVersion \"0\"");
  }

  @Test
  void list_rejectsUnknownResourceVersionMatch_asNotSupported() {
    StatusException e = invalid(() -> parse("resourceVersion=5&resourceVersionMatch=exact"));
    assertThat(e.getMessage()).isEqualTo("ListOptions.meta.k8s.io \"\" is invalid: "
        + "resourceVersionMatch: Unsupported value: \"exact\": supported values: \"Exact\", "
        + "\"NotOlderThan\", \"\"");
    assertThat(e.status().details().causes()).singleElement().satisfies(c -> {
      assertThat(c.reason()).isEqualTo(Reasons.FIELD_VALUE_NOT_SUPPORTED);
      assertThat(c.field()).isEqualTo("resourceVersionMatch");
    });
  }

  @Test
  void list_rejectsSendInitialEvents_evenFalse() {
    for (String value : new String[] {"true", "false"}) {
      StatusException e = invalid(() -> parse("sendInitialEvents=" + value));
      assertThat(e.getMessage()).isEqualTo("ListOptions.meta.k8s.io \"\" is invalid: "
          + "sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list");
      assertThat(e.status().details().causes()).singleElement()
          .extracting(Status.Cause::field).isEqualTo("sendInitialEvents");
    }
  }

  @Test
  void list_reportsEveryViolatedRule_inKubesOrder() {
    StatusException e = invalid(() -> parse(
        "resourceVersionMatch=Foo&continue=tok&sendInitialEvents=true"));
    assertThat(e.status().details().causes()).extracting(Status.Cause::message).containsExactly(
        "Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided",
        "Forbidden: resourceVersionMatch is forbidden when continue is provided",
        "Unsupported value: \"Foo\": supported values: \"Exact\", \"NotOlderThan\", \"\"",
        "Forbidden: sendInitialEvents is forbidden for list");
    assertThat(e.getMessage()).startsWith("ListOptions.meta.k8s.io \"\" is invalid: [")
        .endsWith("]");
  }

  @Test
  void validation_comesBeforeTheResourceVersionFormat() {
    invalid(() -> parse("resourceVersion=abc&resourceVersionMatch=Bogus"));
  }

  @Test
  void list_rejectsContinueWithAResourceVersion_butNotWithZero() {
    assertThat(badRequest(() -> parse("continue=tok&resourceVersion=5")).getMessage())
        .isEqualTo("specifying resource version is not allowed when using continue");
    assertThat(parse("continue=tok&resourceVersion=0").continueToken()).isEqualTo("tok");
    assertThat(parse("continue=tok&watch=1&resourceVersion=5").watch()).isTrue();
  }

  // ---- ValidateListOptions: watches ----

  @Test
  void watch_acceptsAStreamingList() {
    ListOptions o = parse("watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan"
        + "&allowWatchBookmarks=true");
    assertThat(o.sendInitialEvents()).isTrue();
    assertThat(o.resourceVersionMatch()).isEqualTo(ResourceVersionMatch.NOT_OLDER_THAN);
    assertThat(o.resourceVersionNumber()).isEmpty();
  }

  @Test
  void watch_rejectsSendInitialEventsWithoutNotOlderThan() {
    StatusException e = invalid(() -> parse("watch=true&sendInitialEvents=true"));
    assertThat(e.getMessage()).isEqualTo("ListOptions.meta.k8s.io \"\" is invalid: "
        + "resourceVersionMatch: Forbidden: sendInitialEvents requires setting "
        + "resourceVersionMatch to NotOlderThan");
  }

  @Test
  void watch_rejectsResourceVersionMatchWithoutSendInitialEvents() {
    StatusException e = invalid(() -> parse(
        "watch=true&resourceVersion=5&resourceVersionMatch=NotOlderThan"));
    assertThat(e.getMessage()).isEqualTo("ListOptions.meta.k8s.io \"\" is invalid: "
        + "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless "
        + "sendInitialEvents is provided");
  }

  @Test
  void watch_rejectsExact_asNotSupported() {
    StatusException e = invalid(() -> parse(
        "watch=true&sendInitialEvents=true&resourceVersionMatch=Exact"));
    assertThat(e.status().details().causes()).extracting(Status.Cause::message).containsExactly(
        "Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
        "Unsupported value: \"Exact\": supported values: \"NotOlderThan\"");
    assertThat(e.status().details().causes()).extracting(Status.Cause::reason).containsExactly(
        Reasons.FIELD_VALUE_FORBIDDEN, Reasons.FIELD_VALUE_NOT_SUPPORTED);
  }

  @Test
  void watch_rejectsResourceVersionMatchWithContinue() {
    StatusException e = invalid(() -> parse("watch=true&sendInitialEvents=true"
        + "&resourceVersionMatch=NotOlderThan&continue=tok"));
    assertThat(e.getMessage()).endsWith(
        "resourceVersionMatch is forbidden when continue is provided");
  }

  @Test
  void invalidErrors_carryKindListOptionsInGroupMetaK8sIo() {
    StatusException e = invalid(() -> parse("resourceVersionMatch=Exact"));
    Status s = e.status();
    assertThat(s.kind()).isEqualTo("Status");
    assertThat(s.apiVersion()).isEqualTo("v1");
    assertThat(s.status()).isEqualTo(Status.FAILURE);
    assertThat(s.details().kind()).isEqualTo("ListOptions");
    assertThat(s.details().group()).isEqualTo("meta.k8s.io");
  }

  // ---- construction ----

  @Test
  void constructor_takesNullsAsDefaults() {
    ListOptions o = new ListOptions(null, null, null, null, 0, null, false, false, null, null);
    assertThat(o).isEqualTo(ListOptions.builder().build());
  }

  @Test
  void builder_validatesLikeParse() {
    invalid(() -> ListOptions.builder()
        .resourceVersionMatch(ResourceVersionMatch.EXACT).resourceVersion("0").build());
    badRequest(() -> ListOptions.builder().resourceVersion("x").build());
  }

  @Test
  void toBuilder_roundTrips() {
    ListOptions o = fullWatch();
    assertThat(o.toBuilder().build()).isEqualTo(o);
    assertThat(o.toBuilder().limit(7).build().limit()).isEqualTo(7);
  }

  // ---- query string ----

  @Test
  void toQueryString_isEmptyForDefaults() {
    assertThat(ListOptions.builder().build().toQueryString()).isEmpty();
  }

  @Test
  void toQueryString_sortsParametersByName_likeClientGo() {
    ListOptions o = ListOptions.builder().watch(true).allowWatchBookmarks(true)
        .resourceVersion("123").timeoutSeconds(300L).build();
    assertThat(o.toQueryString())
        .isEqualTo("allowWatchBookmarks=true&resourceVersion=123&timeoutSeconds=300&watch=true");
    assertThat(ListOptions.builder().limit(500).resourceVersion("0").build().toQueryString())
        .isEqualTo("limit=500&resourceVersion=0");
  }

  @Test
  void toQueryString_encodesSelectorValues() {
    ListOptions o = ListOptions.builder()
        .labelSelector(LabelSelector.parse("app in (a,b)"))
        .fieldSelector(FieldSelector.parse("metadata.name=x\\,y"))
        .build();
    assertThat(o.toQueryString())
        .isEqualTo("fieldSelector=metadata.name%3Dx%5C%2Cy&labelSelector=app+in+%28a%2Cb%29");
  }

  @Test
  void toQueryString_parsesBackToEqualOptions() {
    for (ListOptions o : List.of(fullWatch(), fullList(), ListOptions.builder().build())) {
      assertThat(parse(o.toQueryString())).isEqualTo(o);
    }
  }

  private static ListOptions fullWatch() {
    return ListOptions.builder()
        .labelSelector(LabelSelector.parse("app=web,!canary"))
        .fieldSelector(FieldSelector.parse("metadata.namespace!=kube-system"))
        .resourceVersion("42")
        .resourceVersionMatch(ResourceVersionMatch.NOT_OLDER_THAN)
        .watch(true)
        .allowWatchBookmarks(true)
        .sendInitialEvents(true)
        .timeoutSeconds(431L)
        .build();
  }

  private static ListOptions fullList() {
    return ListOptions.builder()
        .labelSelector(LabelSelector.parse("tier notin (db)"))
        .fieldSelector(FieldSelector.parse("spec.nodeName=n\\=1"))
        .resourceVersion("42")
        .resourceVersionMatch(ResourceVersionMatch.EXACT)
        .limit(500)
        .build();
  }

  /** Decodes a query string as Netty's QueryStringDecoder would (name to values, in order). */
  static ListOptions parse(String query) {
    Map<String, List<String>> params = new LinkedHashMap<>();
    if (!query.isEmpty()) {
      for (String pair : query.split("&")) {
        int eq = pair.indexOf('=');
        String name = eq < 0 ? pair : pair.substring(0, eq);
        String value = eq < 0 ? "" : pair.substring(eq + 1);
        params.computeIfAbsent(decode(name), k -> new ArrayList<>()).add(decode(value));
      }
    }
    return ListOptions.parse(params);
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }

  private static StatusException badRequest(ThrowingCallable call) {
    StatusException e = catchThrowableOfType(StatusException.class, call);
    assertThat(e).as("expected a 400").isNotNull();
    assertThat(e.code()).isEqualTo(400);
    assertThat(e.reason()).isEqualTo(Reasons.BAD_REQUEST);
    return e;
  }

  private static StatusException invalid(ThrowingCallable call) {
    StatusException e = catchThrowableOfType(StatusException.class, call);
    assertThat(e).as("expected a 422").isNotNull();
    assertThat(e.code()).isEqualTo(422);
    assertThat(e.reason()).isEqualTo(Reasons.INVALID);
    assertThat(e.status().details().kind()).isEqualTo(ListOptions.KIND);
    assertThat(e.status().details().group()).isEqualTo(ListOptions.GROUP);
    return e;
  }
}
