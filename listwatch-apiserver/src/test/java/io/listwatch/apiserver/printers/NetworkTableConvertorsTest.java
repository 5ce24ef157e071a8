package io.listwatch.apiserver.printers;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Endpoints, EndpointSlices, Ingresses and NetworkPolicies. */
class NetworkTableConvertorsTest {

  @Test
  void endpoints_listAddressPortPairs_theFirstThreeThenHowManyMore() {
    EndpointsTableConvertor c = new EndpointsTableConvertor();
    assertThat(Rows.shapes(c)).containsExactly("Name:string:name", "Endpoints:string", "Age:string");
    assertThat(Rows.cells(c, """
        {"metadata":{"name":"web"},"subsets":[
          {"addresses":[{"ip":"10.0.0.1"},{"ip":"fd00::2"}],"notReadyAddresses":[{"ip":"10.0.0.9"}],
           "ports":[{"name":"http","port":80},{"name":"https","port":443}]}]}
        """)).containsExactly("web", "10.0.0.1:80,[fd00::2]:80,10.0.0.1:443 + 1 more...", "<unknown>");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"headless\"},\"subsets\":[{\"addresses\":[{\"ip\":\"10.0.0.1\"}]}]}")
        .get(1)).isEqualTo("10.0.0.1");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"none\"}}").get(1)).isEqualTo("<none>");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"unready\"},\"subsets\":[{\"ports\":[{\"port\":80}]}]}")
        .get(1)).isEqualTo("");
  }

  @Test
  void endpointSlice_showsAddressTypePortsAndAddresses() {
    EndpointSliceTableConvertor c = new EndpointSliceTableConvertor();
    assertThat(Rows.shapes(c)).containsExactly("Name:string:name", "AddressType:string", "Ports:string",
        "Endpoints:string", "Age:string");
    assertThat(Rows.cells(c, """
        {"metadata":{"name":"web-abc"},"addressType":"IPv4",
         "ports":[{"name":"http","port":80},{"name":"metrics"},{}],
         "endpoints":[{"addresses":["10.0.0.1","10.0.0.2"]},{"addresses":["10.0.0.3"]},{"addresses":["10.0.0.4"]}]}
        """)).containsExactly("web-abc", "IPv4", "80,metrics,*", "10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...", "<unknown>");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"empty\"},\"addressType\":\"IPv6\"}"))
        .containsExactly("empty", "IPv6", "<unset>", "<unset>", "<unknown>");
  }

  @Test
  void ingress_showsClassHostsAddressAndPorts() {
    IngressTableConvertor c = new IngressTableConvertor();
    assertThat(Rows.shapes(c)).containsExactly("Name:string:name", "Class:string", "Hosts:string", "Address:string",
        "Ports:string", "Age:string");
    assertThat(Rows.cells(c, """
        {"metadata":{"name":"shop"},
         "spec":{"ingressClassName":"nginx","tls":[{"hosts":["a.example"]}],
          "rules":[{"host":"a.example"},{},{"host":"b.example"},{"host":"c.example"},{"host":"d.example"}]},
         "status":{"loadBalancer":{"ingress":[{"ip":"203.0.113.9"},{"hostname":"lb.example"},{"ip":"203.0.113.1"}]}}}
        """)).containsExactly("shop", "nginx", "a.example,b.example,c.example + 2 more...",
        "203.0.113.1,203.0.113.9,lb.example", "80, 443", "<unknown>");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"any\"},\"spec\":{\"rules\":[{}]}}"))
        .containsExactly("any", "<none>", "*", "", "80", "<unknown>");
  }

  @Test
  void networkPolicy_showsItsPodSelector_orNoneForAll() {
    NetworkPolicyTableConvertor c = new NetworkPolicyTableConvertor();
    assertThat(Rows.shapes(c)).containsExactly("Name:string:name", "Pod-Selector:string", "Age:string");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"db\"},\"spec\":{\"podSelector\":{\"matchLabels\":{\"role\":\"db\"}}}}"))
        .containsExactly("db", "role=db", "<unknown>");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"deny-all\"},\"spec\":{\"podSelector\":{}}}"))
        .containsExactly("deny-all", "<none>", "<unknown>");
  }
}
