package io.listwatch.client.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Reasons;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Turns a non-2xx answer into a {@link StatusException}: the server's Status when the body
 * is one, otherwise a kube-shaped Status synthesized from the code (client-go's
 * {@code NewGenericServerResponse}). A {@code Retry-After} header in seconds lands in
 * {@code details.retryAfterSeconds} when the Status has none. Stateless.
 */
public final class StatusErrors {

  /** Error bodies larger than this are cut (a Status is small; a proxy's HTML page is not needed whole). */
  static final int MAX_BODY = 1 << 20;

  private StatusErrors() {
  }

  /**
   * The exception for an answer with {@code code}, reading (and closing) its body;
   * {@code retryAfter} is its {@code Retry-After} header, if any.
   */
  public static StatusException fromResponse(int code, Optional<String> retryAfter, InputStream body) {
    byte[] bytes = readBody(body);
    Status status = parseStatus(bytes).orElseGet(() -> synthesize(code, bytes));
    if (status.code() == 0) {
      status = new Status(status.kind(), status.apiVersion(), status.metadata(), status.status(),
          status.message(), status.reason(), status.details(), code);
    }
    Optional<Integer> retryAfterSeconds = retryAfter.flatMap(StatusErrors::seconds);
    if (retryAfterSeconds.isPresent()
        && (status.details() == null || status.details().retryAfterSeconds() == null)) {
      Status.Details details = status.details() == null
          ? new Status.Details(null, null, null, null, null, null) : status.details();
      status = new Status(status.kind(), status.apiVersion(), status.metadata(), status.status(),
          status.message(), status.reason(), details.withRetryAfterSeconds(retryAfterSeconds.get()), status.code());
    }
    return new StatusException(status);
  }

  private static byte[] readBody(InputStream body) {
    try (InputStream in = body) {
      return in.readNBytes(MAX_BODY);
    } catch (IOException e) {
      return new byte[0]; // the code alone says enough
    }
  }

  private static Optional<Status> parseStatus(byte[] body) {
    if (body.length == 0) {
      return Optional.empty();
    }
    try {
      JsonNode tree = Json.MAPPER.readTree(body);
      if (tree != null && tree.isObject() && "Status".equals(tree.path("kind").asText())) {
        return Optional.of(Json.MAPPER.treeToValue(tree, Status.class));
      }
    } catch (IOException | IllegalArgumentException e) {
      // not JSON: synthesize
    }
    return Optional.empty();
  }

  /** A Status for an answer whose body is not one. */
  static Status synthesize(int code, byte[] body) {
    String reason;
    String message;
    switch (code) {
      case 400 -> { reason = Reasons.BAD_REQUEST; message = "the server rejected our request for an unknown reason"; }
      case 401 -> { reason = Reasons.UNAUTHORIZED; message = "the server has asked for the client to provide credentials"; }
      case 403 -> { reason = Reasons.FORBIDDEN; message = "the server does not allow access to the requested resource"; }
      case 404 -> { reason = Reasons.NOT_FOUND; message = "the server could not find the requested resource"; }
      case 405 -> { reason = Reasons.METHOD_NOT_ALLOWED; message = "the server does not allow this method on the requested resource"; }
      case 406 -> { reason = Reasons.NOT_ACCEPTABLE; message = "the server was unable to respond with a content type that the client supports"; }
      case 409 -> { reason = Reasons.CONFLICT; message = "the server reported a conflict"; }
      case 410 -> { reason = Reasons.GONE; message = "the server has asked for the client to start over"; }
      case 413 -> { reason = Reasons.REQUEST_ENTITY_TOO_LARGE; message = "the server has rejected the request because it is too large"; }
      case 415 -> { reason = Reasons.UNSUPPORTED_MEDIA_TYPE; message = "the server does not support the request's content type"; }
      case 422 -> { reason = Reasons.INVALID; message = "the server rejected our request due to an error in our request"; }
      case 429 -> { reason = Reasons.TOO_MANY_REQUESTS; message = "the server has received too many requests and has asked us to try again later"; }
      case 500 -> { reason = Reasons.INTERNAL_ERROR; message = "an error on the server has prevented the request from succeeding"; }
      case 503 -> { reason = Reasons.SERVICE_UNAVAILABLE; message = "the server is currently unable to handle the request"; }
      case 504 -> { reason = Reasons.TIMEOUT; message = "the server was unable to return a response in the time allotted, but may still be processing the request"; }
      default -> { reason = ""; message = "an error on the server has prevented the request from succeeding"; }
    }
    String text = new String(body, 0, Math.min(body.length, 512), StandardCharsets.UTF_8).strip();
    if (!text.isEmpty()) {
      message = message + " (" + code + ": " + text + ")";
    }
    return Status.failure(code, reason, message, null);
  }

  private static Optional<Integer> seconds(String retryAfter) {
    try {
      int seconds = Integer.parseInt(retryAfter.strip());
      return seconds >= 0 ? Optional.of(seconds) : Optional.empty();
    } catch (NumberFormatException e) {
      return Optional.empty(); // an HTTP date: not used by kube
    }
  }
}
