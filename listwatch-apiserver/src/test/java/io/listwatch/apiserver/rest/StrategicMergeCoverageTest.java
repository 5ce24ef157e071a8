package io.listwatch.apiserver.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.patch.PatchSchemas;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import org.junit.jupiter.api.Test;

/**
 * Every built-in resource that can be patched answers strategic merge (kubectl's default patch
 * type and what {@code kubectl apply} sends), which needs its kind in listwatch-api's table of
 * merge keys; only custom resources are without.
 */
class StrategicMergeCoverageTest {

  @Test
  void everyPatchableBuiltin_hasAPatchSchema_soStrategicMergeIsNot415() {
    for (ResourceDefinition def : ResourceRegistry.builtins().all()) {
      if (def.stored() && def.verbs().contains("patch")) {
        assertThat(PatchSchemas.forKind(def.group(), def.version(), def.kind()))
            .as("patch schema of %s", def).isPresent();
      }
    }
  }
}
