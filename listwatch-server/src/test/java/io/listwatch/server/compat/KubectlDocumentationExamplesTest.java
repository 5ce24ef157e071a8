package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.server.tls.CertificateAuthority;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * kube's own documentation examples, applied with kubectl 1.32 as the pages apply them and read
 * back: each is accepted ({@code <resource>/<name> created}) and stored with the fields that make
 * it that example. One test per documentation page (or per kind where a page has several). The
 * manifests are files under {@code docs-examples/} in the test resources, each opening with the
 * page or file it comes from and, where it is not the page's text as is, what was changed and
 * why; the one placeholder left as the page writes it is {@code <CA_BUNDLE>}, replaced here by a
 * real base64 PEM bundle (kube decodes the field, so the placeholder itself is not valid).
 *
 * <p>The webhook configurations and the APIService name services that do not exist: the
 * validating webhook would refuse every pod a later test creates (its failure policy is Fail),
 * the APIService would make every later discovery warn, so their tests delete them again.
 */
@EndToEnd
class KubectlDocumentationExamplesTest extends KubectlAgainstServer {

  /** A CA of the test's own: the caBundle the webhook and APIService examples ask for. */
  private static final String CA_BUNDLE = caBundle(CertificateAuthority.create("docs-examples-ca"));

  private static String caBundle(CertificateAuthority ca) {
    String pem = ca.certifiedKey().certificatePem();
    return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
  }

  /** The example {@code docs-examples/<file>}, with {@code <CA_BUNDLE>} replaced. */
  private static String example(String file) {
    return DocsExamples.read(file).replace("<CA_BUNDLE>", CA_BUNDLE);
  }

  /** {@code kubectl apply -f} of the example; returns its non-empty stdout lines. */
  private static List<String> apply(String file) {
    return kubectl.ok("apply", "-f", kubectl.file(file, example(file)).toString()).lines();
  }

  /** {@code kubectl get <resource> <name> -o jsonpath=<template>} (extra arguments such as {@code -n} appended). */
  private static String get(String resource, String name, String template, String... extraArgs) {
    String[] args = new String[5 + extraArgs.length];
    args[0] = "get";
    args[1] = resource;
    args[2] = name;
    args[3] = "-o";
    args[4] = "jsonpath=" + template;
    System.arraycopy(extraArgs, 0, args, 5, extraArgs.length);
    return kubectl.ok(args).stdout();
  }

  @Test
  void dynamicAdmissionControl_webhookConfigurations() {
    try {
      assertThat(apply("validating-webhook-configuration.yaml")).containsExactly(
          "validatingwebhookconfiguration.admissionregistration.k8s.io/pod-policy.example.com created");
      assertThat(get("validatingwebhookconfiguration", "pod-policy.example.com",
          "{.webhooks[0].rules[0].scope} {.webhooks[0].rules[0].resources} {.webhooks[0].clientConfig.service.name}"
              + " {.webhooks[0].sideEffects} {.webhooks[0].timeoutSeconds} {.webhooks[0].admissionReviewVersions}"))
          .isEqualTo("Namespaced [\"pods\"] example-service None 5 [\"v1\"]");
      assertThat(get("validatingwebhookconfiguration", "pod-policy.example.com",
          "{.webhooks[0].clientConfig.caBundle}")).isEqualTo(CA_BUNDLE);

      assertThat(apply("mutating-webhook-configuration.yaml")).containsExactly(
          "mutatingwebhookconfiguration.admissionregistration.k8s.io/my-mutating-webhook-configuration.example.com created");
      assertThat(get("mutatingwebhookconfiguration", "my-mutating-webhook-configuration.example.com",
          "{.webhooks[0].objectSelector.matchLabels.foo} {.webhooks[0].rules[0].scope}"
              + " {.webhooks[0].clientConfig.service.path} {.webhooks[0].clientConfig.service.port}"
              + " {.webhooks[0].reinvocationPolicy} {.webhooks[0].failurePolicy}"))
          .isEqualTo("bar * /my-path 1234 IfNeeded Fail");
    } finally {
      kubectl.run("delete", "validatingwebhookconfiguration", "pod-policy.example.com", "--ignore-not-found");
      kubectl.run("delete", "mutatingwebhookconfiguration", "my-mutating-webhook-configuration.example.com",
          "--ignore-not-found");
      // admission reads the configurations from its cache: wait until pods are admitted again
      String pod = kubectl.file("pod.yaml", """
          apiVersion: v1
          kind: Pod
          metadata:
            name: admitted
          spec:
            containers:
            - name: nginx
              image: nginx:1.14.2
          """).toString();
      Await.until("pods are admitted without the deleted webhook", SERVER_WORK,
          () -> kubectl.run("create", "--dry-run=server", "-f", pod).exitCode() == 0);
    }
  }

  @Test
  void validatingAdmissionPolicy_policiesAndBindings() {
    assertThat(apply("validating-admission-policy-basic.yaml")).containsExactly(
        "validatingadmissionpolicy.admissionregistration.k8s.io/demo-policy.example.com created",
        "validatingadmissionpolicybinding.admissionregistration.k8s.io/demo-binding-test.example.com created");
    assertThat(get("validatingadmissionpolicy", "demo-policy.example.com",
        "{.spec.validations[0].expression} {.spec.matchConstraints.resourceRules[0].resources}"))
        .isEqualTo("object.spec.replicas <= 5 [\"deployments\"]");
    assertThat(get("validatingadmissionpolicybinding", "demo-binding-test.example.com",
        "{.spec.policyName} {.spec.validationActions} {.spec.matchResources.namespaceSelector.matchLabels.environment}"))
        .isEqualTo("demo-policy.example.com [\"Deny\"] test");

    assertThat(apply("validating-admission-policy-with-param.yaml")).containsExactly(
        "validatingadmissionpolicy.admissionregistration.k8s.io/replicalimit-policy.example.com created",
        "validatingadmissionpolicybinding.admissionregistration.k8s.io/replicalimit-binding-test.example.com created");
    assertThat(get("validatingadmissionpolicy", "replicalimit-policy.example.com",
        "{.spec.paramKind.apiVersion} {.spec.paramKind.kind} {.spec.validations[0].reason}"))
        .isEqualTo("rules.example.com/v1 ReplicaLimit Invalid");
    assertThat(get("validatingadmissionpolicybinding", "replicalimit-binding-test.example.com",
        "{.spec.paramRef.name} {.spec.paramRef.namespace} {.spec.paramRef.parameterNotFoundAction}"))
        .isEqualTo("replica-limit-test.example.com default Deny");
  }

  @Test
  void configureTheAggregationLayer_apiService() {
    try {
      assertThat(apply("apiservice.yaml"))
          .containsExactly("apiservice.apiregistration.k8s.io/v1alpha1.wardle.example.com created");
      assertThat(get("apiservice", "v1alpha1.wardle.example.com",
          "{.spec.group} {.spec.version} {.spec.groupPriorityMinimum} {.spec.versionPriority}"
              + " {.spec.service.namespace} {.spec.service.name} {.spec.service.port}"))
          .isEqualTo("wardle.example.com v1alpha1 1000 15 my-service-namespace my-service-name 1234");
      assertThat(get("apiservice", "v1alpha1.wardle.example.com", "{.spec.caBundle}")).isEqualTo(CA_BUNDLE);
    } finally {
      kubectl.run("delete", "apiservice", "v1alpha1.wardle.example.com", "--ignore-not-found");
    }
  }

  @Test
  void horizontalPodAutoscalers_v2AndV1() {
    assertThat(apply("hpa-php-apache.yaml")).containsExactly("horizontalpodautoscaler.autoscaling/php-apache created");
    assertThat(get("horizontalpodautoscalers.v2.autoscaling", "php-apache",
        "{.spec.scaleTargetRef.kind}/{.spec.scaleTargetRef.name} {.spec.minReplicas}-{.spec.maxReplicas}"
            + " {.spec.metrics[0].resource.name} {.spec.metrics[0].resource.target.type}"
            + " {.spec.metrics[0].resource.target.averageUtilization}"))
        .isEqualTo("Deployment/php-apache 1-10 cpu Utilization 50");

    assertThat(apply("hpa-rs.yaml")).containsExactly("horizontalpodautoscaler.autoscaling/frontend-scaler created");
    assertThat(get("horizontalpodautoscalers.v1.autoscaling", "frontend-scaler",
        "{.spec.scaleTargetRef.kind}/{.spec.scaleTargetRef.name} {.spec.minReplicas}-{.spec.maxReplicas}"
            + " {.spec.targetCPUUtilizationPercentage}"))
        .isEqualTo("ReplicaSet/frontend 3-10 50");
  }

  @Test
  void ingress_ingressClasses() {
    assertThat(apply("ingressclass.yaml")).containsExactly(
        "ingressclass.networking.k8s.io/example-class created", "ingressclass.networking.k8s.io/external-lb created");
    assertThat(get("ingressclass", "example-class",
        "{.spec.controller} {.metadata.annotations.ingressclass\\.kubernetes\\.io/is-default-class}"
            + " {.metadata.labels.app\\.kubernetes\\.io/component}"))
        .isEqualTo("k8s.io/example-class true controller");
    assertThat(get("ingressclass", "external-lb",
        "{.spec.parameters.apiGroup} {.spec.parameters.kind} {.spec.parameters.name}"
            + " {.spec.parameters.scope} {.spec.parameters.namespace}"))
        .isEqualTo("k8s.example.com IngressParameters external-lb Namespace external-configuration");
  }

  @Test
  void replicationController() {
    assertThat(apply("replication.yaml")).containsExactly("replicationcontroller/nginx created");
    assertThat(get("replicationcontroller", "nginx",
        "{.spec.replicas} {.spec.selector.app} {.spec.template.metadata.labels.app}"
            + " {.spec.template.spec.containers[0].image} {.spec.template.spec.containers[0].ports[0].containerPort}"))
        .isEqualTo("3 nginx nginx nginx 80");
  }

  @Test
  void podTemplate() {
    assertThat(apply("podtemplate.yaml")).containsExactly("podtemplate/hello created");
    assertThat(get("podtemplate", "hello",
        "{.template.spec.containers[0].image} {.template.spec.restartPolicy} {.template.spec.containers[0].command[2]}"))
        .isEqualTo("busybox:1.28 OnFailure echo \"Hello, Kubernetes!\" && sleep 3600");
  }

  @Test
  void runtimeClasses() {
    assertThat(apply("runtimeclass.yaml")).containsExactly(
        "runtimeclass.node.k8s.io/myclass created", "runtimeclass.node.k8s.io/kata-fc created");
    assertThat(get("runtimeclass", "myclass", "{.handler}")).isEqualTo("myconfiguration");
    assertThat(get("runtimeclass", "kata-fc", "{.handler} {.overhead.podFixed.memory} {.overhead.podFixed.cpu}"))
        .isEqualTo("kata-fc 120Mi 250m");
  }

  @Test
  void certificateSigningRequest_normalUser() {
    assertThat(apply("certificatesigningrequest.yaml"))
        .containsExactly("certificatesigningrequest.certificates.k8s.io/myuser created");
    assertThat(get("csr", "myuser", "{.spec.signerName} {.spec.expirationSeconds} {.spec.usages}"))
        .isEqualTo("kubernetes.io/kube-apiserver-client 86400 [\"client auth\"]");
    String request = example("certificatesigningrequest.yaml").lines().map(String::strip)
        .filter(l -> l.startsWith("request: ")).findFirst().orElseThrow().substring("request: ".length());
    assertThat(get("csr", "myuser", "{.spec.request}")).isEqualTo(request);
  }

  @Test
  void csi_driverNodeStorageCapacityAndVolumeAttachment() {
    assertThat(apply("csidriver.yaml")).containsExactly("csidriver.storage.k8s.io/mycsidriver.example.com created");
    assertThat(get("csidriver", "mycsidriver.example.com",
        "{.spec.attachRequired} {.spec.podInfoOnMount} {.spec.fsGroupPolicy} {.spec.volumeLifecycleModes}"
            + " {.spec.tokenRequests[0].audience} {.spec.tokenRequests[1].expirationSeconds} {.spec.requiresRepublish}"))
        .isEqualTo("true true File [\"Persistent\",\"Ephemeral\"] gcp 3600 true");

    assertThat(apply("csinode.yaml")).containsExactly("csinode.storage.k8s.io/node1 created");
    assertThat(get("csinode", "node1",
        "{.spec.drivers[0].name} {.spec.drivers[0].nodeID} {.spec.drivers[0].topologyKeys}"))
        .isEqualTo("mycsidriver.example.com storageNodeID1"
            + " [\"mycsidriver.example.com/regions\",\"mycsidriver.example.com/zones\"]");

    assertThat(apply("csistoragecapacity.yaml"))
        .containsExactly("csistoragecapacity.storage.k8s.io/standard-us-east1 created");
    assertThat(get("csistoragecapacity", "standard-us-east1",
        "{.storageClassName} {.capacity} {.nodeTopology.matchLabels.topology\\.kubernetes\\.io/zone}"))
        .isEqualTo("standard 1234Gi us-east1");

    assertThat(apply("volumeattachment.yaml"))
        .containsExactly("volumeattachment.storage.k8s.io/csi-mycsidriver-pv1-node1 created");
    assertThat(get("volumeattachment", "csi-mycsidriver-pv1-node1",
        "{.spec.attacher} {.spec.nodeName} {.spec.source.persistentVolumeName}"))
        .isEqualTo("mycsidriver.example.com node1 pv1");
  }

  @Test
  void apiPriorityAndFairness_flowSchemasAndPriorityLevel() {
    assertThat(apply("flowschema.yaml")).containsExactly(
        "flowschema.flowcontrol.apiserver.k8s.io/health-for-strangers created",
        "flowschema.flowcontrol.apiserver.k8s.io/list-events-default-service-account created");
    assertThat(get("flowschema", "health-for-strangers",
        "{.spec.matchingPrecedence} {.spec.priorityLevelConfiguration.name}"
            + " {.spec.rules[0].nonResourceRules[0].nonResourceURLs} {.spec.rules[0].subjects[0].group.name}"))
        .isEqualTo("1000 exempt [\"/healthz\",\"/livez\",\"/readyz\"] system:unauthenticated");
    assertThat(get("flowschema", "list-events-default-service-account",
        "{.spec.distinguisherMethod.type} {.spec.matchingPrecedence} {.spec.priorityLevelConfiguration.name}"
            + " {.spec.rules[0].resourceRules[0].resources} {.spec.rules[0].subjects[0].serviceAccount.name}"))
        .isEqualTo("ByUser 8000 catch-all [\"events\"] default");

    assertThat(apply("prioritylevelconfiguration.yaml"))
        .containsExactly("prioritylevelconfiguration.flowcontrol.apiserver.k8s.io/workload-low-copy created");
    assertThat(get("prioritylevelconfiguration", "workload-low-copy",
        "{.spec.type} {.spec.limited.nominalConcurrencyShares} {.spec.limited.lendablePercent}"
            + " {.spec.limited.limitResponse.type} {.spec.limited.limitResponse.queuing.queues}"
            + " {.spec.limited.limitResponse.queuing.handSize} {.spec.limited.limitResponse.queuing.queueLengthLimit}"))
        .isEqualTo("Limited 100 90 Queue 128 6 50");
  }

  @Test
  void binding_createdAsTheApiReferenceDescribes_andThroughThePodsBindingSubresource() {
    String ns = "docs-binding";
    api.createNamespace(ns);
    // two unscheduled pods as the Pods page's simple-pod.yaml (content/en/examples/pods/simple-pod.yaml)
    for (String pod : List.of("nginx", "nginx-2")) {
      api.expect(201, "POST", "/api/v1/namespaces/" + ns + "/pods", "application/json", """
          {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s"},
           "spec":{"containers":[{"name":"nginx","image":"nginx:1.14.2","ports":[{"containerPort":80}]}]}}
          """.formatted(pod));
    }

    Kubectl.Result created = kubectl.ok("create", "-n", ns, "-f",
        kubectl.file("binding.yaml", example("binding.yaml")).toString());
    // kube answers a Binding's create with a Status (Success) and no name, which kubectl prints as it is
    assertThat(created.lines()).containsExactly("status/<unknown> created");
    assertThat(get("pod", "nginx", "{.spec.nodeName}", "-n", ns)).isEqualTo("node1");

    // the same Binding as JSON (create --raw sends the file as it is, as application/json), for the other pod
    String subresourceBinding = """
        {"apiVersion":"v1","kind":"Binding","metadata":{"name":"nginx-2"},
         "target":{"apiVersion":"v1","kind":"Node","name":"node1"}}""";
    Kubectl.Result raw = kubectl.ok("create", "--raw", "/api/v1/namespaces/" + ns + "/pods/nginx-2/binding", "-f",
        kubectl.file("binding-2.json", subresourceBinding).toString());
    assertThat(raw.stdout()).contains("\"kind\":\"Status\"").contains("\"status\":\"Success\"");
    assertThat(get("pod", "nginx-2", "{.spec.nodeName}", "-n", ns)).isEqualTo("node1");
  }

  @Test
  void componentStatuses_readOnly_withKubesDeprecationWarning() {
    // content/en/docs/reference/kubernetes-api/cluster-resources/component-status-v1.md: get and list only, deprecated
    Kubectl.Result got = kubectl.ok("get", "componentstatuses");
    assertThat(got.stderr()).contains("Warning: v1 ComponentStatus is deprecated in v1.19+");
    assertThat(Arrays.asList(got.lines().getFirst().split("\\s{2,}"))).containsExactly("NAME", "STATUS", "MESSAGE", "ERROR");
    assertThat(got.lines()).anySatisfy(l -> assertThat(Arrays.asList(l.trim().split("\\s{2,}")))
        .containsExactly("etcd-0", "Healthy", "ok"));
  }
}
