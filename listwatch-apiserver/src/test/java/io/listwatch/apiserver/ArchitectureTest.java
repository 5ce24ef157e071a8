package io.listwatch.apiserver;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.listwatch.testsupport.ModuleArchitecture;

/**
 * The boundaries of listwatch-apiserver that the build checks. Its packages form no cycle, no
 * class reaches into an {@code internal} package from outside that package's parent, and the
 * core stays without sockets and without knowledge of the server that serves it: nothing here
 * depends on Netty or on {@code io.listwatch.server}.
 *
 * <p>The rules speak about this module's product code only: its main output directory is
 * imported, without tests ({@link ModuleArchitecture.MainClasses}).
 */
@AnalyzeClasses(locations = ModuleArchitecture.MainClasses.class, importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

  /** No package of this module depends, through any path, on itself. */
  @ArchTest
  static final ArchRule packages_are_free_of_cycles = ModuleArchitecture.packagesAreFreeOfCycles();

  /** A class may use an {@code internal} package only from under that package's parent. */
  @ArchTest
  static final ArchRule internal_packages_are_used_only_under_their_parent =
      ModuleArchitecture.internalPackagesAreUsedOnlyUnderTheirParent();

  /** The core has no sockets: Netty belongs to listwatch-server's transports. */
  @ArchTest
  static final ArchRule no_class_depends_on_netty =
      noClasses().should().dependOnClassesThat().resideInAPackage("io.netty..")
          .because("the core has no sockets: listwatch-server's transports own Netty");

  /** The core does not know its front door: listwatch-server depends on it, never the reverse. */
  @ArchTest
  static final ArchRule no_class_depends_on_the_server =
      noClasses().should().dependOnClassesThat().resideInAPackage("io.listwatch.server..")
          .because("the core does not know its front door: listwatch-server depends on it, never the reverse");
}
