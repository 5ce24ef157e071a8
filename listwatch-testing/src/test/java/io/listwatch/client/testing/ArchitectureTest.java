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
 * core it runs, no transport in the fake: only {@link ApiServerExtension} (which starts the
 * whole server), the peer clients it makes and {@link LocalWebhookServer} (which uses the
 * server's certificate authority) reach the network server.
 */
@AnalyzeClasses(locations = ModuleArchitecture.MainClasses.class, importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

  @ArchTest
  static final ArchRule packages_are_free_of_cycles = ModuleArchitecture.packagesAreFreeOfCycles();

  @ArchTest
  static final ArchRule internal_packages_are_used_only_under_their_parent =
      ModuleArchitecture.internalPackagesAreUsedOnlyUnderTheirParent();

  @ArchTest
  static final ArchRule the_fake_has_no_transport = com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses()
      .that(com.tngtech.archunit.base.DescribedPredicate.describe("are not the server extension",
          c -> !c.getName().startsWith(ApiServerExtension.class.getName()) && !c.getSimpleName().equals("PeerClients")
              && !c.getName().startsWith(LocalWebhookServer.class.getName())))
      .should().dependOnClassesThat().resideInAnyPackage("io.netty..", "io.listwatch.server..");
}
