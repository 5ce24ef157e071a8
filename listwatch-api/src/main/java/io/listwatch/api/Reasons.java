package io.listwatch.api;

/**
 * The {@code reason} values of {@link Status} that clients branch on: client-go checks the
 * reason before the HTTP code, and some checks (AlreadyExists, Expired, Gone) need the exact
 * reason. See "Errors" in docs/compatibility.md.
 */
public final class Reasons {
  public static final String BAD_REQUEST = "BadRequest";
  public static final String UNAUTHORIZED = "Unauthorized";
  public static final String FORBIDDEN = "Forbidden";
  public static final String NOT_FOUND = "NotFound";
  public static final String METHOD_NOT_ALLOWED = "MethodNotAllowed";
  public static final String NOT_ACCEPTABLE = "NotAcceptable";
  public static final String ALREADY_EXISTS = "AlreadyExists";
  public static final String CONFLICT = "Conflict";
  public static final String EXPIRED = "Expired";
  public static final String GONE = "Gone";
  public static final String REQUEST_ENTITY_TOO_LARGE = "RequestEntityTooLarge";
  public static final String UNSUPPORTED_MEDIA_TYPE = "UnsupportedMediaType";
  public static final String INVALID = "Invalid";
  public static final String TOO_MANY_REQUESTS = "TooManyRequests";
  public static final String INTERNAL_ERROR = "InternalError";
  public static final String SERVER_TIMEOUT = "ServerTimeout";
  public static final String SERVICE_UNAVAILABLE = "ServiceUnavailable";
  public static final String TIMEOUT = "Timeout";

  /** Cause reasons of an Invalid Status. */
  public static final String FIELD_VALUE_REQUIRED = "FieldValueRequired";
  public static final String FIELD_VALUE_INVALID = "FieldValueInvalid";
  public static final String FIELD_VALUE_NOT_SUPPORTED = "FieldValueNotSupported";
  public static final String FIELD_VALUE_FORBIDDEN = "FieldValueForbidden";
  public static final String FIELD_VALUE_TOO_LONG = "FieldValueTooLong";
  public static final String FIELD_VALUE_DUPLICATE = "FieldValueDuplicate";
  public static final String FIELD_VALUE_TYPE_INVALID = "FieldValueTypeInvalid";
  public static final String FIELD_VALUE_TOO_MANY = "FieldValueTooMany";
  public static final String FIELD_VALUE_NOT_FOUND = "FieldValueNotFound";

  private Reasons() {
  }
}
