package io.listwatch.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * kube's {@code Status} object (meta/v1), the body of every non-2xx answer and of watch
 * ERROR events. Field names and the always-present {@code kind}, {@code apiVersion} and
 * {@code metadata} follow kube exactly: the Java and Python clients require them.
 *
 * @param kind always "Status"
 * @param apiVersion always "v1"
 * @param metadata a ListMeta; carries {@code continue} for an expired continue token
 * @param status "Success" or "Failure"
 * @param message human-readable text
 * @param reason the machine-readable reason, e.g. "NotFound" (see {@link Reasons})
 * @param details what the error was about, or null
 * @param code the HTTP status code; left out of the JSON when 0, as kube's success Status does
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"kind", "apiVersion", "metadata", "status", "message", "reason", "details", "code"})
public record Status(String kind, String apiVersion, ListMeta metadata, String status,
    String message, String reason, Details details,
    @com.fasterxml.jackson.annotation.JsonInclude(JsonInclude.Include.NON_DEFAULT) int code) {

  public static final String SUCCESS = "Success";
  public static final String FAILURE = "Failure";

  /** A failure with the given code, reason, message and details (may be null). */
  public static Status failure(int code, String reason, String message, Details details) {
    return new Status("Status", "v1", ListMeta.EMPTY, FAILURE, message, reason, details, code);
  }

  /** A success Status, as DELETE returns for most resources. */
  public static Status success(Details details) {
    return new Status("Status", "v1", ListMeta.EMPTY, SUCCESS, null, null, details, 0);
  }

  /** This Status with {@code metadata.continue} set (the expired-continue-token case). */
  public Status withContinue(String continueToken) {
    return new Status(kind, apiVersion, new ListMeta(continueToken), status, message, reason,
        details, code);
  }

  /**
   * The ListMeta of a Status: empty, or carrying a continue token.
   *
   * @param continueToken a fresh continue token, or null
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record ListMeta(@com.fasterxml.jackson.annotation.JsonProperty("continue") String continueToken) {
    public static final ListMeta EMPTY = new ListMeta(null);
  }

  /**
   * What a Status is about.
   *
   * @param name the object's name
   * @param group the API group ("" for core is left out)
   * @param kind the plural resource for NotFound, AlreadyExists, Conflict and Forbidden; the
   *     Kind for Invalid (kube's quirk)
   * @param uid the object's uid
   * @param causes field-level causes
   * @param retryAfterSeconds when the client may retry, or null
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Details(String name, String group, String kind, String uid, List<Cause> causes,
      Integer retryAfterSeconds) {

    public static Details of(String name, String group, String kind) {
      return new Details(name, group, kind, null, null, null);
    }

    public Details withCauses(List<Cause> newCauses) {
      return new Details(name, group, kind, uid, newCauses, retryAfterSeconds);
    }

    public Details withRetryAfterSeconds(int seconds) {
      return new Details(name, group, kind, uid, causes, seconds);
    }

    public Details withUid(String newUid) {
      return new Details(name, group, kind, newUid, causes, retryAfterSeconds);
    }
  }

  /**
   * One field-level cause, e.g. {@code {reason: FieldValueInvalid, field: metadata.name}}.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Cause(String reason, String message, String field) {
  }
}
