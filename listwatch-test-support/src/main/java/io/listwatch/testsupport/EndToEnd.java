package io.listwatch.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Marks a test class as end-to-end: it starts a real program beside the JVM or drives a client
 * that is not ours. That is kubectl, an etcd server or cluster, HAProxy, Chromium or curl as a
 * child process, or fabric8's or the official Java client. It carries the JUnit tag
 * {@value #TAG}: the build's surefire runs every other test in the {@code test} phase, failsafe
 * runs these in {@code integration-test}, and {@code verify} fails if either failed (see the
 * root pom).
 *
 * <p>A test that starts our {@code ApiServer} in-process and talks to it with our own client or
 * {@code java.net.http} is a unit test, however much of the server it exercises; so is one that
 * starts a child JVM of our own code.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Tag(EndToEnd.TAG)
public @interface EndToEnd {

  /** The JUnit tag: the build selects on it. */
  String TAG = "e2e";
}
