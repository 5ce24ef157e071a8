package io.listwatch.client.internal;

import io.listwatch.client.MetaAccessor;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Collections;
import java.util.Map;

/**
 * Reads metadata from model objects by convention: {@code getMetadata()} (or a record's
 * {@code metadata()}) returning an object with {@code getName()}, {@code getNamespace()},
 * {@code getResourceVersion()}, {@code getUid()}, {@code getLabels()} and
 * {@code getAnnotations()} (or record accessors of those names); fabric8's models and
 * official-client-style models follow it. Getters are looked up once per class and called
 * through method handles. A missing getter reads as absent.
 *
 * <p>Immutable, thread-safe.
 *
 * @param <T> the object type
 */
public final class ReflectiveMetaAccessor<T> implements MetaAccessor<T> {

  private static final MethodType GENERIC = MethodType.genericMethodType(1);

  private final MethodHandle metadata;
  private final MethodHandle name;
  private final MethodHandle namespace;
  private final MethodHandle resourceVersion;
  private final MethodHandle uid;
  private final MethodHandle labels;
  private final MethodHandle annotations;

  private ReflectiveMetaAccessor(MethodHandle metadata, Class<?> metaType) {
    this.metadata = metadata;
    this.name = getter(metaType, "name");
    this.namespace = getter(metaType, "namespace");
    this.resourceVersion = getter(metaType, "resourceVersion");
    this.uid = getter(metaType, "uid");
    this.labels = getter(metaType, "labels");
    this.annotations = getter(metaType, "annotations");
  }

  /**
   * The accessor for {@code type}.
   *
   * @throws IllegalArgumentException if {@code type} has no metadata getter, or its metadata
   *     type has no {@code name} getter
   */
  public static <T> ReflectiveMetaAccessor<T> forType(Class<T> type) {
    Method m = find(type, "metadata");
    if (m == null) {
      throw new IllegalArgumentException(type.getName()
          + " has no getMetadata() or metadata(); pass a MetaAccessor to JacksonCodec.of");
    }
    ReflectiveMetaAccessor<T> accessor = new ReflectiveMetaAccessor<>(handle(m), m.getReturnType());
    if (accessor.name == null) {
      throw new IllegalArgumentException(m.getReturnType().getName()
          + " (the metadata of " + type.getName() + ") has no getName(); pass a MetaAccessor");
    }
    return accessor;
  }

  @Override
  public String namespace(T object) {
    return string(namespace, object);
  }

  @Override
  public String name(T object) {
    return string(name, object);
  }

  @Override
  public String resourceVersion(T object) {
    return string(resourceVersion, object);
  }

  @Override
  public String uid(T object) {
    return string(uid, object);
  }

  @Override
  public Map<String, String> labels(T object) {
    return map(labels, object);
  }

  @Override
  public Map<String, String> annotations(T object) {
    return map(annotations, object);
  }

  private String string(MethodHandle getter, T object) {
    Object v = get(getter, object);
    return v == null ? "" : v.toString();
  }

  @SuppressWarnings("unchecked")
  private Map<String, String> map(MethodHandle getter, T object) {
    Object v = get(getter, object);
    return v instanceof Map<?, ?> m ? Collections.unmodifiableMap((Map<String, String>) m) : Map.of();
  }

  private Object get(MethodHandle getter, T object) {
    if (getter == null) {
      return null;
    }
    try {
      Object meta = (Object) metadata.invokeExact((Object) object);
      return meta == null ? null : (Object) getter.invokeExact(meta);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("metadata getter failed", e);
    }
  }

  private static MethodHandle getter(Class<?> type, String property) {
    Method m = find(type, property);
    return m == null ? null : handle(m);
  }

  /** {@code getProperty()} or {@code property()}: public, no parameters, not void. */
  private static Method find(Class<?> type, String property) {
    String bean = "get" + Character.toUpperCase(property.charAt(0)) + property.substring(1);
    for (String candidate : new String[] {bean, property}) {
      try {
        Method m = type.getMethod(candidate);
        if (m.getReturnType() != void.class && !Modifier.isStatic(m.getModifiers())) {
          return m;
        }
      } catch (NoSuchMethodException e) {
        // try the next spelling
      }
    }
    return null;
  }

  private static MethodHandle handle(Method m) {
    try {
      m.trySetAccessible(); // public methods of non-public classes (test models, records)
      return MethodHandles.lookup().unreflect(m).asType(GENERIC);
    } catch (IllegalAccessException e) {
      throw new IllegalArgumentException("cannot call " + m + ": " + e.getMessage(), e);
    }
  }
}
