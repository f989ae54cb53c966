package dev.mcpfusion.cards;

import dev.mcpfusion.http.ProtectedResource;
import dev.mcpfusion.lock.PromptContract;
import dev.mcpfusion.lock.ResourceContract;
import dev.mcpfusion.lock.ToolContract;
import dev.mcpfusion.wire.ProtocolVersions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The MCP server card: the shape of the server card extension's schema ({@code ServerCard},
 * {@code https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json}). That schema
 * leaves primitives to the protocol's list operations and keeps vendor data in {@code _meta}, so
 * the tools, prompts and resources summary (names and descriptions) and the pointer to the OAuth
 * metadata travel there, under this framework's {@code dev.mcpfusion/} prefix.
 */
final class ServerCardJson {
  static final String SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
  static final String PRIMITIVES = "dev.mcpfusion/primitives";
  static final String AUTHORIZATION = "dev.mcpfusion/authorization";

  private ServerCardJson() {}

  static Map<String, Object> of(ContractCards contract, String name, String version,
      String description, String title, String endpoint, ProtectedResource auth) {
    Map<String, Object> card = new LinkedHashMap<>();
    card.put("$schema", SCHEMA);
    card.put("name", name);
    card.put("version", version);
    card.put("description", description);
    if (title != null) {
      card.put("title", title);
    }
    Map<String, Object> remote = new LinkedHashMap<>();
    remote.put("type", "streamable-http");
    remote.put("url", endpoint);
    List<String> versions = new ArrayList<>(ProtocolVersions.STREAMABLE_HTTP);
    versions.add(ProtocolVersions.MODERN);
    remote.put("supportedProtocolVersions", versions);
    if (auth != null) {
      // SEP-2127's remote authentication object: a token is needed, presented as a bearer token.
      Map<String, Object> authentication = new LinkedHashMap<>();
      authentication.put("required", true);
      authentication.put("schemes", List.of("bearer"));
      remote.put("authentication", authentication);
    }
    card.put("remotes", List.of(remote));
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put(PRIMITIVES, primitives(contract));
    if (auth != null) {
      Map<String, Object> pointer = new LinkedHashMap<>();
      pointer.put("resource", auth.resource().toString());
      pointer.put("resource_metadata", auth.metadataUrl());
      meta.put(AUTHORIZATION, pointer);
    }
    card.put("_meta", meta);
    return card;
  }

  private static Map<String, Object> primitives(ContractCards contract) {
    List<Object> tools = new ArrayList<>();
    for (ToolContract tool : contract.tools()) {
      String description = contract.grouped() ? tool.description()
          : tool.actions().values().iterator().next().description();
      tools.add(entry("name", tool.name(), description));
    }
    List<Object> prompts = new ArrayList<>();
    for (PromptContract p : contract.prompts()) {
      prompts.add(entry("name", p.name(), p.description()));
    }
    List<Object> resources = new ArrayList<>();
    for (ResourceContract r : contract.resources()) {
      Map<String, Object> e = entry("uri", r.uri(), r.description());
      e.put("name", r.name());
      resources.add(e);
    }
    Map<String, Object> all = new LinkedHashMap<>();
    all.put("tools", tools);
    all.put("prompts", prompts);
    all.put("resources", resources);
    return all;
  }

  private static Map<String, Object> entry(String key, String value, String description) {
    Map<String, Object> e = new LinkedHashMap<>();
    e.put(key, value);
    if (description != null && !description.isEmpty()) {
      e.put("description", description);
    }
    return e;
  }
}
