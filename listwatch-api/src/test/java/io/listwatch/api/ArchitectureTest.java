package io.listwatch.api;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.listwatch.testsupport.ModuleArchitecture;

/**
 * The boundaries of listwatch-api that the build checks. Its packages form no cycle, and no
 * class reaches into an {@code internal} package from outside that package's parent.
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
}
