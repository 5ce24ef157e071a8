package io.listwatch.apiserver.printers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class CustomResourceTableConvertorTest {

  private static final TableConvertor WIDGETS = CustomResourceTableConvertor.of(Rows.json("""
      [{"name":"Color","type":"string","jsonPath":".spec.color","description":"paint"},
       {"name":"Replicas","type":"integer","format":"int32","jsonPath":".spec.replicas"},
       {"name":"Weight","type":"number","jsonPath":".spec.weight","priority":1},
       {"name":"Enabled","type":"boolean","jsonPath":".spec.enabled"},
       {"name":"Last Seen","type":"date","jsonPath":".status.lastSeen"},
       {"name":"Ports","type":"string","jsonPath":".spec.ports"}]
      """));

  @Test
  void columns_areNameThenTheDeclaredOnes_asDeclared() {
    assertThat(Rows.headers(WIDGETS)).containsExactly("Name", "Color", "Replicas", "Weight", "Enabled", "Last Seen",
        "Ports");
    assertThat(WIDGETS.columnDefinitions().get(0).format()).isEqualTo("name");
    assertThat(WIDGETS.columnDefinitions().get(1).description()).isEqualTo("paint");
    assertThat(WIDGETS.columnDefinitions().get(2).format()).isEqualTo("int32");
    assertThat(WIDGETS.columnDefinitions().get(3).priority()).isEqualTo(1);
    assertThat(WIDGETS.columnDefinitions().get(5).type()).isEqualTo("date");
  }

  @Test
  void cells_takeTheTypeOfTheirColumn() {
    assertThat(Rows.cells(WIDGETS, """
        {"metadata":{"name":"w1"},"spec":{"color":"blue","replicas":3,"weight":2,"enabled":true,"ports":[80,443]},
         "status":{"lastSeen":"%s"}}
        """.formatted(Rows.CREATED_5M_AGO)))
        .containsExactly("w1", "blue", 3L, 2.0, true, "5m", "[80 443]");
  }

  @Test
  void cells_areNull_whenThePathFindsNothing_orAValueOfAnotherType() {
    assertThat(Rows.cells(WIDGETS, """
        {"metadata":{"name":"w2"},"spec":{"replicas":"three","weight":null,"enabled":"yes"},
         "status":{"lastSeen":"yesterday"}}
        """)).containsExactly("w2", null, null, null, null, "<invalid>", null);
  }

  @Test
  void anIntegerColumn_truncatesAFraction() {
    assertThat(Rows.cells(WIDGETS, "{\"metadata\":{\"name\":\"w3\"},\"spec\":{\"replicas\":2.7}}").get(2))
        .isEqualTo(2L);
  }

  @Test
  void noDeclaredColumns_givesNameAndAge() {
    TableConvertor plain = CustomResourceTableConvertor.of(Rows.json("[]"));

    assertThat(Rows.headers(plain)).containsExactly("Name", "Age");
    assertThat(plain.columnDefinitions().get(1).type()).isEqualTo("date");
    assertThat(Rows.cells(plain, "{\"metadata\":{\"name\":\"p\",\"creationTimestamp\":\"" + Rows.CREATED_5M_AGO
        + "\"}}")).containsExactly("p", "5m");
    assertThat(Arrays.asList(Rows.headers(CustomResourceTableConvertor.of(null)).toArray()))
        .containsExactly("Name", "Age");
  }

  @Test
  void aColumnWhosePathDoesNotParse_printsNullCells() {
    TableConvertor broken = CustomResourceTableConvertor.of(Rows.json(
        "[{\"name\":\"X\",\"type\":\"string\",\"jsonPath\":\"..x\"}]"));

    assertThat(Rows.cells(broken, "{\"metadata\":{\"name\":\"b\"},\"x\":1}")).containsExactly("b", null);
  }
}
