package io.listwatch.api;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The query parameters of a LIST or WATCH: kube's {@code metav1.ListOptions}, decoded and
 * validated as kube-apiserver does (see "Lists" and "Watches" in docs/compatibility.md).
 *
 * <p>Every instance is valid: the constructor enforces kube's {@code ValidateListOptions}
 * rules (422 {@code Invalid}, kind {@code ListOptions}, group {@code meta.k8s.io}, one
 * cause per violated rule, kube's messages), then that {@code resourceVersion} is
 * {@code ""} or a decimal number and that a list does not combine {@code continue} with a
 * {@code resourceVersion} other than {@code "0"} (400 {@code BadRequest}, as kube's storage
 * layer answers). Streaming lists
 * ({@code sendInitialEvents}) are accepted as if kube's {@code WatchList} feature were on;
 * a server that does not stream lists must reject them itself. No defaulting is applied
 * (kube 1.34+ turns a plain watch into a streaming list; 1.32 does not).
 *
 * @param labelSelector the {@code labelSelector} parameter; null means everything
 * @param fieldSelector the {@code fieldSelector} parameter; null means everything
 * @param resourceVersion the {@code resourceVersion} parameter, {@code ""} when absent (null
 *     is taken as {@code ""}); {@code "0"} means "any"
 * @param resourceVersionMatch the {@code resourceVersionMatch} parameter; null is taken as
 *     {@link ResourceVersionMatch#UNSET}
 * @param limit the {@code limit} parameter; 0 means no limit, and negative values are stored
 *     as 0 (kube ignores a limit that is not positive)
 * @param continueToken the {@code continue} parameter, {@code ""} when absent (null is taken
 *     as {@code ""}); decode it with {@link ContinueToken#decode}
 * @param watch whether this is a watch ({@code watch=true})
 * @param allowWatchBookmarks whether the watcher accepts BOOKMARK events
 * @param sendInitialEvents the {@code sendInitialEvents} parameter, null when absent
 * @param timeoutSeconds the {@code timeoutSeconds} parameter, null when absent; stored as
 *     given (kube does not validate it)
 */
public record ListOptions(
    LabelSelector labelSelector,
    FieldSelector fieldSelector,
    String resourceVersion,
    ResourceVersionMatch resourceVersionMatch,
    long limit,
    String continueToken,
    boolean watch,
    boolean allowWatchBookmarks,
    Boolean sendInitialEvents,
    Long timeoutSeconds) {

  /** The API group of the Invalid errors (kube reports them on {@code ListOptions.meta.k8s.io}). */
  public static final String GROUP = "meta.k8s.io";
  /** The kind of the Invalid errors. */
  public static final String KIND = "ListOptions";

  private static final String RESOURCE_VERSION_MATCH = "resourceVersionMatch";
  private static final String SEND_INITIAL_EVENTS = "sendInitialEvents";

  /**
   * Normalizes nulls and negative limits, then validates.
   *
   * @throws StatusException 422 Invalid for a combination kube forbids; 400 BadRequest for a
   *     non-numeric {@code resourceVersion}, or for a list that sets both {@code continue}
   *     and a {@code resourceVersion} other than "0" (kube's storage rule; client-go's pager
   *     clears the resourceVersion after the first page)
   */
  public ListOptions {
    labelSelector = labelSelector == null ? LabelSelector.everything() : labelSelector;
    fieldSelector = fieldSelector == null ? FieldSelector.everything() : fieldSelector;
    resourceVersion = resourceVersion == null ? "" : resourceVersion;
    resourceVersionMatch =
        resourceVersionMatch == null ? ResourceVersionMatch.UNSET : resourceVersionMatch;
    limit = Math.max(0, limit);
    continueToken = continueToken == null ? "" : continueToken;
    throwIfInvalid(watch, resourceVersion, resourceVersionMatch.wireValue(), continueToken,
        sendInitialEvents);
    if (!resourceVersion.isEmpty()) {
      parseResourceVersion(resourceVersion);
    }
    if (!watch && !continueToken.isEmpty() && !resourceVersion.isEmpty()
        && !resourceVersion.equals("0")) {
      throw StatusException.badRequest(
          "specifying resource version is not allowed when using continue");
    }
  }

  /**
   * Decodes and validates query parameters as Netty's {@code QueryStringDecoder.parameters()}
   * gives them (already percent-decoded). Only the first value of a repeated parameter counts
   * and unknown parameters are ignored, as in kube. Booleans follow kube: present with any
   * value but {@code "0"} or {@code "false"} (any case) means true, so {@code watch=1} and a
   * bare {@code watch} are watches.
   *
   * <p>Checks run in kube's order: parameter decoding (bad selectors, a non-integer
   * {@code limit} or {@code timeoutSeconds}: 400), then the {@code ValidateListOptions}
   * rules (422), then the form of {@code resourceVersion} and its clash with {@code continue}
   * (400).
   *
   * @param queryParameters parameter name to values; null is taken as empty
   * @throws StatusException 400 BadRequest or 422 Invalid, as above
   */
  public static ListOptions parse(Map<String, List<String>> queryParameters) {
    Map<String, List<String>> q = queryParameters == null ? Map.of() : queryParameters;
    LabelSelector labels = LabelSelector.parse(first(q, "labelSelector"));
    FieldSelector fields = FieldSelector.parse(first(q, "fieldSelector"));
    boolean watch = parseBool(first(q, "watch"));
    boolean bookmarks = parseBool(first(q, "allowWatchBookmarks"));
    String resourceVersion = orEmpty(first(q, "resourceVersion"));
    String match = orEmpty(first(q, RESOURCE_VERSION_MATCH));
    Long timeoutSeconds = parseInteger("timeoutSeconds", first(q, "timeoutSeconds"));
    Long limit = parseInteger("limit", first(q, "limit"));
    String continueToken = orEmpty(first(q, "continue"));
    String sendInitialEventsValue = first(q, SEND_INITIAL_EVENTS);
    Boolean sendInitialEvents =
        sendInitialEventsValue == null ? null : parseBool(sendInitialEventsValue);

    throwIfInvalid(watch, resourceVersion, match, continueToken, sendInitialEvents);
    ResourceVersionMatch parsedMatch = ResourceVersionMatch.fromWireValue(match).orElseThrow();
    return new ListOptions(labels, fields, resourceVersion, parsedMatch,
        limit == null ? 0 : limit, continueToken, watch, bookmarks, sendInitialEvents,
        timeoutSeconds);
  }

  /**
   * {@code resourceVersion} as a number: empty when it is {@code ""} (unset), otherwise its
   * value ({@code 0} for {@code "0"}, "any").
   */
  public OptionalLong resourceVersionNumber() {
    return resourceVersion.isEmpty()
        ? OptionalLong.empty()
        : OptionalLong.of(parseResourceVersion(resourceVersion));
  }

  /**
   * The query string for these options, without the leading {@code ?}: only parameters that
   * differ from their defaults, sorted by name as client-go sends them, values
   * form-encoded. {@link #parse} of its decoded form gives an equal ListOptions.
   */
  public String toQueryString() {
    List<String> pairs = new ArrayList<>();
    if (allowWatchBookmarks) {
      pairs.add(pair("allowWatchBookmarks", "true"));
    }
    if (!continueToken.isEmpty()) {
      pairs.add(pair("continue", continueToken));
    }
    if (!fieldSelector.isEverything()) {
      pairs.add(pair("fieldSelector", fieldSelector.toString()));
    }
    if (!labelSelector.isEverything()) {
      pairs.add(pair("labelSelector", labelSelector.toString()));
    }
    if (limit > 0) {
      pairs.add(pair("limit", Long.toString(limit)));
    }
    if (!resourceVersion.isEmpty()) {
      pairs.add(pair("resourceVersion", resourceVersion));
    }
    if (resourceVersionMatch != ResourceVersionMatch.UNSET) {
      pairs.add(pair(RESOURCE_VERSION_MATCH, resourceVersionMatch.wireValue()));
    }
    if (sendInitialEvents != null) {
      pairs.add(pair(SEND_INITIAL_EVENTS, sendInitialEvents.toString()));
    }
    if (timeoutSeconds != null) {
      pairs.add(pair("timeoutSeconds", timeoutSeconds.toString()));
    }
    if (watch) {
      pairs.add(pair("watch", "true"));
    }
    return String.join("&", pairs);
  }

  /** A builder starting from the defaults (a plain list of everything, no limit). */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from these options. */
  public Builder toBuilder() {
    return new Builder()
        .labelSelector(labelSelector)
        .fieldSelector(fieldSelector)
        .resourceVersion(resourceVersion)
        .resourceVersionMatch(resourceVersionMatch)
        .limit(limit)
        .continueToken(continueToken)
        .watch(watch)
        .allowWatchBookmarks(allowWatchBookmarks)
        .sendInitialEvents(sendInitialEvents)
        .timeoutSeconds(timeoutSeconds);
  }

  /**
   * Builds ListOptions, for the client side. {@link #build()} validates as the constructor
   * does. Not thread-safe; use from one thread.
   */
  public static final class Builder {
    private LabelSelector labelSelector = LabelSelector.everything();
    private FieldSelector fieldSelector = FieldSelector.everything();
    private String resourceVersion = "";
    private ResourceVersionMatch resourceVersionMatch = ResourceVersionMatch.UNSET;
    private long limit;
    private String continueToken = "";
    private boolean watch;
    private boolean allowWatchBookmarks;
    private Boolean sendInitialEvents;
    private Long timeoutSeconds;

    private Builder() {
    }

    public Builder labelSelector(LabelSelector value) {
      this.labelSelector = value;
      return this;
    }

    public Builder fieldSelector(FieldSelector value) {
      this.fieldSelector = value;
      return this;
    }

    public Builder resourceVersion(String value) {
      this.resourceVersion = value;
      return this;
    }

    public Builder resourceVersionMatch(ResourceVersionMatch value) {
      this.resourceVersionMatch = value;
      return this;
    }

    public Builder limit(long value) {
      this.limit = value;
      return this;
    }

    public Builder continueToken(String value) {
      this.continueToken = value;
      return this;
    }

    public Builder watch(boolean value) {
      this.watch = value;
      return this;
    }

    public Builder allowWatchBookmarks(boolean value) {
      this.allowWatchBookmarks = value;
      return this;
    }

    public Builder sendInitialEvents(Boolean value) {
      this.sendInitialEvents = value;
      return this;
    }

    public Builder timeoutSeconds(Long value) {
      this.timeoutSeconds = value;
      return this;
    }

    /**
     * The options.
     *
     * @throws StatusException as the ListOptions constructor does
     */
    public ListOptions build() {
      return new ListOptions(labelSelector, fieldSelector, resourceVersion, resourceVersionMatch,
          limit, continueToken, watch, allowWatchBookmarks, sendInitialEvents, timeoutSeconds);
    }
  }

  // ---- validation: kube's ValidateListOptions, with the WatchList feature on ----

  private static void throwIfInvalid(boolean watch, String resourceVersion, String match,
      String continueToken, Boolean sendInitialEvents) {
    List<Status.Cause> causes = watch
        ? watchErrors(match, continueToken, sendInitialEvents)
        : listErrors(resourceVersion, match, continueToken, sendInitialEvents);
    if (!causes.isEmpty()) {
      throw StatusException.invalid(GROUP, KIND, "", causes);
    }
  }

  private static List<Status.Cause> listErrors(String resourceVersion, String match,
      String continueToken, Boolean sendInitialEvents) {
    List<Status.Cause> causes = new ArrayList<>();
    if (!match.isEmpty()) {
      if (resourceVersion.isEmpty()) {
        causes.add(forbidden(RESOURCE_VERSION_MATCH,
            "resourceVersionMatch is forbidden unless resourceVersion is provided"));
      }
      if (!continueToken.isEmpty()) {
        causes.add(forbidden(RESOURCE_VERSION_MATCH,
            "resourceVersionMatch is forbidden when continue is provided"));
      }
      if (!match.equals(ResourceVersionMatch.EXACT.wireValue())
          && !match.equals(ResourceVersionMatch.NOT_OLDER_THAN.wireValue())) {
        causes.add(notSupported(RESOURCE_VERSION_MATCH, match,
            List.of(ResourceVersionMatch.EXACT.wireValue(),
                ResourceVersionMatch.NOT_OLDER_THAN.wireValue(), "")));
      }
      if (match.equals(ResourceVersionMatch.EXACT.wireValue()) && resourceVersion.equals("0")) {
        causes.add(forbidden(RESOURCE_VERSION_MATCH,
            "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\""));
      }
    }
    if (sendInitialEvents != null) {
      causes.add(forbidden(SEND_INITIAL_EVENTS, "sendInitialEvents is forbidden for list"));
    }
    return causes;
  }

  private static List<Status.Cause> watchErrors(String match, String continueToken,
      Boolean sendInitialEvents) {
    List<Status.Cause> causes = new ArrayList<>();
    String notOlderThan = ResourceVersionMatch.NOT_OLDER_THAN.wireValue();
    if (sendInitialEvents != null && !match.equals(notOlderThan)) {
      causes.add(forbidden(RESOURCE_VERSION_MATCH,
          "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"));
    }
    if (!match.isEmpty()) {
      if (sendInitialEvents == null) {
        causes.add(forbidden(RESOURCE_VERSION_MATCH,
            "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"));
      }
      if (!match.equals(notOlderThan)) {
        causes.add(notSupported(RESOURCE_VERSION_MATCH, match, List.of(notOlderThan)));
      }
      if (!continueToken.isEmpty()) {
        causes.add(forbidden(RESOURCE_VERSION_MATCH,
            "resourceVersionMatch is forbidden when continue is provided"));
      }
    }
    return causes;
  }

  /** kube's {@code field.Forbidden}: the cause message is its ErrorBody. */
  private static Status.Cause forbidden(String field, String detail) {
    return new Status.Cause(Reasons.FIELD_VALUE_FORBIDDEN, "Forbidden: " + detail, field);
  }

  /** kube's {@code field.NotSupported}. */
  private static Status.Cause notSupported(String field, String value, List<String> supported) {
    List<String> quoted = supported.stream().map(Strconv::quote).toList();
    return new Status.Cause(Reasons.FIELD_VALUE_NOT_SUPPORTED,
        "Unsupported value: " + Strconv.quote(value) + ": supported values: "
            + String.join(", ", quoted),
        field);
  }

  // ---- decoding ----

  private static long parseResourceVersion(String resourceVersion) {
    try {
      return Strconv.parseUint(resourceVersion);
    } catch (NumberFormatException e) {
      throw StatusException.badRequest("resourceVersion: Invalid value: "
          + Strconv.quote(resourceVersion) + ": " + e.getMessage());
    }
  }

  private static Long parseInteger(String name, String value) {
    if (value == null) {
      return null;
    }
    try {
      return Strconv.parseInt(value);
    } catch (NumberFormatException e) {
      throw StatusException.badRequest(
          name + ": Invalid value: " + Strconv.quote(value) + ": " + e.getMessage());
    }
  }

  /**
   * A query parameter's boolean as kube converts it ({@code Convert_Slice_string_To_bool}):
   * absent ({@code null}) is false, and of the values only "0" and "false" (any case) are
   * false; "" and "yes" are true.
   */
  public static boolean parseBool(String value) {
    return value != null && !value.equals("0") && !value.equalsIgnoreCase("false");
  }

  private static String first(Map<String, List<String>> q, String name) {
    List<String> values = q.get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }

  private static String pair(String name, String value) {
    return name + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
