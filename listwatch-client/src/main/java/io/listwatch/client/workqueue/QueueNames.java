package io.listwatch.client.workqueue;

/** Validation and the default for queue names. Stateless. */
final class QueueNames {

  static final String DEFAULT = "workqueue";

  private QueueNames() {}

  static String require(String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("queue name must not be blank: " + name);
    }
    return name;
  }
}
