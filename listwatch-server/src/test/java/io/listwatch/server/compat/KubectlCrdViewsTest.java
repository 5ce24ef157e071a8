package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * kubectl (1.32, from PATH) seeing custom resources the way their definition presents them:
 * printer columns in {@code kubectl get}, {@code kubectl scale} through the scale subresource,
 * field selectors on selectable fields, and {@code kubectl explain} from the OpenAPI documents.
 */
@EndToEnd
class KubectlCrdViewsTest extends KubectlAgainstServer {

  private static final String NS = "k-views";
  private static final Duration WAIT = Duration.ofSeconds(20);

  private static final String WIDGETS = """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata: {name: widgets.views.example.com}
      spec:
        group: views.example.com
        scope: Namespaced
        names: {plural: widgets, kind: Widget, shortNames: [wdg]}
        versions:
        - name: v1
          served: true
          storage: true
          subresources:
            status: {}
            scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas,
                    labelSelectorPath: .status.selector}
          selectableFields:
          - jsonPath: .spec.color
          additionalPrinterColumns:
          - {name: Color, type: string, jsonPath: .spec.color, description: The widget's colour}
          - {name: Replicas, type: integer, jsonPath: .spec.replicas}
          - {name: Ready, type: string, jsonPath: '.status.conditions[?(@.type=="Ready")].status'}
          - {name: Size, type: number, jsonPath: .spec.size, priority: 1}
          - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}
          schema:
            openAPIV3Schema:
              type: object
              description: A widget the views tests print.
              properties:
                spec:
                  type: object
                  description: What the widget should look like.
                  properties:
                    color: {type: string, description: The colour the widget is painted.}
                    replicas: {type: integer}
                    size: {type: number}
                status:
                  type: object
                  properties:
                    replicas: {type: integer}
                    selector: {type: string}
                    conditions:
                      type: array
                      items:
                        type: object
                        properties:
                          type: {type: string}
                          status: {type: string}
      """;

  @BeforeAll
  static void defineWidgets() {
    kubectl.ok("apply", "-f", kubectl.file("widgets-crd.yaml", WIDGETS).toString());
    kubectl.ok("wait", "--for=condition=established", "--timeout=30s", "crd/widgets.views.example.com");
    api.createNamespace(NS);
    kubectl.ok("apply", "-n", NS, "-f", kubectl.file("widgets.yaml", """
        apiVersion: views.example.com/v1
        kind: Widget
        metadata: {name: blue-one}
        spec: {color: blue, replicas: 2, size: 1.5}
        ---
        apiVersion: views.example.com/v1
        kind: Widget
        metadata: {name: red-one}
        spec: {color: red}
        """).toString());
  }

  @Test
  void get_printsTheDeclaredColumns_withTheirValues() {
    String out = kubectl.ok("get", "widgets", "blue-one", "red-one", "-n", NS).stdout();

    String[] lines = out.strip().split("\n");
    assertThat(lines[0].split("\\s+")).containsExactly("NAME", "COLOR", "REPLICAS", "READY", "AGE");
    // kubectl prints a cell the column's path finds nothing for (a null cell) as blank
    assertThat(lines[1].split("\\s+")).hasSize(4).startsWith("blue-one", "blue", "2");
    assertThat(lines[1].split("\\s+")[3]).as("a date column prints as an age").matches("\\d+s");
    assertThat(lines[2].split("\\s+")).hasSize(3).startsWith("red-one", "red");
    assertThat(kubectl.ok("get", "widgets", "blue-one", "-n", NS, "-o", "wide").stdout())
        .as("a priority-1 column shows with -o wide").contains("SIZE").contains("1.5");
  }

  @Test
  void getWatch_printsARowWithTheDeclaredColumns_forEachChange() {
    String ns = NS + "-watch";
    api.createNamespace(ns);
    try (Kubectl.Background watch = kubectl.start("get", "widgets", "-w", "-n", ns)) {
      kubectl.ok("apply", "-n", ns, "-f", kubectl.file("watched.yaml", """
          apiVersion: views.example.com/v1
          kind: Widget
          metadata: {name: watched}
          spec: {color: purple, replicas: 1}
          """).toString());
      assertThat(watch.nextLine(WAIT).split("\\s+")).containsExactly("NAME", "COLOR", "REPLICAS", "READY", "AGE");
      assertThat(watch.nextLine(WAIT).split("\\s+")).startsWith("watched", "purple", "1");

      kubectl.ok("scale", "widget/watched", "-n", ns, "--replicas=4");

      assertThat(watch.nextLine(WAIT).split("\\s+")).as("the scaled widget's new row").startsWith("watched", "purple", "4");
      assertThat(watch.stderrText()).doesNotContain("error");
    }
  }

  @Test
  void get_evaluatesAFilterColumn_onTheStatus() {
    kubectl.ok("apply", "-n", NS, "-f", kubectl.file("ready.yaml", """
        apiVersion: views.example.com/v1
        kind: Widget
        metadata: {name: ready-one}
        spec: {color: yellow, replicas: 2}
        """).toString());
    kubectl.ok("patch", "widget", "ready-one", "-n", NS, "--subresource=status", "--type=merge", "-p",
        "{\"status\":{\"conditions\":[{\"type\":\"Synced\",\"status\":\"False\"},{\"type\":\"Ready\",\"status\":\"True\"}]}}");

    String row = kubectl.ok("get", "widget", "ready-one", "-n", NS, "--no-headers").stdout();

    assertThat(row.split("\\s+")).startsWith("ready-one", "yellow", "2", "True");
  }

  @Test
  void scale_setsTheReplicasAtTheDeclaredPath() {
    kubectl.ok("apply", "-n", NS, "-f", kubectl.file("scaled.yaml", """
        apiVersion: views.example.com/v1
        kind: Widget
        metadata: {name: scaled}
        spec: {color: green, replicas: 1}
        """).toString());

    assertThat(kubectl.ok("scale", "widget/scaled", "-n", NS, "--replicas=3").stdout())
        .contains("widget.views.example.com/scaled scaled");

    assertThat(kubectl.ok("get", "widget", "scaled", "-n", NS, "-o", "jsonpath={.spec.replicas}").stdout())
        .isEqualTo("3");
    assertThat(kubectl.ok("get", "--raw", "/apis/views.example.com/v1/namespaces/" + NS + "/widgets/scaled/scale")
        .stdout()).contains("\"kind\":\"Scale\"").contains("\"replicas\":3");
    assertThat(kubectl.run("scale", "widget/scaled", "-n", NS, "--replicas=-1").stderr())
        .as("negative replicas are refused").contains("replicas");
  }

  @Test
  void scale_isListedInDiscovery() {
    assertThat(kubectl.ok("get", "--raw", "/apis/views.example.com/v1").stdout())
        .contains("\"name\":\"widgets/scale\"").contains("\"name\":\"widgets/status\"");
  }

  @Test
  void fieldSelector_onASelectableField_filtersTheList() {
    assertThat(kubectl.ok("get", "widgets", "-n", NS, "--field-selector", "spec.color=blue", "-o", "name").stdout()
        .strip()).isEqualTo("widget.views.example.com/blue-one");
    assertThat(kubectl.ok("get", "widgets", "-n", NS, "--field-selector", "spec.color!=blue", "-o", "name")
        .stdout()).doesNotContain("blue-one").contains("red-one");
    assertThat(kubectl.run("get", "widgets", "-n", NS, "--field-selector", "spec.size=1").stderr())
        .as("a field that is not selectable").contains("\"spec.size\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\", \"spec.color\"");
  }

  @Test
  void aDefinitionWithABadColumnOrScalePath_isRefusedWithKubesMessages() {
    Path bad = kubectl.file("bad-views.yaml", WIDGETS.replace("widgets.views.example.com", "gadgets.views.example.com")
        .replace("plural: widgets, kind: Widget, shortNames: [wdg]", "plural: gadgets, kind: Gadget")
        .replace("type: integer, jsonPath: .spec.replicas}", "type: int, jsonPath: spec.replicas}")
        .replace("specReplicasPath: .spec.replicas", "specReplicasPath: .status.wanted")
        .replace("- jsonPath: .spec.color", "- jsonPath: .spec.size"));

    Kubectl.Result r = kubectl.run("create", "-f", bad.toString());

    assertThat(r.exitCode()).isNotZero();
    assertThat(r.stderr())
        .contains("spec.versions[0].additionalPrinterColumns[1].type: Unsupported value: \"int\"")
        .contains("spec.versions[0].additionalPrinterColumns[1].jsonPath: Invalid value: \"spec.replicas\": "
            + "must be a simple json path starting with .")
        .contains("spec.versions[0].subresources.scale.specReplicasPath: Invalid value: \".status.wanted\": "
            + "should be a json path under .spec")
        .contains("spec.versions[0].selectableFields[0].jsonPath: Invalid value: \".spec.size\": must point to a "
            + "field of type string, boolean or integer");
  }

  @Test
  void explain_printsTheSchemasDescriptions() {
    assertThat(kubectl.ok("explain", "widgets").stdout())
        .contains("Widget").contains("A widget the views tests print.").contains("spec\t<Object>");
    assertThat(kubectl.ok("explain", "widgets.spec").stdout())
        .contains("What the widget should look like.")
        .contains("color\t<string>").contains("The colour the widget is painted.");
    assertThat(kubectl.ok("explain", "widgets.metadata").stdout()).as("metadata is kube's ObjectMeta")
        .contains("resourceVersion");
  }

  @Test
  void openApiV2_carriesTheKind_underKubesDefinitionName() {
    String v2 = kubectl.ok("get", "--raw", "/openapi/v2").stdout();

    assertThat(v2).contains("\"com.example.views.v1.Widget\"").contains("\"com.example.views.v1.WidgetList\"")
        .contains("/apis/views.example.com/v1/namespaces/{namespace}/widgets/{name}/scale");
  }

  @Test
  void apply_ofAChangedWidget_updatesIt() {
    Path file = kubectl.file("applied.yaml", """
        apiVersion: views.example.com/v1
        kind: Widget
        metadata: {name: applied}
        spec: {color: white, replicas: 1}
        """);
    kubectl.ok("apply", "-n", NS, "-f", file.toString());

    assertThat(kubectl.ok("apply", "-n", NS, "-f", kubectl.file("applied.yaml", """
        apiVersion: views.example.com/v1
        kind: Widget
        metadata: {name: applied}
        spec: {color: black, replicas: 1}
        """).toString()).stdout()).contains("widget.views.example.com/applied configured");
    assertThat(kubectl.ok("get", "widget", "applied", "-n", NS, "-o", "jsonpath={.spec.color}").stdout())
        .isEqualTo("black");
  }

  @Test
  void explain_followsAChangedSchema() {
    String gizmos = WIDGETS.replace("widgets.views.example.com", "gizmos.views.example.com")
        .replace("plural: widgets, kind: Widget, shortNames: [wdg]", "plural: gizmos, kind: Gizmo");
    kubectl.ok("apply", "-f", kubectl.file("gizmos-crd.yaml", gizmos).toString());
    kubectl.ok("wait", "--for=condition=established", "--timeout=30s", "crd/gizmos.views.example.com");
    assertThat(kubectl.ok("explain", "gizmos.spec.color").stdout()).contains("The colour the widget is painted.");

    kubectl.ok("apply", "-f", kubectl.file("gizmos-crd.yaml",
        gizmos.replace("The colour the widget is painted.", "The colour of the gizmo.")).toString());

    Await.until("explain shows the new description", SERVER_WORK,
        () -> kubectl.run("explain", "gizmos.spec.color").stdout().contains("The colour of the gizmo."));
  }

  @Test
  void aListFile_isValidatedByKubectlAgainstTheCustomSchema() {
    Path list = kubectl.file("widget-list.yaml", """
        apiVersion: v1
        kind: List
        items:
        - apiVersion: views.example.com/v1
          kind: Widget
          metadata: {name: listed}
          spec: {colour: blue}
        """);

    Kubectl.Result r = kubectl.run("apply", "-n", NS, "-f", list.toString());

    assertThat(r.exitCode()).isNotZero();
    assertThat(r.stderr()).contains("unknown field \"colour\"").contains("com.example.views.v1.Widget");
    assertThat(kubectl.run("get", "widget", "listed", "-n", NS).stderr()).contains("NotFound");
  }
}
