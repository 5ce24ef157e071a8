package io.listwatch.apiserver.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * kube's ResourceQuota admission plug-in against quotas held by a stub (kube's
 * resourcequota admission_test.go cases: TestAdmitBelowQuotaLimit, TestAdmitExceedQuotaLimit,
 * TestAdmitEnforceQuotaConstraints, TestAdmitBelowTerminatingQuotaLimit, TestAdmissionSetsMissingNamespace,
 * TestAdmitRequestsAndLimitsWithNoQuota..., TestAdmitLimitedResourceWithQuota..., the service
 * update cases).
 */
class ResourceQuotaTest {

  private static final ResourceRegistry REGISTRY = ResourceRegistry.builtins();
  private static final ResourceDefinition PODS = REGISTRY.find("", "v1", "pods").orElseThrow();
  private static final ResourceDefinition SERVICES = REGISTRY.find("", "v1", "services").orElseThrow();
  private static final ResourceDefinition CONFIGMAPS = REGISTRY.find("", "v1", "configmaps").orElseThrow();
  private static final ResourceDefinition CLAIMS = REGISTRY.find("", "v1", "persistentvolumeclaims").orElseThrow();

  /** Quotas in storage, by name; the cache is a copy taken when {@link #cache} is called. */
  private final Map<String, ObjectNode> stored = new ConcurrentHashMap<>();
  private List<ObjectNode> cached = List.of();
  private final List<String> writes = new ArrayList<>();
  private long revision = 10;

  private final ResourceQuota.QuotaAccessor accessor = new ResourceQuota.QuotaAccessor() {
    @Override
    public CompletableFuture<Optional<ObjectNode>> get(String namespace, String name) {
      return CompletableFuture.completedFuture(Optional.ofNullable(stored.get(name)).map(ObjectNode::deepCopy));
    }

    @Override
    public CompletableFuture<ObjectNode> updateStatus(ObjectNode quota) {
      String name = quota.path("metadata").path("name").asText();
      ObjectNode current = stored.get(name);
      if (current == null) {
        return CompletableFuture.failedFuture(StatusException.notFound("", "resourcequotas", name));
      }
      if (!current.path("metadata").path("resourceVersion").equals(quota.path("metadata").path("resourceVersion"))) {
        return CompletableFuture.failedFuture(StatusException.conflictModified("", "resourcequotas", name));
      }
      ObjectNode updated = quota.deepCopy();
      ((ObjectNode) updated.get("metadata")).put("resourceVersion", Long.toString(++revision));
      stored.put(name, updated);
      writes.add(name + " " + updated.path("status").path("used"));
      return CompletableFuture.completedFuture(updated.deepCopy());
    }

    @Override
    public Instant now() {
      return Instant.parse("2026-01-01T00:00:00Z");
    }
  };

  private final Listers listers = new ListersByPlural(plural -> plural.equals("resourcequotas") ? cached : List.of());

  private final ResourceQuota plugin = new ResourceQuota(listers, accessor);

  /** Stores a measured quota: spec.hard and status.hard {@code hard}, status.used {@code used}. */
  private void quota(String name, String hard, String used, String spec) {
    ObjectNode q = InMemoryCore.json("{\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"test\",\"resourceVersion\":\""
        + (++revision) + "\"},\"spec\":{\"hard\":" + hard + spec + "},\"status\":{\"hard\":" + hard + ",\"used\":" + used + "}}");
    stored.put(name, q);
  }

  private void cache() {
    cached = stored.values().stream().map(ObjectNode::deepCopy).toList();
  }

  private static ObjectNode pod(String name, String resources, String specExtra) {
    return InMemoryCore.json("{\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"test\"},\"spec\":{\"containers\":"
        + "[{\"name\":\"ctr\",\"image\":\"image\",\"resources\":" + resources + "}]" + specExtra + "}}");
  }

  private static AdmissionAttributes create(ResourceDefinition def, ObjectNode obj, boolean dryRun) {
    return new AdmissionAttributes(AdmissionAttributes.Operation.CREATE, def, "", "test",
        obj.path("metadata").path("name").asText(), obj, null, AdmissionAttributes.SERVER, dryRun);
  }

  private String refusal(AdmissionAttributes a) {
    CompletionException e = catchThrowableOfType(CompletionException.class, () -> plugin.validate(a).join());
    return e == null ? null : e.getCause().getMessage();
  }

  private String used(String name) {
    return stored.get(name).path("status").path("used").toString();
  }

  private static final String COMPUTE = "{\"requests\":{\"cpu\":\"100m\",\"memory\":\"2Gi\"},\"limits\":{\"cpu\":\"200m\","
      + "\"memory\":\"2Gi\"}}";

  @Test
  void belowTheLimit_isAdmitted_andCharged() {
    quota("quota", "{\"cpu\":\"3\",\"memory\":\"100Gi\",\"pods\":\"5\"}", "{\"cpu\":\"1\",\"memory\":\"50Gi\",\"pods\":\"3\"}", "");
    cache();
    assertThat(refusal(create(PODS, pod("123", COMPUTE, ""), false))).isNull();
    assertThat(used("quota")).isEqualTo("{\"cpu\":\"1100m\",\"memory\":\"52Gi\",\"pods\":\"4\"}");
  }

  @Test
  void overTheLimit_isForbidden_namingWhatExceeds() {
    quota("quota", "{\"cpu\":\"3\",\"memory\":\"100Gi\",\"pods\":\"5\"}", "{\"cpu\":\"1\",\"memory\":\"50Gi\",\"pods\":\"3\"}", "");
    cache();
    String big = "{\"requests\":{\"cpu\":\"3\",\"memory\":\"50Gi\"},\"limits\":{\"cpu\":\"3\",\"memory\":\"50Gi\"}}";
    assertThat(refusal(create(PODS, pod("123", big, ""), false))).isEqualTo(
        "pods \"123\" is forbidden: exceeded quota: quota, requested: cpu=3, used: cpu=1, limited: cpu=3");
    assertThat(writes).isEmpty();
  }

  @Test
  void aQuotaOnCpu_requiresEveryContainerToRequestIt() {
    quota("quota", "{\"cpu\":\"3\",\"limits.memory\":\"10Gi\"}", "{\"cpu\":\"0\",\"limits.memory\":\"0\"}", "");
    cache();
    ObjectNode pod = InMemoryCore.json("{\"metadata\":{\"name\":\"p\",\"namespace\":\"test\"},\"spec\":{\"containers\":["
        + "{\"name\":\"b\",\"image\":\"i\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}},{\"name\":\"a\",\"image\":\"i\"}],"
        + "\"initContainers\":[{\"name\":\"c\",\"image\":\"i\"}]}}");
    assertThat(refusal(create(PODS, pod, false))).isEqualTo("pods \"p\" is forbidden: failed quota: quota: must specify "
        + "cpu for: a,c; limits.memory for: a,b,c");
  }

  @Test
  void aQuotaTheControllerHasNotMeasured_isUnknown_orAppliesToNothing() {
    quota("quota", "{\"pods\":\"5\",\"count/pods\":\"5\"}", "{\"pods\":\"1\"}", "");
    cache();
    assertThat(refusal(create(PODS, pod("p", "{}", ""), false))).isEqualTo(
        "pods \"p\" is forbidden: status unknown for quota: quota, resources: count/pods,pods");

    ObjectNode fresh = InMemoryCore.json("{\"metadata\":{\"name\":\"new\",\"namespace\":\"test\",\"resourceVersion\":\"1\"},"
        + "\"spec\":{\"hard\":{\"pods\":\"0\"}}}");
    stored.clear();
    stored.put("new", fresh);
    cache();
    assertThat(refusal(create(PODS, pod("p", "{}", ""), false))).as("no status.hard yet").isNull();
  }

  @Test
  void scopes_chooseThePods_aQuotaApplies_to() {
    quota("terminating", "{\"pods\":\"1\"}", "{\"pods\":\"1\"}", ",\"scopes\":[\"Terminating\"]");
    quota("best-effort", "{\"pods\":\"5\"}", "{\"pods\":\"0\"}", ",\"scopes\":[\"BestEffort\"]");
    cache();
    assertThat(refusal(create(PODS, pod("long-running", "{}", ""), false))).isNull();
    assertThat(writes).containsExactly("best-effort {\"pods\":\"1\"}");
    assertThat(refusal(create(PODS, pod("job", COMPUTE, ",\"activeDeadlineSeconds\":60"), false))).isEqualTo(
        "pods \"job\" is forbidden: exceeded quota: terminating, requested: pods=1, used: pods=1, limited: pods=1");
  }

  @Test
  void aDryRun_isCheckedButNotCharged() {
    quota("quota", "{\"pods\":\"1\"}", "{\"pods\":\"0\"}", "");
    cache();
    assertThat(refusal(create(PODS, pod("p", "{}", ""), true))).isNull();
    assertThat(writes).isEmpty();
  }

  @Test
  void aQuotaChangedSinceTheCacheRead_isReadAgain_andCheckedAgain() {
    quota("quota", "{\"pods\":\"2\"}", "{\"pods\":\"0\"}", "");
    cache();
    quota("quota", "{\"pods\":\"2\"}", "{\"pods\":\"1\"}", ""); // another server charged it meanwhile
    assertThat(refusal(create(PODS, pod("a", "{}", ""), false))).isNull();
    assertThat(used("quota")).isEqualTo("{\"pods\":\"2\"}");
    assertThat(refusal(create(PODS, pod("b", "{}", ""), false))).as("what this plug-in wrote counts, cache or not")
        .isEqualTo("pods \"b\" is forbidden: exceeded quota: quota, requested: pods=1, used: pods=2, limited: pods=2");
  }

  @Test
  void aServiceUpdate_isChargedWhatItAdds() {
    quota("quota", "{\"services.loadbalancers\":\"1\",\"services\":\"5\"}",
        "{\"services.loadbalancers\":\"1\",\"services\":\"1\"}", "");
    cache();
    ObjectNode old = InMemoryCore.json("{\"metadata\":{\"name\":\"s\",\"namespace\":\"test\",\"resourceVersion\":\"3\"},"
        + "\"spec\":{\"type\":\"ClusterIP\",\"ports\":[{\"port\":80}]}}");
    ObjectNode lb = old.deepCopy();
    ((ObjectNode) lb.get("spec")).put("type", "LoadBalancer");
    AdmissionAttributes update = new AdmissionAttributes(AdmissionAttributes.Operation.UPDATE, SERVICES, "", "test", "s",
        lb, old, AdmissionAttributes.SERVER, false);
    assertThat(refusal(update)).isEqualTo("services \"s\" is forbidden: exceeded quota: quota, requested: "
        + "services.loadbalancers=1, used: services.loadbalancers=1, limited: services.loadbalancers=1");
    AdmissionAttributes same = new AdmissionAttributes(AdmissionAttributes.Operation.UPDATE, SERVICES, "", "test", "s",
        old.deepCopy(), old, AdmissionAttributes.SERVER, false);
    assertThat(refusal(same)).as("an update that adds nothing is not measured against the quota").isNull();
  }

  @Test
  void objectCounts_areChargedOnCreate_only() {
    quota("quota", "{\"configmaps\":\"1\"}", "{\"configmaps\":\"1\"}", "");
    cache();
    ObjectNode cm = InMemoryCore.json("{\"metadata\":{\"name\":\"c\",\"namespace\":\"test\",\"resourceVersion\":\"2\"}}");
    assertThat(refusal(create(CONFIGMAPS, cm, false))).isEqualTo("configmaps \"c\" is forbidden: exceeded quota: quota, "
        + "requested: configmaps=1, used: configmaps=1, limited: configmaps=1");
    AdmissionAttributes update = new AdmissionAttributes(AdmissionAttributes.Operation.UPDATE, CONFIGMAPS, "", "test", "c",
        cm, cm.deepCopy(), AdmissionAttributes.SERVER, false);
    assertThat(refusal(update)).isNull();
  }

  @Test
  void aClaimResize_isChargedTheStorageItAdds_andSubresourcesAreNotMeasured() {
    quota("quota", "{\"requests.storage\":\"10Gi\",\"persistentvolumeclaims\":\"5\"}",
        "{\"requests.storage\":\"5Gi\",\"persistentvolumeclaims\":\"1\"}", "");
    cache();
    ObjectNode old = InMemoryCore.json("{\"metadata\":{\"name\":\"c\",\"namespace\":\"test\",\"resourceVersion\":\"3\"},"
        + "\"spec\":{\"resources\":{\"requests\":{\"storage\":\"5Gi\"}}}}");
    ObjectNode bigger = old.deepCopy();
    ((ObjectNode) bigger.at("/spec/resources/requests")).put("storage", "8Gi");
    AdmissionAttributes resize = new AdmissionAttributes(AdmissionAttributes.Operation.UPDATE, CLAIMS, "", "test", "c",
        bigger, old, AdmissionAttributes.SERVER, false);
    assertThat(refusal(resize)).isNull();
    assertThat(used("quota")).isEqualTo("{\"requests.storage\":\"8Gi\",\"persistentvolumeclaims\":\"1\"}");
    ObjectNode huge = old.deepCopy();
    ((ObjectNode) huge.at("/spec/resources/requests")).put("storage", "20Gi");
    AdmissionAttributes tooBig = new AdmissionAttributes(AdmissionAttributes.Operation.UPDATE, CLAIMS, "", "test", "c",
        huge, old, AdmissionAttributes.SERVER, false);
    assertThat(refusal(tooBig)).isEqualTo("persistentvolumeclaims \"c\" is forbidden: exceeded quota: quota, requested: "
        + "requests.storage=15Gi, used: requests.storage=8Gi, limited: requests.storage=10Gi");
    AdmissionAttributes status = new AdmissionAttributes(AdmissionAttributes.Operation.UPDATE, CLAIMS, "status", "test",
        "c", huge, old, AdmissionAttributes.SERVER, false);
    assertThat(refusal(status)).isNull();
  }
}
