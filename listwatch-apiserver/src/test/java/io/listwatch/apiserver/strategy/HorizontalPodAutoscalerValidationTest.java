package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube's validation of HorizontalPodAutoscalers, from the cases of kube's
 * {@code TestValidateHorizontalPodAutoscaler} and {@code ...Update} (pkg/apis/autoscaling/validation),
 * with kube's paths and messages, each run after kube's v2 defaults as the server runs it. A
 * case's fragment is appended to a valid spec (targeting ReplicationController myrc, 1..5
 * replicas) and overrides its fields; several errors are separated by {@code ;;}.
 */
class HorizontalPodAutoscalerValidationTest {

  private static final String CPU_70 =
      "{\"type\":\"Resource\",\"resource\":{\"name\":\"cpu\",\"target\":{\"type\":\"Utilization\",\"averageUtilization\":70}}}";

  private static String hpa(String fragment) {
    return """
        {"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"myautoscaler","namespace":"default"},
         "spec":{"scaleTargetRef":{"kind":"ReplicationController","name":"myrc"},"minReplicas":1,"maxReplicas":5%s}}"""
        .formatted(fragment.isEmpty() ? "" : "," + fragment);
  }

  private static String metric(String json) {
    return "\"metrics\":[" + json + "]";
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      ''
      "metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":70}}}]
      "metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"AverageValue","averageValue":"300m"}}}]
      "metrics":[{"type":"Pods","pods":{"metric":{"name":"somemetric"},"target":{"type":"AverageValue","averageValue":"300m"}}}]
      "metrics":[{"type":"ContainerResource","containerResource":{"name":"cpu","container":"test-container","target":{"type":"Utilization","averageUtilization":70}}}]
      "metrics":[{"type":"Object","object":{"describedObject":{"kind":"ReplicationController","name":"myrc"},"metric":{"name":"somemetric"},"target":{"type":"Value","value":"300m"}}}]
      "metrics":[{"type":"Object","object":{"describedObject":{"kind":"ReplicationController","name":"myrc"},"metric":{"name":"somemetric"},"target":{"type":"AverageValue","averageValue":"300m"}}}]
      "metrics":[{"type":"External","external":{"metric":{"name":"somemetric","selector":{"matchExpressions":[{"key":"label","operator":"In","values":["value"]}]}},"target":{"type":"Value","value":"300m"}}}]
      "metrics":[{"type":"External","external":{"metric":{"name":"somemetric"},"target":{"type":"AverageValue","averageValue":"300m"}}}]
      "behavior":{"scaleUp":{"stabilizationWindowSeconds":3600,"selectPolicy":"Min","policies":[{"type":"Pods","value":1,"periodSeconds":1800}]},"scaleDown":{"selectPolicy":"Disabled"}}
      """)
  void valid(String fragment) {
    assertThat(StrategyCases.create(HorizontalPodAutoscalerStrategy.V2, hpa(fragment))).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "scaleTargetRef":{"name":"myrc"}                                | spec.scaleTargetRef.kind: Required value
      "scaleTargetRef":{"kind":"..","name":"myrc"}                    | spec.scaleTargetRef.kind: Invalid value: "..": may not be '..'
      "scaleTargetRef":{"kind":"ReplicationController"}               | spec.scaleTargetRef.name: Required value
      "scaleTargetRef":{"kind":"ReplicationController","name":"a/b"} | spec.scaleTargetRef.name: Invalid value: "a/b": may not contain '/'
      "minReplicas":-1                                                | spec.minReplicas: Invalid value: -1: must be greater than or equal to 1
      "minReplicas":7                                                 | spec.maxReplicas: Invalid value: 5: must be greater than or equal to `minReplicas`
      "maxReplicas":0                                                 | spec.maxReplicas: Invalid value: 0: must be greater than 0;;spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`
      "minReplicas":0                                                 | spec.minReplicas: Invalid value: 0: must be greater than or equal to 1;;spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas
      "metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":-70}}}] | spec.metrics[0].resource.target.averageUtilization: Invalid value: -70: must be greater than 0
      "metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":70,"averageValue":"300m"}}}] | spec.metrics[0].resource.target.averageValue: Forbidden: may not set both a target raw value and a target utilization
      "metrics":[{"type":"Resource","resource":{"target":{"type":"Utilization","averageUtilization":70}}}] | spec.metrics[0].resource.name: Required value: must specify a resource name
      "metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization"}}}] | spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization
      "metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"averageUtilization":70}}}] | spec.metrics[0].resource.target.type: Required value: must specify a metric target type;;spec.metrics[0].resource.target.type: Invalid value: "": must be either Utilization, Value, or AverageValue
      "metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"foo","averageUtilization":70}}}] | spec.metrics[0].resource.target.type: Invalid value: "foo": must be either Utilization, Value, or AverageValue
      "metrics":[{"type":"Pods","pods":{"metric":{},"target":{"type":"AverageValue","averageValue":"100m"}}}] | spec.metrics[0].pods.metric.name: Required value: must specify a metric name
      "metrics":[{"type":"Pods","pods":{"metric":{"name":"somemetric"},"target":{"type":"AverageValue"}}}] | spec.metrics[0].pods.target.averageValue: Required value: must specify a positive target averageValue
      "metrics":[{"type":"Pods","pods":{"metric":{"name":"somemetric"},"target":{"type":"AverageValue","averageValue":"-1"}}}] | spec.metrics[0].pods.target.averageValue: Invalid value: "-1": must be positive
      "metrics":[{"type":"Pods","pods":{"metric":{"name":"some/metric"},"target":{"type":"AverageValue","averageValue":"1"}}}] | spec.metrics[0].pods.metric.name: Invalid value: "some/metric": may not contain '/'
      "metrics":[{"type":"Object","object":{"describedObject":{"name":"myrc"},"metric":{"name":"somemetric"},"target":{"type":"Value","value":"100m"}}}] | spec.metrics[0].object.describedObject.kind: Required value
      "metrics":[{"type":"Object","object":{"describedObject":{"kind":"ReplicationController","name":"myrc"},"metric":{},"target":{"type":"Value","value":"100m"}}}] | spec.metrics[0].object.metric.name: Required value: must specify a metric name
      "metrics":[{"type":"Object","object":{"describedObject":{"kind":"ReplicationController","name":"myrc"},"metric":{"name":"somemetric"},"target":{"type":"Value"}}}] | spec.metrics[0].object.target.averageValue: Required value: must set either a target value or averageValue
      "metrics":[{"type":"Object","object":{"describedObject":{"kind":"ReplicationController","name":"myrc"},"metric":{"name":"somemetric"},"target":{"type":"Value","value":"0"}}}] | spec.metrics[0].object.target.value: Invalid value: "0": must be positive
      "metrics":[{"type":"External","external":{"metric":{},"target":{"type":"Value","value":"300m"}}}] | spec.metrics[0].external.metric.name: Required value: must specify a metric name
      "metrics":[{"type":"External","external":{"metric":{"name":"somemetric"},"target":{"type":"Value"}}}] | spec.metrics[0].external.target.averageValue: Required value: must set either a target value for metric or a per-pod target
      "metrics":[{"type":"External","external":{"metric":{"name":"somemetric"},"target":{"type":"Value","value":"300m","averageValue":"100m"}}}] | spec.metrics[0].external.target.value: Forbidden: may not set both a target value for metric and a per-pod target
      "metrics":[{}]                                                  | spec.metrics[0].type: Required value: must specify a metric source type;;spec.metrics[0].type: Unsupported value: "": supported values: "ContainerResource", "External", "Object", "Pods", "Resource";;spec.metrics[0].type: Unsupported value: "": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"
      "metrics":[{"type":"Resource"}]                                 | spec.metrics[0].resource: Required value: must populate information for the given metric source
      "metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":70}},"pods":{"metric":{"name":"somemetric"},"target":{"type":"AverageValue","averageValue":"100m"}}}] | spec.metrics[0].pods: Forbidden: must populate the given metric source only
      "metrics":[{"type":"ContainerResource","containerResource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":70}}}] | spec.metrics[0].containerResource.container: Required value: must specify a container
      "metrics":[{"type":"ContainerResource","containerResource":{"name":"cpu","container":"---***","target":{"type":"Utilization","averageUtilization":70}}}] | spec.metrics[0].containerResource.container: Invalid value: "---***": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')
      "metrics":[{"type":"ContainerResource","containerResource":{"name":"InvalidResource","container":"c","target":{"type":"Utilization","averageUtilization":70}}}] | spec.metrics[0].containerResource.name: Invalid value: "InvalidResource": must be a standard resource type or fully qualified;;spec.metrics[0].containerResource.name: Invalid value: "InvalidResource": must be a standard resource for containers
      "behavior":{"scaleUp":{"stabilizationWindowSeconds":-1}}        | spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: -1: must be greater than or equal to zero
      "behavior":{"scaleDown":{"stabilizationWindowSeconds":3601}}    | spec.behavior.scaleDown.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600
      "behavior":{"scaleUp":{"selectPolicy":"foo"}}                   | spec.behavior.scaleUp.selectPolicy: Unsupported value: "foo": supported values: "Disabled", "Max", "Min"
      "behavior":{"scaleUp":{"policies":[]}}                          | spec.behavior.scaleUp.policies: Required value: must specify at least one Policy
      "behavior":{"scaleDown":{"policies":[{"type":"foo","value":1,"periodSeconds":1}]}} | spec.behavior.scaleDown.policies[0].type: Unsupported value: "foo": supported values: "Percent", "Pods"
      "behavior":{"scaleUp":{"policies":[{"type":"Pods","value":0,"periodSeconds":1}]}} | spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero
      "behavior":{"scaleUp":{"policies":[{"type":"Percent","value":1,"periodSeconds":0}]}} | spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 0: must be greater than zero
      "behavior":{"scaleDown":{"policies":[{"type":"Percent","value":1,"periodSeconds":1801}]}} | spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800
      """)
  void invalid(String fragment, String errors) {
    assertThat(StrategyCases.create(HorizontalPodAutoscalerStrategy.V2, hpa(fragment)))
        .containsExactlyElementsOf(Arrays.asList(errors.split(";;")));
  }

  @Test
  void update_keepsMinReplicasZero_onlyWhenStored_andAsksForAnObjectOrExternalMetric() {
    String objectMetric = metric("""
        {"type":"Object","object":{"describedObject":{"kind":"ReplicationController","name":"myrc"},
         "metric":{"name":"somemetric"},"target":{"type":"Value","value":"300m"}}}""");
    String zero = hpa("\"minReplicas\":0," + objectMetric);
    assertThat(StrategyCases.update(HorizontalPodAutoscalerStrategy.V2, zero, zero)).isEmpty();
    assertThat(StrategyCases.update(HorizontalPodAutoscalerStrategy.V2, zero, hpa("\"minReplicas\":0," + metric(CPU_70))))
        .containsExactly("spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas");
    assertThat(StrategyCases.update(HorizontalPodAutoscalerStrategy.V2, hpa(objectMetric), zero))
        .containsExactly("spec.minReplicas: Invalid value: 0: must be greater than or equal to 1");
  }

  @Test
  void v1_isValidatedInItsV2Form_withKubesPaths() {
    String v1 = """
        {"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"a"},
         "spec":{"scaleTargetRef":{"kind":"Deployment","name":"d"},"maxReplicas":3,"targetCPUUtilizationPercentage":-1}}""";
    assertThat(StrategyCases.create(HorizontalPodAutoscalerStrategy.V1, v1))
        .containsExactly("spec.metrics[0].resource.target.averageUtilization: Invalid value: -1: must be greater than 0");
  }
}
