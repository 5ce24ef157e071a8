package io.listwatch.apiserver.printers;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Nodes, namespaces, services, events, configmaps, secrets, serviceaccounts, leases and the default. */
class CoreTableConvertorsTest {

  @Test
  void node_showsReadiness_cordon_roles_andAddressesWhenWide() {
    NodeTableConvertor c = new NodeTableConvertor();
    assertThat(Rows.headers(c)).containsExactly("Name", "Status", "Roles", "Age", "Version", "Internal-IP",
        "External-IP", "OS-Image", "Kernel-Version", "Container-Runtime");
    assertThat(Rows.cells(c, """
        {"metadata":{"name":"n1","labels":{"node-role.kubernetes.io/worker":"","kubernetes.io/role":"edge"}},
         "spec":{"unschedulable":true},
         "status":{"conditions":[{"type":"Ready","status":"False"}],"nodeInfo":{"kubeletVersion":"v1.32.0"},
          "addresses":[{"type":"InternalIP","address":"10.0.0.1"}]}}
        """)).containsExactly("n1", "NotReady,SchedulingDisabled", "edge,worker", "<unknown>", "v1.32.0",
        "10.0.0.1", "<none>", "<unknown>", "<unknown>", "<unknown>");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"n2\"}}")).startsWith("n2", "Unknown", "<none>");
  }

  @Test
  void namespace_showsItsPhase() {
    assertThat(Rows.cells(new NamespaceTableConvertor(), "{\"metadata\":{\"name\":\"ns\"},\"status\":{\"phase\":\"Active\"}}"))
        .containsExactly("ns", "Active", "<unknown>");
  }

  @Test
  void service_showsTypeIpsAndPorts_perType() {
    ServiceTableConvertor c = new ServiceTableConvertor();
    assertThat(Rows.headers(c)).containsExactly("Name", "Type", "Cluster-IP", "External-IP", "Port(s)", "Age",
        "Selector");
    assertThat(Rows.cells(c, """
        {"metadata":{"name":"web"},"spec":{"clusterIPs":["10.96.0.1"],"selector":{"b":"2","a":"1"},
         "ports":[{"port":80},{"port":53,"protocol":"UDP","nodePort":30053}]}}
        """)).containsExactly("web", "ClusterIP", "10.96.0.1", "<none>", "80/TCP,53:30053/UDP", "<unknown>", "a=1,b=2");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"lb\"},\"spec\":{\"type\":\"LoadBalancer\",\"clusterIP\":\"10.96.0.2\"}}"))
        .containsSubsequence("LoadBalancer", "10.96.0.2", "<pending>", "<none>");
    assertThat(Rows.cells(c, """
        {"metadata":{"name":"lb"},"spec":{"type":"LoadBalancer","externalIPs":["1.1.1.1"]},
         "status":{"loadBalancer":{"ingress":[{"hostname":"lb.example"},{"ip":"2.2.2.2"}]}}}
        """).get(3)).isEqualTo("2.2.2.2,lb.example,1.1.1.1");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"x\"},\"spec\":{\"type\":\"ExternalName\",\"externalName\":\"db.example\"}}")
        .get(3)).isEqualTo("db.example");
  }

  @Test
  void event_showsLastSeenTypeReasonObjectAndMessage_inKubesColumnOrder() {
    EventTableConvertor c = EventTableConvertor.core();
    assertThat(Rows.headers(c)).containsExactly("Last Seen", "Type", "Reason", "Object", "Subobject", "Source",
        "Message", "First Seen", "Count", "Name");
    assertThat(Rows.cells(c, """
        {"metadata":{"name":"web.1"},"type":"Warning","reason":"BackOff","message":" Back-off restarting \\n",
         "involvedObject":{"kind":"Pod","name":"web","fieldPath":"spec.containers{a}"},
         "source":{"component":"kubelet","host":"n1"},"firstTimestamp":"2026-01-01T11:00:00Z",
         "lastTimestamp":"2026-01-01T11:59:00Z","count":7}
        """)).containsExactly("60s", "Warning", "BackOff", "pod/web", "spec.containers{a}", "kubelet, n1",
        "Back-off restarting", "60m", 7L, "web.1");
    assertThat(Rows.cells(c, """
        {"metadata":{"name":"e"},"eventTime":"2026-01-01T11:59:30.000000Z","reportingComponent":"ctrl",
         "involvedObject":{"kind":"Node"}}
        """)).containsExactly("30s", "", "", "node", "", "ctrl", "", "30s", 1L, "e");
  }

  @Test
  void eventsK8sIoEvent_printsLikeTheCoreEvent_fromItsOwnFieldNames() {
    EventTableConvertor c = EventTableConvertor.eventsV1();
    assertThat(Rows.shapes(c)).isEqualTo(Rows.shapes(EventTableConvertor.core()));
    assertThat(Rows.cells(c, """
        {"metadata":{"name":"web.2"},"type":"Normal","reason":"Scheduled","note":" Assigned to n1 ",
         "regarding":{"kind":"Pod","name":"web","fieldPath":"spec.containers{app}"},
         "reportingController":"default-scheduler","reportingInstance":"sched-1",
         "eventTime":"2026-01-01T11:00:00.000000Z","deprecatedCount":0}
        """)).containsExactly("60m", "Normal", "Scheduled", "pod/web", "spec.containers{app}",
        "default-scheduler, sched-1", "Assigned to n1", "60m", 1L, "web.2");
    assertThat(Rows.cells(c, """
        {"metadata":{"name":"e"},"regarding":{"kind":"Node","name":"n1"},"reportingController":"kubelet",
         "deprecatedSource":{"component":"kubelet-old","host":"n1"},
         "deprecatedFirstTimestamp":"2026-01-01T10:00:00Z","deprecatedLastTimestamp":"2026-01-01T11:58:00Z",
         "deprecatedCount":4,"series":{"count":9,"lastObservedTime":"2026-01-01T11:59:00.000000Z"}}
        """)).containsExactly("60s", "", "", "node/n1", "", "kubelet-old, n1", "", "120m", 9L, "e");
  }

  @Test
  void configMapSecretServiceAccountAndLease_countTheirEntries() {
    assertThat(Rows.cells(new ConfigMapTableConvertor(),
        "{\"metadata\":{\"name\":\"c\"},\"data\":{\"a\":\"1\"},\"binaryData\":{\"b\":\"AA==\"}}"))
        .containsExactly("c", 2L, "<unknown>");
    assertThat(Rows.cells(new SecretTableConvertor(),
        "{\"metadata\":{\"name\":\"s\"},\"data\":{\"a\":\"MQ==\"},\"stringData\":{\"a\":\"1\",\"b\":\"2\"}}"))
        .containsExactly("s", "Opaque", 2L, "<unknown>");
    assertThat(Rows.cells(new ServiceAccountTableConvertor(), "{\"metadata\":{\"name\":\"sa\"},\"secrets\":[{\"name\":\"t\"}]}"))
        .containsExactly("sa", 1L, "<unknown>");
    assertThat(Rows.cells(new LeaseTableConvertor(), "{\"metadata\":{\"name\":\"l\"},\"spec\":{\"holderIdentity\":\"me\"}}"))
        .containsExactly("l", "me", "<unknown>");
  }

  @Test
  void roleBinding_showsItsRole_andSubjectsByKindWhenWide() {
    RoleBindingTableConvertor c = new RoleBindingTableConvertor();
    assertThat(Rows.headers(c)).containsExactly("Name", "Role", "Age", "Users", "Groups", "ServiceAccounts");
    assertThat(Rows.cells(c, """
        {"metadata":{"name":"rb"},"roleRef":{"kind":"ClusterRole","name":"view"},
         "subjects":[{"kind":"User","name":"alice"},{"kind":"User","name":"bob"},{"kind":"Group","name":"dev"},
          {"kind":"ServiceAccount","namespace":"ci","name":"deployer"}]}
        """)).containsExactly("rb", "ClusterRole/view", "<unknown>", "alice, bob", "dev", "ci:deployer");
  }

  @Test
  void defaultConvertor_showsNameAndCreatedAtAsRfc3339() {
    assertThat(Rows.headers(TableConvertor.DEFAULT)).containsExactly("Name", "Created At");
    assertThat(TableConvertor.DEFAULT.columnDefinitions().get(1).type()).isEqualTo("date");
    assertThat(Rows.cells(TableConvertor.DEFAULT, "{\"metadata\":{\"name\":\"r\",\"creationTimestamp\":\"2026-01-01T11:55:00Z\"}}"))
        .containsExactly("r", "2026-01-01T11:55:00Z");
    assertThat(Rows.cells(TableConvertor.DEFAULT, "{\"metadata\":{\"name\":\"r\"}}"))
        .containsExactly("r", "0001-01-01T00:00:00Z");
  }
}
