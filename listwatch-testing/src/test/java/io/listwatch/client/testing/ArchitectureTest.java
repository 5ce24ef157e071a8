package io.listwatch.client.testing;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.listwatch.testsupport.ModuleArchitecture;

/**
 * The boundaries of listwatch-testing that the build checks: no package cycle, no
 * {@code internal} package used from outside its parent (the fake uses the client's REST
 * implementation from under {@code io.listwatch.client}, which is allowed), and, as for the
 * core it runs, no transport: nothing from Netty or from the network server.
 */
@AnalyzeClasses(locations = ModuleArchitecture.MainClasses.class, importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

  @ArchTest
  static final ArchRule packages_are_free_of_cycles = ModuleArchitecture.packagesAreFreeOfCycles();

  @ArchTest
  static final ArchRule internal_packages_are_used_only_under_their_parent =
      ModuleArchitecture.internalPackagesAreUsedOnlyUnderTheirParent();

  @ArchTest
  static final ArchRule no_transport = com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses()
      .should().dependOnClassesThat().resideInAnyPackage("io.netty..", "io.listwatch.server..");
}
