package io.listwatch.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InstrumentedStorageTest {

  @Test
  void storageType_isTheResourceOfTheKey() {
    assertThat(InstrumentedStorage.type("/registry/core/pods/default/a")).isEqualTo("pods");
    assertThat(InstrumentedStorage.type("/registry/core/namespaces/default")).isEqualTo("namespaces");
    assertThat(InstrumentedStorage.type("/registry/apps/deployments/")).isEqualTo("deployments.apps");
    assertThat(InstrumentedStorage.type("/other")).isEmpty();
  }
}
