package io.listwatch.api.apply;

import static io.listwatch.api.apply.FieldsV1Test.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class FieldManagerTest {

  static final Instant T1 = Instant.parse("2026-01-02T03:04:05.678Z");
  static final Instant T2 = Instant.parse("2026-01-02T04:00:00Z");
  static final FieldManager DEPLOYMENTS = new FieldManager(BuiltinApplySchema.forKind("apps", "v1", "Deployment"));
  static final FieldManager CONFIGMAPS = new FieldManager(BuiltinApplySchema.forKind("", "v1", "ConfigMap"));

  static final String WEB = "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'web','labels':{'app':'web'}},"
      + "'spec':{'replicas':2,'selector':{'matchLabels':{'app':'web'}},'template':{'metadata':{'labels':{'app':'web'}},"
      + "'spec':{'containers':[{'name':'nginx','image':'nginx:1.27','ports':[{'containerPort':80}]}]}}}}";

  static JsonNode fieldsOf(FieldManager.Result r, String manager) {
    return r.managedFields().stream().filter(e -> e.manager().equals(manager)).findFirst().orElseThrow().toJson()
        .get("fieldsV1");
  }

  static FieldManager.Result apply(FieldManager m, JsonNode live, String applied, String manager, boolean force)
      throws StatusException {
    return m.apply(live, json(applied), manager, "apps/v1", force, T2);
  }

  @Test
  void apply_createsObject_recordingKubesManagedFieldsEntry() throws Exception {
    FieldManager.Result r = DEPLOYMENTS.apply(null, json(WEB), "kubectl", "apps/v1", false, T1);
    assertThat(r.object().get("spec")).isEqualTo(json(WEB).get("spec"));
    assertThat(r.object().at("/metadata/managedFields")).isEqualTo(json(
        "[{'manager':'kubectl','operation':'Apply','apiVersion':'apps/v1','time':'2026-01-02T03:04:05Z','fieldsType':'FieldsV1',"
            + "'fieldsV1':{'f:metadata':{'f:labels':{'f:app':{}}},'f:spec':{'f:replicas':{},'f:selector':{},"
            + "'f:template':{'f:metadata':{'f:labels':{'f:app':{}}},'f:spec':{'f:containers':{"
            + "'k:{\\'name\\':\\'nginx\\'}':{'.':{},'f:image':{},'f:name':{},'f:ports':{"
            + "'k:{\\'containerPort\\':80,\\'protocol\\':\\'TCP\\'}':{'.':{},'f:containerPort':{}}}}}}}}}}]"));
  }

  @Test
  void reapply_withoutAField_removesIt_whenNobodyElseOwnsIt() throws Exception {
    JsonNode live = DEPLOYMENTS.apply(null, json(WEB), "kubectl", "apps/v1", false, T1).object();
    FieldManager.Result r = apply(DEPLOYMENTS, live, WEB.replace("'labels':{'app':'web'}},'spec':{'replicas'", "'x':1},'spec':{'replicas'")
        .replace("'replicas':2,", ""), "kubectl", false);
    assertThat(r.object().at("/spec").has("replicas")).isFalse();
    assertThat(r.object().at("/metadata").has("labels")).isTrue(); // emptied map stays, as kube leaves it
    assertThat(r.object().at("/metadata/labels").isEmpty()).isTrue();
    assertThat(fieldsOf(r, "kubectl").get("f:spec").has("f:replicas")).isFalse();
  }

  @Test
  void reapply_withoutAField_keepsIt_whenAnotherApplierOwnsIt() throws Exception {
    JsonNode live = DEPLOYMENTS.apply(null, json(WEB), "kubectl", "apps/v1", false, T1).object();
    live = apply(DEPLOYMENTS, live, "{'spec':{'replicas':2}}", "ops", false).object(); // same value: shared, no conflict
    FieldManager.Result r = apply(DEPLOYMENTS, live, WEB.replace("'replicas':2,", ""), "kubectl", false);
    assertThat(r.object().at("/spec/replicas").asInt()).isEqualTo(2);
    assertThat(fieldsOf(r, "ops")).isEqualTo(json("{'f:spec':{'f:replicas':{}}}"));
  }

  @Test
  void apply_conflictingWithAnUpdater_fails409WithKubesMessage_andChangesNothing() throws Exception {
    JsonNode live = DEPLOYMENTS.update(json("{}"), json(WEB), "kubectl-client-side-apply", "apps/v1", T1).object();
    assertThatThrownBy(() -> apply(DEPLOYMENTS, live, "{'spec':{'replicas':3}}", "kubectl", false))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          Status s = e.status();
          assertThat(s.code()).isEqualTo(409);
          assertThat(s.reason()).isEqualTo("Conflict");
          assertThat(s.message()).isEqualTo(
              "Apply failed with 1 conflict: conflict with \"kubectl-client-side-apply\" using apps/v1: .spec.replicas");
          assertThat(s.details().causes()).containsExactly(new Status.Cause("FieldManagerConflict",
              "conflict with \"kubectl-client-side-apply\" using apps/v1", ".spec.replicas"));
        });
  }

  @Test
  void apply_severalConflicts_groupsThemByManager() throws Exception {
    JsonNode live = DEPLOYMENTS.apply(null, json(WEB), "a", "apps/v1", false, T1).object();
    live = DEPLOYMENTS.update(live, json(live.toString().replace("nginx:1.27", "nginx:1.28")), "b", "apps/v1", T1).object();
    String changed = WEB.replace("'replicas':2", "'replicas':5").replace("nginx:1.27", "nginx:2").replace("'labels':{'app':'web'}},'spec':{'r", "'labels':{'app':'x'}},'spec':{'r");
    JsonNode finalLive = live;
    assertThatThrownBy(() -> apply(DEPLOYMENTS, finalLive, changed, "c", false)).hasMessage(
        "Apply failed with 3 conflicts: conflicts with \"a\":\n- .metadata.labels.app\n- .spec.replicas\n"
            + "conflicts with \"b\" using apps/v1:\n- .spec.template.spec.containers[name=\"nginx\"].image");
  }

  @Test
  void forcedApply_takesOwnershipFromTheOtherManager() throws Exception {
    JsonNode live = DEPLOYMENTS.update(json("{}"), json(WEB), "kubectl-client-side-apply", "apps/v1", T1).object();
    FieldManager.Result r = apply(DEPLOYMENTS, live, "{'spec':{'replicas':3}}", "kubectl", true);
    assertThat(r.object().at("/spec/replicas").asInt()).isEqualTo(3);
    assertThat(fieldsOf(r, "kubectl")).isEqualTo(json("{'f:spec':{'f:replicas':{}}}"));
    assertThat(fieldsOf(r, "kubectl-client-side-apply").get("f:spec").has("f:replicas")).isFalse();
    assertThat(r.managedFields()).extracting(ManagedFieldsEntry::operation).containsExactly("Apply", "Update");
  }

  @Test
  void apply_mergesListMapItemsByKey_setsByUnion_andReplacesAtomicLists() throws Exception {
    FieldManager pods = new FieldManager(BuiltinApplySchema.forKind("", "v1", "Pod"));
    JsonNode live = pods.apply(null, json("{'metadata':{'finalizers':['a']},'spec':{'containers':[{'name':'x','image':'i',"
        + "'args':['1','2']},{'name':'y','image':'j'}]}}"), "one", "v1", false, T1).object();
    FieldManager.Result r = pods.apply(live, json("{'metadata':{'finalizers':['b']},'spec':{'containers':[{'name':'z','image':'k'}],"
        + "'tolerations':[{'key':'t'}]}}"), "two", "v1", false, T2);
    assertThat(r.object().at("/spec/containers")).isEqualTo(json(
        "[{'name':'x','image':'i','args':['1','2']},{'name':'y','image':'j'},{'name':'z','image':'k'}]"));
    assertThat(r.object().at("/metadata/finalizers")).isEqualTo(json("['a','b']"));
    FieldManager.Result args = pods.apply(r.object(), json("{'spec':{'containers':[{'name':'x','args':['3']}]}}"), "one", "v1", true, T2);
    assertThat(args.object().at("/spec/containers/0/args")).isEqualTo(json("['3']"));
    // "one" no longer applies container y nor the finalizer a, and nobody else owns them
    assertThat(args.object().at("/spec/containers")).isEqualTo(json(
        "[{'name':'x','args':['3']},{'name':'z','image':'k'}]"));
    assertThat(args.object().at("/metadata/finalizers")).isEqualTo(json("['b']"));
  }

  @Test
  void update_recordsChangedFields_forTheWriter_andTakesThemFromAppliers() throws Exception {
    JsonNode live = DEPLOYMENTS.apply(null, json(WEB), "kubectl", "apps/v1", false, T1).object();
    JsonNode scaled = live.deepCopy();
    ((com.fasterxml.jackson.databind.node.ObjectNode) scaled.get("spec")).put("replicas", 5);
    FieldManager.Result r = DEPLOYMENTS.update(live, scaled, "kubectl-edit", "apps/v1", T2);
    assertThat(r.managedFields()).extracting(ManagedFieldsEntry::manager, ManagedFieldsEntry::operation,
        ManagedFieldsEntry::time).containsExactly(
            org.assertj.core.groups.Tuple.tuple("kubectl", "Apply", Instant.parse("2026-01-02T03:04:05Z")),
            org.assertj.core.groups.Tuple.tuple("kubectl-edit", "Update", T2));
    assertThat(fieldsOf(r, "kubectl-edit")).isEqualTo(json("{'f:spec':{'f:replicas':{}}}"));
    assertThat(fieldsOf(r, "kubectl").get("f:spec").has("f:replicas")).isFalse();
    // the applier re-applying its old value now conflicts with the editor
    assertThatThrownBy(() -> apply(DEPLOYMENTS, r.object(), WEB, "kubectl", false))
        .hasMessage("Apply failed with 1 conflict: conflict with \"kubectl-edit\" using apps/v1: .spec.replicas");
  }

  @Test
  void update_asKubectlCreate_ofAConfigMap_recordsKubesEntry() {
    FieldManager.Result r = CONFIGMAPS.update(json("{}"), json(
        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c','namespace':'d','uid':'u','resourceVersion':'1',"
            + "'creationTimestamp':'2026-01-02T03:04:05Z'},'data':{'a':'1','b':'2'}}"), "kubectl-create", "v1", T1);
    assertThat(r.object().at("/metadata/managedFields")).isEqualTo(json(
        "[{'manager':'kubectl-create','operation':'Update','apiVersion':'v1','time':'2026-01-02T03:04:05Z',"
            + "'fieldsType':'FieldsV1','fieldsV1':{'f:data':{'.':{},'f:a':{},'f:b':{}}}}]"));
  }

  @Test
  void update_removingAField_takesItFromEveryOwner_andDropsEmptyEntries() throws Exception {
    JsonNode live = CONFIGMAPS.apply(null, json("{'data':{'a':'1'}}"), "x", "v1", false, T1).object();
    FieldManager.Result r = CONFIGMAPS.update(live, json("{'metadata':{},'data':{}}"), "y", "v1", T2);
    assertThat(r.managedFields()).extracting(ManagedFieldsEntry::manager).containsExactly();
    assertThat(r.object().at("/metadata").has("managedFields")).isFalse();
    assertThat(List.of(r.object().get("data"))).containsExactly(json("{}"));
  }

  @Test
  void apply_withManagedFieldsInTheConfiguration_isABadRequest() {
    assertThatThrownBy(() -> apply(CONFIGMAPS, null, "{'metadata':{'managedFields':[]},'data':{'a':'1'}}", "x", false))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.status().code()).isEqualTo(400);
          assertThat(e.status().message()).isEqualTo("metadata.managedFields must be nil");
        });
  }

  @Test
  void update_writingAnEmptyList_keepsOwnership_butAnInvalidEntryStripsIt() throws Exception {
    JsonNode live = CONFIGMAPS.apply(null, json("{'data':{'a':'1'}}"), "x", "v1", false, T1).object();
    JsonNode emptied = json("{'metadata':{'managedFields':[]},'data':{'a':'1','b':'2'}}");
    assertThat(CONFIGMAPS.update(live, emptied, "y", "v1", T2).managedFields())
        .extracting(ManagedFieldsEntry::manager).containsExactly("x", "y");
    JsonNode stripped = json("{'metadata':{'managedFields':[{}]},'data':{'a':'1','b':'2'}}");
    FieldManager.Result r = CONFIGMAPS.update(live, stripped, "y", "v1", T2);
    assertThat(r.managedFields()).isEmpty();
    assertThat(r.object().get("metadata").has("managedFields")).isFalse();
  }

  @Test
  void update_asKubectlCreate_ofADeployment_fromKubesZeroObject_recordsKubesEntry() {
    // a Deployment's zero value as kube serializes it: struct fields present, pointers and omitempty absent
    JsonNode zero = json("{'metadata':{'creationTimestamp':null},'spec':{'selector':null,'template':{'metadata':"
        + "{'creationTimestamp':null},'spec':{'containers':null}},'strategy':{}},'status':{}}");
    JsonNode created = json("{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'web','labels':{'app':'web'},"
        + "'creationTimestamp':'2026-01-02T03:04:05Z'},'spec':{'replicas':1,'selector':{'matchLabels':{'app':'web'}},"
        + "'strategy':{'type':'RollingUpdate','rollingUpdate':{'maxSurge':'25%'}},'template':{'metadata':{'labels':"
        + "{'app':'web'}},'spec':{'containers':[{'name':'nginx','image':'nginx','ports':[{'containerPort':80,"
        + "'protocol':'TCP'}],'resources':{}}]}}},'status':{}}");
    FieldManager.Result r = DEPLOYMENTS.update(zero, created, "kubectl-create", "apps/v1", T1);
    assertThat(fieldsOf(r, "kubectl-create")).isEqualTo(json(
        "{'f:metadata':{'f:labels':{'.':{},'f:app':{}}},'f:spec':{'f:replicas':{},'f:selector':{},"
            + "'f:strategy':{'f:rollingUpdate':{'.':{},'f:maxSurge':{}},'f:type':{}},'f:template':{'f:metadata':"
            + "{'f:labels':{'.':{},'f:app':{}}},'f:spec':{'f:containers':{'k:{\\'name\\':\\'nginx\\'}':{'.':{},"
            + "'f:image':{},'f:name':{},'f:ports':{'.':{},'k:{\\'containerPort\\':80,\\'protocol\\':\\'TCP\\'}':"
            + "{'.':{},'f:containerPort':{},'f:protocol':{}}},'f:resources':{}}}}}}}"));
  }
}
