package dev.mcpfusion.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ToolInfo reads a tools/list item as sent and hands out nothing a test can change. */
class ToolInfoTest {
  private static Map<String, Object> tool() {
    Map<String, Object> tool = new LinkedHashMap<>();
    tool.put("name", "billing_get_invoice");
    tool.put("title", "Get invoice");
    tool.put("description", "Get one invoice");
    tool.put("inputSchema", Map.of("type", "object", "required", List.of("id")));
    tool.put("annotations", Map.of("title", "Invoice", "readOnlyHint", true, "destructiveHint", false));
    tool.put("_meta", Map.of("k", "v"));
    return tool;
  }

  @Test
  void readsEveryPartOfTheTool() {
    ToolInfo info = ToolInfo.of(tool());

    assertThat(info.name()).isEqualTo("billing_get_invoice");
    assertThat(info.title()).isEqualTo("Get invoice");
    assertThat(info.description()).isEqualTo("Get one invoice");
    assertThat(info.inputSchema()).containsEntry("required", List.of("id"));
    assertThat(info.outputSchema()).isNull();
    assertThat(info.annotations()).isEqualTo(new ToolInfo.Hints("Invoice", true, false, null, null));
    assertThat(info.meta()).containsEntry("k", "v");
    assertThat(info.json()).containsOnlyKeys("name", "title", "description", "inputSchema", "annotations", "_meta");
    assertThat(info).isEqualTo(ToolInfo.of(tool())).hasSameHashCodeAs(ToolInfo.of(tool()));
    assertThat(info.toString()).startsWith("{\"name\":\"billing_get_invoice\",\"title\"");
  }

  @Test
  void absentPartsAreNull() {
    ToolInfo bare = ToolInfo.of(Map.of("name", "ping"));
    assertThat(bare.title()).isNull();
    assertThat(bare.description()).isNull();
    assertThat(bare.inputSchema()).isNull();
    assertThat(bare.annotations()).isNull();
    assertThat(bare.meta()).isNull();
  }

  @Test
  @SuppressWarnings("unchecked")
  void isImmutableAndCopiesItsInput() {
    Map<String, Object> source = tool();
    ToolInfo info = ToolInfo.of(source);
    source.put("name", "changed");

    assertThat(info.name()).isEqualTo("billing_get_invoice");
    assertThatThrownBy(() -> info.json().put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> ((List<Object>) info.inputSchema().get("required")).add("y"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void aToolWithoutANameIsRejectedNamingTheTree() {
    assertThatThrownBy(() -> ToolInfo.of(Map.of("description", "no name")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("A tool needs a string \"name\": {\"description\":\"no name\"}");
  }
}
