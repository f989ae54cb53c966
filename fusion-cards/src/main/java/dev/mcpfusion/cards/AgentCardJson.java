package dev.mcpfusion.cards;

import dev.mcpfusion.http.ProtectedResource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The A2A agent card (A2A protocol 0.3.0, {@code AgentCard}): one skill per tool action that needs
 * no scope. The connector speaks MCP, not A2A's bindings, so {@code preferredTransport} says
 * {@code MCP} rather than leaving the default ({@code JSONRPC}, which would promise A2A's methods
 * at {@code url}).
 */
final class AgentCardJson {
  static final String PROTOCOL_VERSION = "0.3.0";
  static final String TRANSPORT = "MCP";
  static final String BEARER = "bearer";

  private AgentCardJson() {}

  static Map<String, Object> of(ContractCards contract, String name, String version,
      String description, String endpoint, ProtectedResource auth) {
    Map<String, Object> card = new LinkedHashMap<>();
    card.put("protocolVersion", PROTOCOL_VERSION);
    card.put("name", name);
    card.put("description", description);
    card.put("url", endpoint);
    card.put("preferredTransport", TRANSPORT);
    card.put("version", version);
    Map<String, Object> capabilities = new LinkedHashMap<>();
    capabilities.put("streaming", false);
    capabilities.put("pushNotifications", false);
    card.put("capabilities", capabilities);
    card.put("defaultInputModes", List.of("application/json"));
    card.put("defaultOutputModes", List.of("application/json", "text/plain"));
    List<Object> skills = new ArrayList<>();
    for (ContractCards.Shown s : contract.actions()) {
      Map<String, Object> skill = new LinkedHashMap<>();
      String id = contract.grouped() ? s.tool().name() + "." + s.action().name() : s.tool().name();
      skill.put("id", id);
      skill.put("name", s.action().title() == null || s.action().title().isEmpty() ? id
          : s.action().title());
      skill.put("description", s.action().description());
      skill.put("tags", List.of(s.tool().router(),
          s.action().verb().name().toLowerCase(Locale.ROOT)));
      skills.add(skill);
    }
    card.put("skills", skills);
    if (auth != null) {
      Map<String, Object> scheme = new LinkedHashMap<>();
      scheme.put("type", "http");
      scheme.put("scheme", "bearer");
      scheme.put("description", "An OAuth 2.1 access token for " + auth.resource()
          + "; the authorization servers that issue it are named in " + auth.metadataUrl()
          + " (RFC 9728).");
      card.put("securitySchemes", Map.of(BEARER, scheme));
      card.put("security", List.of(Map.of(BEARER, List.of())));
    }
    return card;
  }
}
