package io.listwatch.client.testing;

import io.listwatch.api.ListOptions;
import io.listwatch.client.ResourceType;
import java.util.Objects;

/**
 * One call a {@link FakeClient} received, recorded before any {@link Reactor} or the
 * fake's API server saw it (client-go's {@code testing.Action}). Immutable.
 *
 * <p>{@link #toString()} is a one-line summary such as
 * {@code update deployments.apps/status default/web}, so a test can compare a whole
 * sequence at once: {@code assertThat(client.actions()).extracting(Action::toString)
 * .containsExactly(...)}.
 *
 * @param verb one of {@link #GET}, {@link #LIST}, {@link #WATCH}, {@link #CREATE},
 *     {@link #UPDATE}, {@link #PATCH}, {@link #DELETE}
 * @param resource the resource
 * @param subresource {@code "status"} for a status update, otherwise {@code ""}
 * @param namespace the namespace (of the object, for create and update), {@code ""} if none
 * @param name the name, {@code ""} for list and watch (and a create by generateName)
 * @param object a copy of the object sent (create, update), otherwise null
 * @param patch the patch sent (patch), otherwise null
 * @param options the options of a list or watch, otherwise null
 */
public record Action(String verb, ResourceType resource, String subresource, String namespace, String name,
    Object object, String patch, ListOptions options) {

  public static final String GET = "get";
  public static final String LIST = "list";
  public static final String WATCH = "watch";
  public static final String CREATE = "create";
  public static final String UPDATE = "update";
  public static final String PATCH = "patch";
  public static final String DELETE = "delete";
  /** Matches every verb when registering a {@link Reactor}. */
  public static final String ANY_VERB = "*";

  public Action {
    Objects.requireNonNull(verb, "verb");
    Objects.requireNonNull(resource, "resource");
    subresource = subresource == null ? "" : subresource;
    namespace = namespace == null ? "" : namespace;
    name = name == null ? "" : name;
  }

  /** Whether this is {@code verb} ({@link #ANY_VERB} for any) on {@code type} (null for any). */
  public boolean is(String verb, ResourceType type) {
    return (verb.equals(ANY_VERB) || verb.equals(this.verb)) && (type == null || type.equals(resource));
  }

  /** Whether this was on the {@code status} subresource. */
  public boolean isStatus() {
    return subresource.equals("status");
  }

  /**
   * The object sent, as {@code type}.
   *
   * @throws IllegalStateException if no object was sent
   * @throws ClassCastException if it is not a {@code type}
   */
  public <T> T object(Class<T> type) {
    if (object == null) {
      throw new IllegalStateException("no object was sent with " + this);
    }
    return type.cast(object);
  }

  /**
   * {@code verb resource[/subresource] [namespace[/name]]}: {@code create pods default/web},
   * {@code update deployments.apps/status default/web}, {@code list pods default},
   * {@code watch nodes}.
   */
  @Override
  public String toString() {
    StringBuilder s = new StringBuilder(verb).append(' ').append(resource);
    if (!subresource.isEmpty()) {
      s.append('/').append(subresource);
    }
    if (!namespace.isEmpty() && !name.isEmpty()) {
      s.append(' ').append(namespace).append('/').append(name);
    } else if (!namespace.isEmpty() || !name.isEmpty()) {
      s.append(' ').append(namespace).append(name);
    }
    return s.toString();
  }
}
