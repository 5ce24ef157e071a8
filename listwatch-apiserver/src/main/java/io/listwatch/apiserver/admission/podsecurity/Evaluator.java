package io.listwatch.apiserver.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Evaluates a pod against a level at a version (kube's {@code policy.Evaluator}, its
 * {@code checkRegistry}). Which checks run:
 *
 * <ul>
 *   <li>{@code privileged}: none;</li>
 *   <li>{@code baseline}: every baseline check, each in its revision for the version;</li>
 *   <li>{@code restricted}: the restricted checks, and the baseline checks that no restricted
 *       check at that version replaces ({@link Check.Versioned#overrides()}).</li>
 * </ul>
 *
 * <p>A version newer than the newest revision of any check, {@code latest} included, evaluates
 * as that newest version ({@code v1.32} for kube 1.32's checks); a version older than a check's
 * first revision leaves that check out. The results come in kube's order: the baseline checks by
 * id, then the restricted ones by id, so messages read the same every time.
 *
 * <p>Immutable and thread-safe.
 */
public final class Evaluator {

  /** kube 1.32's checks (its {@code policy.DefaultChecks()}). */
  public static final Evaluator DEFAULT = new Evaluator(List.of(AllowPrivilegeEscalation.check(),
      AppArmorProfile.check(), CapabilitiesBaseline.check(), CapabilitiesRestricted.check(), HostNamespaces.check(),
      HostPathVolumes.check(), HostPorts.check(), Privileged.check(), ProcMount.check(), RestrictedVolumes.check(),
      RunAsNonRoot.check(), RunAsUser.check(), SeLinuxOptions.check(), SeccompProfileBaseline.check(),
      SeccompProfileRestricted.check(), Sysctls.check(), WindowsHostProcess.check()));

  /** The checks, baseline first, each level by id. */
  private final List<Check> ordered;
  /** The newest minimum version of any check's revision. */
  private final Version newest;

  Evaluator(List<Check> checks) {
    List<Check> sorted = new ArrayList<>(checks);
    sorted.sort(Comparator.comparing((Check c) -> c.level() == Level.RESTRICTED).thenComparing(Check::id));
    this.ordered = List.copyOf(sorted);
    this.newest = checks.stream().flatMap(c -> c.versions().stream()).map(Check.Versioned::minimumVersion)
        .max(Comparator.naturalOrder()).orElse(Version.of(0));
  }

  /** The newest version the checks know; newer versions evaluate as it. */
  public Version newest() {
    return newest;
  }

  /** The result of each check {@code lv} runs on the pod {@code metadata}/{@code spec}, in order. */
  public List<CheckResult> evaluate(LevelVersion lv, JsonNode metadata, JsonNode spec) {
    if (lv.level() == Level.PRIVILEGED) {
      return List.of();
    }
    Version version = lv.version().compareTo(newest) > 0 ? newest : lv.version();
    Set<String> overridden = new HashSet<>();
    if (lv.level() == Level.RESTRICTED) {
      for (Check c : ordered) {
        if (c.level() == Level.RESTRICTED) {
          c.at(version).ifPresent(v -> overridden.addAll(v.overrides()));
        }
      }
    }
    List<CheckResult> results = new ArrayList<>();
    for (Check c : ordered) {
      boolean runs = c.level() == Level.BASELINE ? !overridden.contains(c.id()) : lv.level() == Level.RESTRICTED;
      if (runs) {
        c.at(version).ifPresent(v -> results.add(v.check().check(metadata, spec)));
      }
    }
    return results;
  }

  /** The revision of the check {@code id} that applies at {@code version} (for tests). */
  Check.PodCheck checkAt(String id, Version version) {
    return ordered.stream().filter(c -> c.id().equals(id)).findFirst().flatMap(c -> c.at(version)).orElseThrow()
        .check();
  }
}
