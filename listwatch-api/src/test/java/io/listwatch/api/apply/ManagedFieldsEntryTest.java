package io.listwatch.api.apply;

import static io.listwatch.api.apply.FieldsV1Test.json;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ManagedFieldsEntryTest {

  @Test
  void anEmptyManager_isLeftOut_andAMissingOneReadsAsEmpty_asGoEncodesAndDecodesIt() {
    ManagedFieldsEntry entry = ManagedFieldsEntry.fromJson(json(
        "{'operation':'Update','apiVersion':'v1','fieldsType':'FieldsV1','fieldsV1':{'f:data':{}}}"));

    assertThat(entry.manager()).isEmpty();
    assertThat(entry.toJson().has("manager")).isFalse();
    assertThat(ManagedFieldsEntry.fromJson(entry.toJson())).isEqualTo(entry);
  }
}
