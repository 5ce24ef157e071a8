package io.listwatch.testsupport;

import static com.tngtech.archunit.lang.conditions.ArchConditions.haveAnyDependenciesThat;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.LocationProvider;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceRule;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What every module's {@code ArchitectureTest} shares: the import of the module's own product
 * classes and the rules every module keeps. Each test keeps only its rules:
 *
 * <pre>{@code
 * @AnalyzeClasses(locations = ModuleArchitecture.MainClasses.class,
 *     importOptions = ImportOption.DoNotIncludeTests.class)
 * class ArchitectureTest {
 *   @ArchTest
 *   static final ArchRule packages_are_free_of_cycles = ModuleArchitecture.packagesAreFreeOfCycles();
 *   @ArchTest
 *   static final ArchRule internal_packages_are_used_only_under_their_parent =
 *       ModuleArchitecture.internalPackagesAreUsedOnlyUnderTheirParent();
 * }
 * }</pre>
 *
 * <p>The rules speak about a module's product code only: {@link MainClasses} imports the
 * module's main output directory, so neither its test classes nor the other modules'
 * {@code io.listwatch} classes on the test classpath are imported (they are still seen as the
 * targets of dependencies). Stateless.
 */
public final class ModuleArchitecture {

  /** {@code a.b.internal} or {@code a.b.internal.c}: group 1 is the parent, {@code a.b}. */
  private static final Pattern INTERNAL = Pattern.compile("(.+?)\\.internal(?:\\..+)?");

  private ModuleArchitecture() {
  }

  /** No package of the module depends, through any path, on itself. */
  public static SliceRule packagesAreFreeOfCycles() {
    return slices().matching("io.listwatch.(**)").should().beFreeOfCycles();
  }

  /**
   * A class may use an {@code internal} package only from under that package's parent. That
   * holds for every package the module's classes reach: ours, and the JDK's or a library's
   * ({@code jdk.internal..}, {@code io.netty.util.internal..}) too.
   */
  public static ArchRule internalPackagesAreUsedOnlyUnderTheirParent() {
    return noClasses().should(haveAnyDependenciesThat(reachIntoAnInternalPackageFromOutsideItsParent()));
  }

  /**
   * A dependency on a class of {@code P.internal..} from a class outside {@code P..}: e.g.
   * {@code io.listwatch.client.cache} may use {@code io.listwatch.client.internal},
   * {@code io.listwatch.controllers} may not.
   */
  private static DescribedPredicate<Dependency> reachIntoAnInternalPackageFromOutsideItsParent() {
    return DescribedPredicate.describe("reach into an internal package from outside its parent", dependency -> {
      Matcher internal = INTERNAL.matcher(dependency.getTargetClass().getPackageName());
      if (!internal.matches()) {
        return false;
      }
      String parent = internal.group(1);
      String origin = dependency.getOriginClass().getPackageName();
      return !origin.equals(parent) && !origin.startsWith(parent + ".");
    });
  }

  /**
   * The module's main classes: the output directory beside the one the test class was loaded
   * from, as Maven lays them out ({@code target/classes} beside {@code target/test-classes}).
   * Fails if the test class does not come from a {@code test-classes} directory with a
   * {@code classes} directory beside it, rather than import nothing and pass.
   */
  public static final class MainClasses implements LocationProvider {

    @Override
    public Set<Location> get(Class<?> testClass) {
      Path testClasses;
      try {
        testClasses = Path.of(testClass.getProtectionDomain().getCodeSource().getLocation().toURI());
      } catch (URISyntaxException e) {
        throw new IllegalStateException("where " + testClass.getName() + " was loaded from", e);
      }
      Path mainClasses = testClasses.resolveSibling("classes");
      if (!testClasses.getFileName().toString().equals("test-classes") || !Files.isDirectory(mainClasses)) {
        throw new IllegalStateException(testClass.getName() + " was loaded from " + testClasses
            + ", not from a test-classes directory with the module's classes directory beside it");
      }
      return Set.of(Location.of(mainClasses));
    }
  }
}
