package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NegotiationTest {

  @Test
  void protobuf_isChosen_whenItComesBeforeEveryJsonRange() {
    assertThat(Negotiation.prefersProtobuf("application/vnd.kubernetes.protobuf, */*")).isTrue();
    assertThat(Negotiation.prefersProtobuf("application/vnd.kubernetes.protobuf,application/json")).isTrue();
    assertThat(Negotiation.prefersProtobuf("application/vnd.kubernetes.protobuf")).isTrue();
    assertThat(Negotiation.prefersProtobuf("application/json;q=0.5, application/vnd.kubernetes.protobuf")).isTrue();
  }

  @Test
  void json_isChosen_whenListedFirst_absent_orTheOnlyMatch() {
    assertThat(Negotiation.prefersProtobuf("application/json, application/vnd.kubernetes.protobuf")).isFalse();
    assertThat(Negotiation.prefersProtobuf("*/*")).isFalse();
    assertThat(Negotiation.prefersProtobuf("")).isFalse();
    assertThat(Negotiation.prefersProtobuf(null)).isFalse();
    assertThat(Negotiation.prefersProtobuf("text/html, application/yaml")).isFalse();
    assertThat(Negotiation.prefersProtobuf("application/vnd.kubernetes.protobuf;q=0, application/json")).isFalse();
  }

  @Test
  void aTableRequest_isNotAProtobufRequest() {
    assertThat(Negotiation.prefersProtobuf(
        "application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io, application/json")).isFalse();
    assertThat(Negotiation.prefersProtobuf("application/json;as=Table;v=v1;g=meta.k8s.io,application/json"))
        .isFalse();
  }
}
