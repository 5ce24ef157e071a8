package io.listwatch.api;

import java.util.List;
import java.util.stream.Collectors;

/**
 * An error that carries the kube {@link Status} to answer with. The server throws it from
 * anywhere in request handling and writes {@link #status()} in one place; the client raises
 * it for every non-2xx answer.
 */
public final class StatusException extends RuntimeException {

  private final transient Status status;

  public StatusException(Status status) {
    super(status.message());
    this.status = status;
  }

  /** With {@code stackTrace} false, an exception that never fills in its stack trace. */
  private StatusException(Status status, boolean stackTrace) {
    super(status.message(), null, true, stackTrace);
    this.status = status;
  }

  public Status status() {
    return status;
  }

  public int code() {
    return status.code();
  }

  public String reason() {
    return status.reason();
  }

  /** 400 BadRequest. */
  public static StatusException badRequest(String message) {
    return new StatusException(Status.failure(400, Reasons.BAD_REQUEST, message, null));
  }

  /**
   * 404 NotFound for an object: {@code pods "web" not found}, or
   * {@code deployments.apps "web" not found} for a non-core group.
   */
  public static StatusException notFound(String group, String resource, String name) {
    return new StatusException(Status.failure(404, Reasons.NOT_FOUND,
        qualified(group, resource) + " \"" + name + "\" not found",
        Status.Details.of(name, emptyToNull(group), resource)));
  }

  /** 404 for a path the server does not serve. */
  public static StatusException pathNotFound() {
    return new StatusException(Status.failure(404, Reasons.NOT_FOUND,
        "the server could not find the requested resource", new Status.Details(null, null, null, null, null, null)));
  }

  /** 405 MethodNotAllowed. */
  public static StatusException methodNotAllowed() {
    return new StatusException(Status.failure(405, Reasons.METHOD_NOT_ALLOWED,
        "the server does not allow this method on the requested resource", null));
  }

  /** 403 Forbidden: {@code namespaces "default" is forbidden: this namespace may not be deleted}. */
  public static StatusException forbidden(String group, String resource, String name, String why) {
    return new StatusException(Status.failure(403, Reasons.FORBIDDEN,
        qualified(group, resource) + " \"" + name + "\" is forbidden: " + why,
        Status.Details.of(name, emptyToNull(group), resource)));
  }

  /** 409 AlreadyExists: {@code pods "web" already exists}. */
  public static StatusException alreadyExists(String group, String resource, String name) {
    return new StatusException(Status.failure(409, Reasons.ALREADY_EXISTS,
        qualified(group, resource) + " \"" + name + "\" already exists",
        Status.Details.of(name, emptyToNull(group), resource)));
  }

  /** 409 Conflict on a stale resourceVersion or failed precondition. */
  public static StatusException conflict(String group, String resource, String name, String why) {
    return new StatusException(Status.failure(409, Reasons.CONFLICT,
        "Operation cannot be fulfilled on " + qualified(group, resource) + " \"" + name + "\": " + why,
        Status.Details.of(name, emptyToNull(group), resource)));
  }

  /** The standard message of a resourceVersion conflict. */
  public static StatusException conflictModified(String group, String resource, String name) {
    return conflict(group, resource, name,
        "the object has been modified; please apply your changes to the latest version and try again");
  }

  /** 410 Expired, for a too-old resourceVersion or continue token. */
  public static StatusException expired(String message) {
    return new StatusException(Status.failure(410, Reasons.EXPIRED, message, null));
  }

  /** 413 RequestEntityTooLarge. */
  public static StatusException tooLarge(String message) {
    return new StatusException(Status.failure(413, Reasons.REQUEST_ENTITY_TOO_LARGE, message, null));
  }

  /** 415 UnsupportedMediaType. */
  public static StatusException unsupportedMediaType(String message) {
    return new StatusException(Status.failure(415, Reasons.UNSUPPORTED_MEDIA_TYPE, message, null));
  }

  /**
   * 422 Invalid: {@code Pod "web" is invalid: metadata.name: Invalid value: ...}. {@code kind}
   * is the Kind (not the resource), as kube does for Invalid.
   */
  public static StatusException invalid(String group, String kind, String name, List<Status.Cause> causes) {
    String qualifiedKind = group == null || group.isEmpty() ? kind : kind + "." + group;
    String detail = causes.stream()
        .map(c -> c.field() == null ? c.message() : c.field() + ": " + c.message())
        .collect(Collectors.joining(", "));
    String message = qualifiedKind + " \"" + (name == null ? "" : name) + "\" is invalid: "
        + (causes.size() > 1 ? "[" + detail + "]" : detail);
    return new StatusException(Status.failure(422, Reasons.INVALID, message,
        new Status.Details(name, emptyToNull(group), kind, null, List.copyOf(causes), null)));
  }

  /**
   * 422 Invalid about no object in particular: kube's generic answer when a patch cannot be
   * applied (a failed JSON Patch {@code test}, a missing path): the message is
   * {@code the server rejected our request due to an error in our request} and the reason is
   * the one cause, of type {@code UnexpectedServerResponse}.
   */
  public static StatusException rejected(String cause) {
    return new StatusException(Status.failure(422, Reasons.INVALID,
        "the server rejected our request due to an error in our request",
        new Status.Details(null, null, null, null, List.of(new Status.Cause("UnexpectedServerResponse", cause, null)),
            null)));
  }

  /** 500 InternalError. */
  public static StatusException internal(String message) {
    return new StatusException(Status.failure(500, Reasons.INTERNAL_ERROR,
        "Internal error occurred: " + message,
        new Status.Details(null, null, null, null, List.of(new Status.Cause(null, message, null)), null)));
  }

  /** 401 Unauthorized: missing or invalid credentials (kubectl: "You must be logged in to the server"). */
  public static StatusException unauthorized() {
    return new StatusException(Status.failure(401, Reasons.UNAUTHORIZED, "Unauthorized", null));
  }

  /**
   * 429 TooManyRequests with {@code Retry-After}, as kube's max-in-flight filter answers. Without
   * a stack trace: it is the answer of a server short of CPU, thousands of times a second under a
   * flood, and says where it came from in its message.
   */
  public static StatusException tooManyRequests(String message, int retryAfterSeconds) {
    return new StatusException(Status.failure(429, Reasons.TOO_MANY_REQUESTS, message,
        new Status.Details(null, null, null, null, null, retryAfterSeconds)), false);
  }

  /** 503 ServiceUnavailable. */
  public static StatusException unavailable(String message) {
    return new StatusException(Status.failure(503, Reasons.SERVICE_UNAVAILABLE, message, null));
  }

  /** 504 Timeout "Too large resource version", with a retry after 1 s. */
  public static StatusException tooLargeResourceVersion(long requested, long current) {
    return new StatusException(Status.failure(504, Reasons.TIMEOUT,
        "Too large resource version: " + requested + ", current: " + current,
        new Status.Details(null, null, null, null,
            List.of(new Status.Cause("ResourceVersionTooLarge", "Too large resource version", null)), 1)));
  }

  private static String qualified(String group, String resource) {
    return group == null || group.isEmpty() ? resource : resource + "." + group;
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
