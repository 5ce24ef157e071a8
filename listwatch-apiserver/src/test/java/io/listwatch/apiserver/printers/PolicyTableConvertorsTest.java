package io.listwatch.apiserver.printers;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** ResourceQuotas, PodDisruptionBudgets, PriorityClasses, and LimitRanges (kube's default columns). */
class PolicyTableConvertorsTest {

  @Test
  void resourceQuota_showsUsedOutOfHard_requestsApartFromLimits_inKube132sColumnOrder() {
    ResourceQuotaTableConvertor c = new ResourceQuotaTableConvertor();
    assertThat(Rows.shapes(c)).containsExactly("Name:string:name", "Age:string", "Request:string", "Limit:string");
    assertThat(Rows.cells(c, """
        {"metadata":{"name":"compute","creationTimestamp":"2026-01-01T11:55:00Z"},
         "status":{"hard":{"requests.memory":"2Gi","limits.cpu":"4","pods":"10","requests.cpu":"2","limits.memory":"4Gi"},
          "used":{"requests.cpu":"500m","pods":"3","limits.cpu":"1"}}}
        """)).containsExactly("compute", "5m", "pods: 3/10, requests.cpu: 500m/2, requests.memory: 0/2Gi",
        "limits.cpu: 1/4, limits.memory: 0/4Gi");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"new\"},\"spec\":{\"hard\":{\"pods\":\"10\"}}}"))
        .containsExactly("new", "<unknown>", "", "");
  }

  @Test
  void podDisruptionBudget_showsNumbersOrPercentages_andNaWhenUnset() {
    PodDisruptionBudgetTableConvertor c = new PodDisruptionBudgetTableConvertor();
    assertThat(Rows.shapes(c)).containsExactly("Name:string:name", "Min Available:string", "Max Unavailable:string",
        "Allowed Disruptions:integer", "Age:string");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"web\"},\"spec\":{\"minAvailable\":2},\"status\":{\"disruptionsAllowed\":1}}"))
        .containsExactly("web", "2", "N/A", 1L, "<unknown>");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"db\"},\"spec\":{\"maxUnavailable\":\"25%\"}}"))
        .containsExactly("db", "N/A", "25%", 0L, "<unknown>");
  }

  @Test
  void priorityClass_showsValueGlobalDefault_andPreemptionPolicyAfterAge() {
    PriorityClassTableConvertor c = new PriorityClassTableConvertor();
    assertThat(Rows.shapes(c)).containsExactly("Name:string:name", "Value:integer", "Global-Default:boolean",
        "Age:string", "PreemptionPolicy:string");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"high\"},\"value\":1000000,\"globalDefault\":true,"
        + "\"preemptionPolicy\":\"Never\"}")).containsExactly("high", 1000000L, true, "<unknown>", "Never");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"low\"},\"value\":-5}"))
        .containsExactly("low", -5L, false, "<unknown>", "PreemptLowerPriority");
  }

  @Test
  void limitRange_hasKubesDefaultColumns_nameAndCreatedAt() {
    assertThat(Rows.shapes(TableConvertor.DEFAULT)).containsExactly("Name:string:name", "Created At:date");
  }
}
