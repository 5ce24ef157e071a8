package io.listwatch.server.audit;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.api.Status;
import io.listwatch.api.meta.KubeTime;
import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.apiserver.request.RequestInfo;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One {@code audit.k8s.io/v1} {@code Event} as kube-apiserver writes it at level {@code Metadata}:
 * who did what to which object and with what result, without request or response bodies.
 * Fields kube leaves out when empty are left out here too. Immutable.
 *
 * @param auditID the request's unique id (also its {@code Audit-Id} response header)
 * @param stage {@link #RESPONSE_STARTED} or {@link #RESPONSE_COMPLETE}
 * @param requestURI the path and query as sent
 * @param verb kube's verb: get, list, watch, create, update, patch, delete, deletecollection; a
 *     non-resource request's lower-case HTTP method
 * @param user the authenticated user; all empty when authentication failed (kube's {@code {}})
 * @param impersonatedUser the user the request acted as through {@code Impersonate-*} headers, or null
 * @param objectRef what a resource request is about, or null for a non-resource request
 * @param responseStatus the response's code, and for a Status response its status, reason and message
 * @param requestReceivedTimestamp kube's MicroTime: RFC 3339 with microseconds, UTC
 * @param annotations the request's audit annotations (what admission plug-ins noted), by key
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@JsonPropertyOrder({"kind", "apiVersion", "level", "auditID", "stage", "requestURI", "verb", "user",
    "impersonatedUser", "sourceIPs", "userAgent", "objectRef", "responseStatus", "requestReceivedTimestamp",
    "stageTimestamp", "annotations"})
public record AuditEvent(String kind, String apiVersion, String level, String auditID, String stage,
    String requestURI, String verb, User user, User impersonatedUser, List<String> sourceIPs, String userAgent,
    ObjectReference objectRef, ResponseStatus responseStatus, String requestReceivedTimestamp,
    String stageTimestamp, Map<String, String> annotations) {

  public static final String KIND = "Event";
  public static final String API_VERSION = "audit.k8s.io/v1";
  /** The one level events are logged at: metadata, no bodies. */
  public static final String LEVEL_METADATA = "Metadata";
  /** A long-running request (a watch) whose response head has been sent. */
  public static final String RESPONSE_STARTED = "ResponseStarted";
  /** A request whose response is complete (for a watch: the watch has ended). */
  public static final String RESPONSE_COMPLETE = "ResponseComplete";

  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** kube's {@code authentication.k8s.io/v1 UserInfo}. */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @JsonPropertyOrder({"username", "uid", "groups", "extra"})
  public record User(String username, String uid, List<String> groups, Map<String, List<String>> extra) {
    /** kube's user of a request that failed authentication: all fields empty. */
    public static final User NONE = new User("", "", List.of(), Map.of());

    public static User of(UserInfo u) {
      return new User(u.name(), u.uid(), u.groups(), u.extra());
    }
  }

  /** kube's audit {@code ObjectReference} (no uid or resourceVersion at level Metadata). */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @JsonPropertyOrder({"resource", "namespace", "name", "apiGroup", "apiVersion", "subresource"})
  public record ObjectReference(String resource, String namespace, String name, String apiGroup,
      String apiVersion, String subresource) {

    /** The object a resource request names, or null for a non-resource request. */
    public static ObjectReference of(RequestInfo info) {
      if (info == null || !info.resourceRequest()) {
        return null;
      }
      return new ObjectReference(info.resource(), info.namespace(), info.name(), info.group(), info.version(),
          info.subresource());
    }
  }

  /** The bounded fields of the response's {@code metav1.Status} that kube copies into the event. */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @JsonPropertyOrder({"metadata", "status", "message", "reason", "details", "code"})
  public record ResponseStatus(@JsonInclude(JsonInclude.Include.ALWAYS) Map<String, Object> metadata,
      String status, String message, String reason, Status.Details details,
      @JsonInclude(JsonInclude.Include.ALWAYS) int code) {

    /** A response that is not a Status: its code only. */
    public static ResponseStatus of(int code) {
      return new ResponseStatus(Map.of(), null, null, null, null, code);
    }

    /** A Status response (a failure, or a delete's success) answered with {@code code}. */
    public static ResponseStatus of(int code, Status s) {
      if (s == null) {
        return of(code);
      }
      return new ResponseStatus(Map.of(), s.status(), s.message(), s.reason(), s.details(), code);
    }
  }

  /** kube's MicroTime. */
  public static String microTime(Instant t) {
    return KubeTime.microTime(t);
  }

  /** This event as one line of JSON, without the line end. */
  public String toJson() {
    try {
      return MAPPER.writeValueAsString(this);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize an audit event", e);
    }
  }
}
