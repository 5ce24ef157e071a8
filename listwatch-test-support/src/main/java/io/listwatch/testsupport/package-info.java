/**
 * What the tests of every module share; a test-scope dependency, depending on no listwatch
 * module.
 *
 * <ul>
 *   <li>{@link io.listwatch.testsupport.Await}: a bounded poll that backs off, for what another
 *       thread or process does in its own time; the one place a test sleeps to wait.</li>
 *   <li>{@link io.listwatch.testsupport.EndToEnd}: the tag of a test that drives a real program
 *       (kubectl, etcd, HAProxy, Chromium, curl) or a client not ours (fabric8, the official
 *       Java client); the build runs those with failsafe, the rest with surefire.</li>
 *   <li>{@link io.listwatch.testsupport.Kubectl}: the kubectl on PATH as a child process, with
 *       a kubeconfig and a HOME of its own, every wait bounded.</li>
 *   <li>{@link io.listwatch.testsupport.Http}: JSON over {@code java.net.http}, bodies as
 *       strings.</li>
 *   <li>{@link io.listwatch.testsupport.ModuleArchitecture}: the class import and the shared
 *       rules of each module's {@code ArchitectureTest}.</li>
 *   <li>{@link io.listwatch.testsupport.ModelChecks}: the options of every Lincheck model check,
 *       short in the test command, longer on request.</li>
 * </ul>
 */
package io.listwatch.testsupport;
