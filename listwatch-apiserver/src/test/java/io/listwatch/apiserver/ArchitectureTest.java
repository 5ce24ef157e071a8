package io.listwatch.apiserver;

import static com.tngtech.archunit.lang.conditions.ArchConditions.haveAnyDependenciesThat;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.junit.LocationProvider;
import com.tngtech.archunit.lang.ArchRule;
import io.listwatch.apiserver.registry.ResourceRegistry;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The boundaries of listwatch-apiserver that the build checks. Its packages form no cycle, no
 * class reaches into an {@code internal} package from outside that package's parent, and the
 * core stays without sockets and without knowledge of the server that serves it: nothing here
 * depends on Netty or on {@code io.listwatch.server}.
 *
 * <p>The rules speak about this module's product code only: the classes come from the
 * directory {@link ResourceRegistry} was loaded from (its target/classes), without tests, so
 * neither the test classes nor the other modules' {@code io.listwatch} classes on the test
 * classpath are imported (they are still seen as the targets of dependencies).
 */
@AnalyzeClasses(locations = ArchitectureTest.MainClasses.class, importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

  /** No package of this module depends, through any path, on itself. */
  @ArchTest
  static final ArchRule packages_are_free_of_cycles =
      slices().matching("io.listwatch.(**)").should().beFreeOfCycles();

  /**
   * A class may use an {@code internal} package only from under that package's parent. That
   * holds for every package this module's classes reach: ours, and the JDK's or a library's
   * ({@code jdk.internal..}, {@code io.netty.util.internal..}) too.
   */
  @ArchTest
  static final ArchRule internal_packages_are_used_only_under_their_parent =
      noClasses().should(haveAnyDependenciesThat(reachIntoAnInternalPackageFromOutsideItsParent()));

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

  /** {@code a.b.internal} or {@code a.b.internal.c}: group 1 is the parent, {@code a.b}. */
  private static final Pattern INTERNAL = Pattern.compile("(.+?)\\.internal(?:\\..+)?");

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

  /** This module's main classes: where {@link ResourceRegistry} was loaded from. */
  static final class MainClasses implements LocationProvider {
    @Override
    public Set<Location> get(Class<?> testClass) {
      return Set.of(Location.of(ResourceRegistry.class.getProtectionDomain().getCodeSource().getLocation()));
    }
  }
}
