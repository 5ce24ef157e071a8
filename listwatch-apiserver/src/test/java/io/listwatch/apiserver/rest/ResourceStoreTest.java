package io.listwatch.apiserver.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.FakeClock;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.admission.AdmissionAttributes;
import io.listwatch.storage.memory.MemoryStorage;
import java.time.Instant;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The generic registry store, the same for every kind (kube's {@code genericregistry.Store}):
 * what a create sets, the guaranteed update's retry and no-op, finalizers holding a delete, dry
 * runs, and restoring objects. In memory, on a fake clock.
 */
class ResourceStoreTest {

  private static final Instant T0 = Instant.parse("2026-11-28T10:00:00Z");

  private final InMemoryCore core = InMemoryCore.start(new FakeClock(T0));
  private final MemoryStorage storage = core.storage;
  private final ResourceStore configMaps = core.server.store("", "v1", "configmaps");

  @AfterEach
  void stop() {
    core.close();
  }

  private static ObjectNode json(String s) {
    return InMemoryCore.json(s);
  }

  private static ObjectNode configMap(String metadata) {
    return json("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":" + metadata + ",\"data\":{\"k\":\"v\"}}");
  }

  private ObjectNode create(ObjectNode obj) {
    return configMaps.create("default", obj, false, AdmissionAttributes.SERVER).join();
  }

  private static long rv(ObjectNode obj) {
    return Long.parseLong(obj.at("/metadata/resourceVersion").asText());
  }

  @Test
  void create_setsTheServersMetadata_andTheStoresRevision() {
    ObjectNode created = create(configMap("{\"name\":\"a\",\"uid\":\"client-uid\"}"));

    assertThat(created.at("/metadata/uid").asText()).isNotEqualTo("client-uid").hasSize(36);
    assertThat(created.at("/metadata/creationTimestamp").asText()).isEqualTo("2026-11-28T10:00:00Z");
    assertThat(created.at("/metadata/namespace").asText()).isEqualTo("default");
    assertThat(rv(created)).isEqualTo(storage.currentRevision());
  }

  @Test
  void create_byGenerateName_givesANameWithKubesSuffix() {
    ObjectNode created = create(configMap("{\"generateName\":\"web-\"}"));

    assertThat(created.at("/metadata/name").asText()).matches("web-[bcdfghjklmnpqrstvwxz2456789]{5}");
  }

  @Test
  void create_dryRun_answersTheObject_butStoresNothing() {
    long before = storage.currentRevision();
    ObjectNode answered = configMaps.create("default", configMap("{\"name\":\"dry\"}"), true,
        AdmissionAttributes.SERVER).join();

    assertThat(answered.at("/metadata/uid").asText()).isNotEmpty();
    assertThat(storage.currentRevision()).isEqualTo(before);
    assertThat(configMaps.getInternal("default", "dry").join()).isEmpty();
  }

  @Test
  void guaranteedUpdate_retriesItsChange_whenAnotherWriterGotInBetween() {
    create(configMap("{\"name\":\"a\"}"));
    AtomicInteger calls = new AtomicInteger();

    ObjectNode updated = configMaps.guaranteedUpdate("default", "a", false, false, AdmissionAttributes.SERVER, cm -> {
      if (calls.incrementAndGet() == 1) { // someone else writes after this read
        configMaps.updateInternal("default", "a", other -> {
          ((ObjectNode) other.get("data")).put("other", "x");
          return other;
        }).join();
      }
      ((ObjectNode) cm.get("data")).put("mine", "y");
      return cm;
    }).join();

    assertThat(calls.get()).as("the change ran again on the newer object").isEqualTo(2);
    assertThat(updated.at("/data/other").asText()).isEqualTo("x");
    assertThat(updated.at("/data/mine").asText()).isEqualTo("y");
  }

  @Test
  void guaranteedUpdate_thatChangesNothing_writesNothing() {
    ObjectNode created = create(configMap("{\"name\":\"a\"}"));
    long before = storage.currentRevision();

    ObjectNode same = configMaps.guaranteedUpdate("default", "a", false, false, AdmissionAttributes.SERVER,
        cm -> cm).join();

    assertThat(rv(same)).isEqualTo(rv(created));
    assertThat(storage.currentRevision()).isEqualTo(before);
  }

  /** kube's rule: a write that would change only when a manager last wrote stores nothing. */
  @Test
  void guaranteedUpdate_thatChangesOnlyManagedFieldsTimes_writesNothing() {
    ObjectNode created = create(configMap("{\"name\":\"a\",\"managedFields\":[{\"manager\":\"kubectl\","
        + "\"operation\":\"Apply\",\"apiVersion\":\"v1\",\"time\":\"2026-11-28T10:00:00Z\","
        + "\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:data\":{\"f:k\":{}}}}]}"));
    long before = storage.currentRevision();

    ObjectNode same = configMaps.guaranteedUpdate("default", "a", false, false, AdmissionAttributes.SERVER, cm -> {
      ((ObjectNode) cm.at("/metadata/managedFields/0")).put("time", "2026-11-28T11:00:00Z");
      return cm;
    }).join();
    assertThat(rv(same)).isEqualTo(rv(created));
    assertThat(storage.currentRevision()).isEqualTo(before);

    ObjectNode changed = configMaps.guaranteedUpdate("default", "a", false, false, AdmissionAttributes.SERVER, cm -> {
      ((ObjectNode) cm.at("/metadata/managedFields/0")).put("time", "2026-11-28T11:00:00Z");
      ((ObjectNode) cm.get("data")).put("k", "other");
      return cm;
    }).join();
    assertThat(rv(changed)).as("a real change is written, with the new time").isGreaterThan(before);
    assertThat(changed.at("/metadata/managedFields/0/time").asText()).isEqualTo("2026-11-28T11:00:00Z");
  }

  @Test
  void guaranteedUpdate_ofAMissingObject_is404() {
    assertThatThrownBy(() -> configMaps.guaranteedUpdate("default", "none", false, false, AdmissionAttributes.SERVER,
        cm -> cm).join())
        .isInstanceOf(CompletionException.class).cause().isInstanceOf(StatusException.class)
        .hasMessage("configmaps \"none\" not found");
  }

  @Test
  void delete_ofAnObjectWithFinalizers_marksIt_andTheLastFinalizersRemovalDeletesIt() {
    create(configMap("{\"name\":\"a\",\"finalizers\":[\"example.com/hold\"]}"));

    ResourceStore.Deleted marked = configMaps.delete("default", "a", DeleteOptions.DEFAULTS).join();
    assertThat(marked.gone()).isFalse();
    assertThat(marked.object().at("/metadata/deletionTimestamp").asText()).isEqualTo("2026-11-28T10:00:00Z");

    configMaps.updateInternal("default", "a", cm -> {
      ((ObjectNode) cm.get("metadata")).remove("finalizers");
      return cm;
    }).join();
    assertThat(configMaps.getInternal("default", "a").join()).isEmpty();
  }

  @Test
  void restore_keepsTheFixturesIdentity_butGivesANewResourceVersion() {
    ObjectNode restored = configMaps.restoreInternal("default", configMap(
        "{\"name\":\"a\",\"uid\":\"0b0b0b0b-0000-4000-8000-000000000001\","
            + "\"creationTimestamp\":\"2020-01-01T00:00:00Z\",\"resourceVersion\":\"7\"}")).join();

    assertThat(restored.at("/metadata/uid").asText()).isEqualTo("0b0b0b0b-0000-4000-8000-000000000001");
    assertThat(restored.at("/metadata/creationTimestamp").asText()).isEqualTo("2020-01-01T00:00:00Z");
    assertThat(rv(restored)).isEqualTo(storage.currentRevision());
  }
}
