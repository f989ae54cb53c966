package dev.mcpfusion.samples.conformance;

import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;

/** The conformance suite's SEP-1613 tool, {@code json_schema_2020_12_tool}: an input with a nested record. */
@Router(value = "json", description = "JSON Schema 2020-12 conformance")
public final class JsonSchemaTools {
  /** A postal address. */
  public record Address(@Describe("Street") String street, @Describe("City") String city) {}

  @Query(name = "schema_2020_12_tool",
      description = "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)")
  public String schema202012Tool(@Describe("A name") String name, @Describe("An address") Address address) {
    return "JSON Schema 2020-12 tool called with: name=" + name + ", address=" + address;
  }
}
