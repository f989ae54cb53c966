package dev.mcpfusion.samples.conformance;

import dev.mcpfusion.annotation.InputSchema;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;
import java.util.Map;

/**
 * The conformance suite's SEP-1613/SEP-2106 tool, {@code json_schema_2020_12_tool}: an input a
 * record cannot say ({@code $defs} with an {@code $anchor}, {@code allOf}/{@code anyOf},
 * {@code if}/{@code then}/{@code else}), described by a schema document and listed unchanged;
 * and the SEP-2243 tool whose arguments are mirrored in custom {@code Mcp-Param-*} headers.
 */
@Router(value = "json", description = "JSON Schema 2020-12 conformance")
public final class JsonSchemaTools {
  @Query(name = "schema_2020_12_tool", description = "Tool with JSON Schema 2020-12 features")
  public String schema202012Tool(
      @InputSchema("schemas/json_schema_2020_12_tool.json") Map<String, Object> arguments) {
    return "JSON Schema 2020-12 tool called with: " + arguments;
  }

  /**
   * The SEP-2243 custom-header tool: its schema marks {@code region} and {@code priority} with
   * {@code x-mcp-header}, so over HTTP a call carries them in {@code Mcp-Param-Region} and
   * {@code Mcp-Param-Priority} too, and fusion-http refuses one whose headers disagree.
   */
  @Query(name = "custom_header_tool", description = "Reports the region (and priority) it was called with")
  public String customHeaderTool(
      @InputSchema("schemas/custom_header_tool.json") Map<String, Object> arguments) {
    return "Region: " + arguments.get("region")
        + (arguments.get("priority") == null ? "" : ", priority " + arguments.get("priority"));
  }
}
