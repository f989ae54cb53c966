package dev.mcpfusion.cards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.cards.shop.ShopTools;
import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.http.ProtectedResource;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.lock.LockProfile;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The server card and the agent card of a connector with public and {@code @Scopes}-guarded
 * features: valid against their published schemas, listing what the lockfile contract records for
 * an anonymous reader, and nothing else.
 */
class CardsTest {
  private static final ProtectedResource AUTH = ProtectedResource.of("https://mcp.example.com/mcp",
      "https://idp.example.com/realms/acme", "shop:admin");

  static Cards.Builder shop(LockProfile profile) {
    return Cards.builder(profile, ShopTools.class).name("com.example/shop").version("1.2.0")
        .description("The shop's items: list them, read the catalog");
  }

  static Cards shop() {
    return shop(LockProfile.defaults()).endpoint("https://mcp.example.com/mcp").build();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> tree(String json) {
    return (Map<String, Object>) Json.parse(json);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> primitives(Cards cards) {
    return (Map<String, Object>) ((Map<String, Object>) tree(cards.serverCardJson()).get("_meta"))
        .get("dev.mcpfusion/primitives");
  }

  @Test
  void bothCardsAreValidAgainstTheirPublishedSchemas() {
    Cards open = shop();
    Cards guarded = shop(LockProfile.defaults()).protectedResource(AUTH).build();
    Cards grouped = shop(new LockProfile(Exposition.GROUPED, "_", List.of()))
        .endpoint("http://127.0.0.1:8080/mcp").title("Shop").build();
    for (Cards cards : List.of(open, guarded, grouped)) {
      assertThat(Schemas.errors(Schemas.SERVER_CARD, cards.serverCardJson()))
          .as(cards.serverCardJson()).isEmpty();
      assertThat(Schemas.errors(Schemas.AGENT_CARD, cards.agentCardJson()))
          .as(cards.agentCardJson()).isEmpty();
    }
  }

  @Test
  void theSchemasRejectACardThatBreaksThem() {
    // the validation above can fail: a one-segment name and a card without skills are refused
    String card = shop().serverCardJson().replace("\"com.example/shop\"", "\"shop\"");
    assertThat(Schemas.errors(Schemas.SERVER_CARD, card)).isNotEmpty();
    String agent = shop().agentCardJson().replace("\"skills\":", "\"skillz\":");
    assertThat(Schemas.errors(Schemas.AGENT_CARD, agent)).isNotEmpty();
  }

  @Test
  void theServerCardNamesTheServerItsEndpointAndItsPublicFeatures() {
    Map<String, Object> card = tree(shop().serverCardJson());
    assertThat(card).containsEntry("$schema",
        "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json")
        .containsEntry("name", "com.example/shop").containsEntry("version", "1.2.0")
        .containsEntry("description", "The shop's items: list them, read the catalog");
    @SuppressWarnings("unchecked")
    Map<String, Object> remote = ((List<Map<String, Object>>) card.get("remotes")).get(0);
    assertThat(remote).containsEntry("type", "streamable-http")
        .containsEntry("url", "https://mcp.example.com/mcp").doesNotContainKey("authentication");
    assertThat(String.valueOf(remote.get("supportedProtocolVersions"))).contains("2025-11-25")
        .contains("2026-07-28");
    assertThat(primitives(shop())).isEqualTo(Map.of(
        "tools", List.of(Map.of("name", "shop_list_items", "description", "List the items")),
        "prompts", List.of(Map.of("name", "suggest", "description", "Suggest an item")),
        "resources", List.of(Map.of("uri", "shop://catalog", "name", "catalog",
            "description", "The catalog"))));
  }

  @Test
  void noCardNamesAScopedFeatureAHiddenFieldOrAScope() {
    Cards flat = shop(LockProfile.defaults()).protectedResource(AUTH).build();
    Cards grouped = shop(new LockProfile(Exposition.GROUPED, "_", List.of()))
        .endpoint("https://mcp.example.com/mcp").build();
    for (Cards cards : List.of(shop(), flat, grouped)) {
      for (String json : List.of(cards.serverCardJson(), cards.agentCardJson())) {
        assertThat(json).doesNotContain("purge").doesNotContain("Purge")
            .doesNotContain("audit").doesNotContain("Audit").doesNotContain("ledger")
            .doesNotContain("supplierSecret").doesNotContain("s3cr3t").doesNotContain("shop:admin")
            // fields are never listed, not even the visible ones
            .doesNotContain("\"title\":\"").doesNotContain("_select");
      }
    }
  }

  @Test
  void theAgentCardHasOneSkillPerPublicActionAndSaysItSpeaksMcp() {
    Map<String, Object> card = tree(shop().agentCardJson());
    assertThat(card).containsEntry("protocolVersion", "0.3.0").containsEntry("name", "com.example/shop")
        .containsEntry("url", "https://mcp.example.com/mcp").containsEntry("preferredTransport", "MCP")
        .containsEntry("version", "1.2.0").doesNotContainKey("securitySchemes");
    assertThat(card.get("skills")).isEqualTo(List.of(Map.of("id", "shop_list_items",
        "name", "shop_list_items", "description", "List the items", "tags", List.of("shop", "query"))));
    Map<String, Object> grouped = tree(shop(new LockProfile(Exposition.GROUPED, "_", List.of()))
        .endpoint("https://mcp.example.com/mcp").title("Shop").build().agentCardJson());
    assertThat(grouped).containsEntry("name", "Shop");
    assertThat(grouped.get("skills")).isEqualTo(List.of(Map.of("id", "shop.list_items",
        "name", "shop.list_items", "description", "List the items", "tags", List.of("shop", "query"))));
  }

  @Test
  void withAuthorizationBothCardsPointAtTheProtectedResourceMetadata() {
    Cards cards = shop(LockProfile.defaults()).protectedResource(AUTH).build();
    Map<String, Object> server = tree(cards.serverCardJson());
    @SuppressWarnings("unchecked")
    Map<String, Object> remote = ((List<Map<String, Object>>) server.get("remotes")).get(0);
    assertThat(remote).containsEntry("url", "https://mcp.example.com/mcp")
        .containsEntry("authentication", Map.of("required", true, "schemes", List.of("bearer")));
    assertThat(((Map<?, ?>) server.get("_meta")).get("dev.mcpfusion/authorization")).isEqualTo(Map.of(
        "resource", "https://mcp.example.com/mcp",
        "resource_metadata", "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"));
    Map<String, Object> agent = tree(cards.agentCardJson());
    assertThat(agent.get("security")).isEqualTo(List.of(Map.of("bearer", List.of())));
    assertThat(String.valueOf(agent.get("securitySchemes")))
        .contains("type=http").contains("scheme=bearer")
        .contains("https://mcp.example.com/.well-known/oauth-protected-resource/mcp");
  }

  @Test
  void theCardsAreByteIdenticalForTheSameConnector() {
    assertThat(shop().serverCardJson()).isEqualTo(shop().serverCardJson());
    assertThat(shop().agentCardJson()).isEqualTo(shop().agentCardJson());
  }

  @Test
  void theDocumentsAreServedAtTheReservedAndWellKnownPaths() {
    assertThat(shop().documents()).extracting(d -> d.path() + " " + d.mediaType()).containsExactly(
        "/mcp/server-card application/mcp-server-card+json",
        "/.well-known/mcp/server-card application/mcp-server-card+json",
        "/.well-known/agent-card.json application/json");
  }

  @Test
  void badSettingsFailNamingTheFix() {
    Cards.Builder b = shop(LockProfile.defaults());
    assertThatThrownBy(() -> b.name("shop")).hasMessageContaining("such as com.acme/billing");
    assertThatThrownBy(() -> b.description("x".repeat(101)))
        .hasMessageContaining("1 to 100 characters (the server card schema's limit), but had 101");
    assertThatThrownBy(() -> b.endpoint("mcp.example.com/mcp"))
        .hasMessageContaining("absolute http(s) URL");
    assertThatThrownBy(() -> Cards.builder(LockProfile.defaults(), ShopTools.class).build())
        .hasMessage("The cards need name(...), version(...), description(...), endpoint(...)"
            + " before build()");
  }
}
