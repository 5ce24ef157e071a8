package io.listwatch.client;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.listwatch.testsupport.ModuleArchitecture;

/**
 * The boundaries of listwatch-client that the build checks. Its packages form no cycle (but
 * for the public package and its own {@code internal} implementation, allowed below), and no
 * class reaches into an {@code internal} package from outside that package's parent.
 *
 * <p>The rules speak about this module's product code only: its main output directory is
 * imported, without tests ({@link ModuleArchitecture.MainClasses}).
 */
@AnalyzeClasses(locations = ModuleArchitecture.MainClasses.class, importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

  /**
   * No package of this module depends, through any path, on itself, with one exception allowed
   * here: {@code io.listwatch.client} and its own {@code internal} package. The public package
   * is the API and {@code internal} its implementation: {@code KubeClient.create} returns the
   * HTTP implementation ({@code internal.HttpKubeClient}), which implements the public types
   * ({@code KubeClient}, {@code ResourceClient}, {@code WatchStream}), and the public values
   * use the implementation's helpers ({@code internal.Json}, {@code Interner}, {@code Pem}).
   * The JDK's {@code java.net.http} has the same shape ({@code HttpClient.newBuilder()} returns
   * a {@code jdk.internal.net.http} builder). Only the edge from {@code io.listwatch.client}
   * itself into {@code io.listwatch.client.internal} is ignored: a cycle through any other
   * package ({@code cache}, {@code workqueue}, ...) still fails.
   */
  @ArchTest
  static final ArchRule packages_are_free_of_cycles = ModuleArchitecture.packagesAreFreeOfCycles()
      .ignoreDependency(resideInAPackage("io.listwatch.client"), resideInAPackage("io.listwatch.client.internal"));

  /** A class may use an {@code internal} package only from under that package's parent. */
  @ArchTest
  static final ArchRule internal_packages_are_used_only_under_their_parent =
      ModuleArchitecture.internalPackagesAreUsedOnlyUnderTheirParent();
}
