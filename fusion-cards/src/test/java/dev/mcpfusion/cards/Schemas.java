package dev.mcpfusion.cards;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The published schemas of the two cards (test resources, see their README), each narrowed to
 * the card's definition with a root {@code $ref}.
 */
final class Schemas {
  static final JsonMapper MAPPER = JsonMapper.builder().build();

  /** {@code $defs/ServerCard} of the MCP server card extension (JSON Schema 2020-12). */
  static final Schema SERVER_CARD = SchemaRegistry.withDefaultDialect(Dialects.getDraft202012())
      .getSchema(root("mcp-server-card.schema.json", "#/$defs/ServerCard"));
  /** {@code definitions/AgentCard} of A2A 0.3.0 (JSON Schema draft-07). */
  static final Schema AGENT_CARD = SchemaRegistry.withDefaultDialect(Dialects.getDraft7())
      .getSchema(root("a2a-0.3.0.schema.json", "#/definitions/AgentCard"));

  private Schemas() {}

  private static JsonNode root(String file, String ref) {
    try (InputStream in = Schemas.class.getResourceAsStream("/schemas/" + file)) {
      ObjectNode schema = (ObjectNode) MAPPER.readTree(in);
      schema.put("$ref", ref);
      return schema;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The schema's complaints about {@code json}, empty when it is valid. */
  static List<String> errors(Schema schema, String json) {
    return schema.validate(MAPPER.readTree(json)).stream().map(Error::toString).toList();
  }
}
