package io.listwatch.apiserver;

import java.util.List;

/**
 * The objects {@link ApiRequestFuzzTest} makes before its run, so that the seeds' updates and
 * patches have something to change: each a collection path and the JSON posted to it.
 */
final class FuzzObjects {

  static final String WIDGETS = "/apis/example.com/v1/namespaces/default/widgets";

  /** A custom resource of {@link #CRD}'s kind, valid against its schema and rules. */
  static final String WIDGET = """
      {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1"},
       "spec":{"replicas":2,"maxReplicas":5,"color":"red","tags":["a","b"],
        "ports":[{"name":"http","port":80}]}}""";

  /** A namespaced custom resource with a structural schema, list types and CEL rules. */
  static final String CRD = """
      {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
       "metadata":{"name":"widgets.example.com"},
       "spec":{"group":"example.com","scope":"Namespaced",
        "names":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},
        "versions":[{"name":"v1","served":true,"storage":true,
         "subresources":{"status":{},"scale":{"specReplicasPath":".spec.replicas",
          "statusReplicasPath":".status.replicas"}},
         "schema":{"openAPIV3Schema":{"type":"object","properties":{
          "spec":{"type":"object",
           "x-kubernetes-validations":[{"rule":"self.replicas <= self.maxReplicas",
            "message":"replicas must not exceed maxReplicas"}],
           "properties":{
            "replicas":{"type":"integer","minimum":0},
            "maxReplicas":{"type":"integer","default":10},
            "color":{"type":"string","enum":["red","green","blue"]},
            "tags":{"type":"array","x-kubernetes-list-type":"set","maxItems":16,
             "items":{"type":"string","maxLength":63}},
            "ports":{"type":"array","x-kubernetes-list-type":"map",
             "x-kubernetes-list-map-keys":["name"],
             "items":{"type":"object","required":["name"],"properties":{
              "name":{"type":"string"},"port":{"type":"integer","format":"int32"}},
              "x-kubernetes-validations":[{"rule":"self.port > 0 && self.port < 65536"}]}},
            "extra":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}},
          "status":{"type":"object","properties":{"replicas":{"type":"integer"}}}}}}}]}}""";

  /** Collection path and body, in the order they are created. */
  static final List<String[]> INITIAL = List.of(
      new String[] {"/api/v1/namespaces/default/configmaps",
          "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm\","
              + "\"labels\":{\"app\":\"web\"}},\"data\":{\"a\":\"1\",\"b\":\"2\"}}"},
      new String[] {"/api/v1/namespaces/default/pods",
          "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"web\"},\"spec\":{"
              + "\"containers\":[{\"name\":\"nginx\",\"image\":\"nginx:1.27\",\"ports\":[{\"containerPort\":80}],"
              + "\"env\":[{\"name\":\"A\",\"value\":\"1\"}]}]}}"},
      new String[] {"/apis/apps/v1/namespaces/default/deployments",
          "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},"
              + "\"spec\":{\"replicas\":2,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},"
              + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":"
              + "[{\"name\":\"nginx\",\"image\":\"nginx:1.27\"}]}}}}"},
      new String[] {"/apis/apiextensions.k8s.io/v1/customresourcedefinitions", CRD});

  private FuzzObjects() {
  }
}
