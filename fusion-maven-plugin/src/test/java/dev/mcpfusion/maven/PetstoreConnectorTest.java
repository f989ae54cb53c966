package dev.mcpfusion.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.outbound.OutboundHttp;
import dev.mcpfusion.outbound.ProxyUpstreams;
import dev.mcpfusion.outbound.UrlPolicy;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolInfo;
import dev.mcpfusion.testing.ToolResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connector generated from the Swagger Petstore document, compiled with the processor and
 * served by the tester, calling a local stub of the Petstore over loopback HTTP through
 * fusion-outbound's guarded client.
 */
class PetstoreConnectorTest {
  private static final String PASSWORD = "hunter2-" + "a7c1e0";
  private static final String PHONE = "+1-555-" + "0199";
  private static final String UPSTREAM_DETAIL = "stack trace at com.petstore.internal";

  @TempDir
  static Path dir;
  private static GeneratedConnector connector;

  private StubApi api;
  private OutboundHttp http;
  private FusionTester tester;

  @BeforeAll
  static void generateAndCompile() {
    connector = GeneratedConnector.build(OpenApiDocuments.PETSTORE, OpenApiDocuments.config(OpenApiDocuments.PETSTORE), dir);
  }

  @BeforeEach
  void serve() {
    api = new StubApi();
    http = OutboundHttp.builder().policy(UrlPolicy.defaults().allowAddresses(api.host()).allowPorts(api.port())).build();
    ProxyUpstreams upstreams = connector.upstreams("PetstoreTools", http, "http://" + api.host() + ":" + api.port() + "/v3");
    tester = FusionTester.of(connector.router("PetstoreTools", upstreams));
  }

  @AfterEach
  void stop() {
    tester.close();
    http.close();
    api.close();
  }

  @Test
  void everyMappedOperationIsOneToolWithHintsFromItsMethod() {
    Map<String, ToolInfo> tools = tester.listTools().stream().collect(Collectors.toMap(ToolInfo::name, t -> t));
    assertThat(tools).containsOnlyKeys("petstore_add_pet", "petstore_delete_order", "petstore_delete_pet",
        "petstore_delete_user", "petstore_find_pets_by_status", "petstore_find_pets_by_tags",
        "petstore_get_order_by_id", "petstore_get_pet_by_id", "petstore_get_user_by_name", "petstore_login_user",
        "petstore_logout_user", "petstore_place_order", "petstore_update_pet", "petstore_update_pet_with_form",
        "petstore_update_user", "petstore_create_user");
    assertThat(tools.get("petstore_get_pet_by_id").annotations().readOnlyHint()).isTrue();
    assertThat(tools.get("petstore_add_pet").annotations().destructiveHint()).isTrue();
    assertThat(tools.get("petstore_add_pet").annotations().idempotentHint()).isFalse();
    assertThat(tools.get("petstore_update_pet").annotations().idempotentHint()).isTrue();
    assertThat(tools.get("petstore_delete_pet").annotations().idempotentHint()).isTrue();
    // The credential header of deletePet is the connector's to send, never an agent's input.
    assertThat(tools.get("petstore_delete_pet").inputSchema().toString()).doesNotContain("api_key");
    // Neither a secret-like nor a configured-hidden property is in any schema an agent reads.
    assertThat(tools.get("petstore_get_user_by_name").outputSchema().toString())
        .contains("username").doesNotContain("password").doesNotContain("phone");
    assertThat(tools.get("petstore_create_user").inputSchema().toString()).doesNotContain("password");
  }

  @Test
  void aQueryCallsTheUpstreamAndTheViewShowsTheReadableFields() {
    api.answer("GET /v3/pet/7", 200, """
        {"id":7,"name":"Rex","category":{"id":1,"name":"Dogs"},"photoUrls":["https://img/rex.png"],
         "tags":[{"id":3,"name":"good"}],"status":"available","internalNote":"not in the document"}""");

    ToolResult r = tester.call("petstore", "get_pet_by_id", Map.of("petId", 7));

    assertThat(r.isSuccess()).as(r.toString()).isTrue();
    assertThat(r.structuredContent()).containsEntry("name", "Rex").containsEntry("status", "available")
        .containsEntry("category", Map.of("id", 1, "name", "Dogs"));
    assertThat(r.raw()).doesNotContain("internalNote");
    assertThat(api.received()).extracting(StubApi.Received::line).containsExactly("GET /v3/pet/7");
  }

  @Test
  void aSecretLikeOrConfiguredHiddenFieldNeverReachesAReply() {
    api.answer("GET /v3/user/alice", 200, "{\"id\":1,\"username\":\"alice\",\"email\":\"alice@example.com\","
        + "\"password\":\"" + PASSWORD + "\",\"phone\":\"" + PHONE + "\",\"userStatus\":1}");

    ToolResult r = tester.call("petstore", "get_user_by_name", Map.of("username", "alice"));

    assertThat(r.isSuccess()).as(r.toString()).isTrue();
    assertThat(r.structuredContent()).containsEntry("username", "alice").doesNotContainKeys("password", "phone");
    String everything = String.join("\n", tester.rawMessages());
    assertThat(everything).contains("alice@example.com").doesNotContain(PASSWORD).doesNotContain(PHONE);
  }

  @Test
  void aListQuerySendsItsQueryValuesAndPresentsEveryItem() {
    api.answer("GET /v3/pet/findByStatus?status=sold", 200,
        "[{\"id\":1,\"name\":\"A\",\"photoUrls\":[]},{\"id\":2,\"name\":\"B\",\"photoUrls\":[],\"status\":\"sold\"}]");
    api.answer("GET /v3/pet/findByTags?tags=a%20b&tags=c", 200, "[]");

    ToolResult sold = tester.call("petstore", "find_pets_by_status", Map.of("status", "sold"));
    ToolResult tagged = tester.call("petstore", "find_pets_by_tags", Map.of("tags", List.of("a b", "c")));

    assertThat(sold.isSuccess()).as(sold.toString()).isTrue();
    assertThat(sold.dataText()).contains("\"name\":\"A\"").contains("\"name\":\"B\"");
    assertThat(tagged.isSuccess()).as(tagged.toString()).isTrue();
    assertThat(api.received()).extracting(StubApi.Received::line)
        .containsExactly("GET /v3/pet/findByStatus?status=sold", "GET /v3/pet/findByTags?tags=a%20b&tags=c");
  }

  @Test
  void aMutationSendsTheFilledBodyAsJsonWithoutTheLeftOutProperties() {
    api.answer("POST /v3/pet", 200, "{\"id\":11,\"name\":\"Rex\",\"photoUrls\":[\"u\"],\"status\":\"pending\"}");

    ToolResult r = tester.call("petstore", "add_pet",
        Map.of("body", Map.of("name", "Rex", "photoUrls", List.of("u"), "status", "pending")));

    assertThat(r.isSuccess()).as(r.toString()).isTrue();
    assertThat(r.structuredContent()).containsEntry("id", 11);
    StubApi.Received sent = api.received().get(0);
    assertThat(sent.line()).isEqualTo("POST /v3/pet");
    assertThat(sent.body()).isEqualTo("{\"name\":\"Rex\",\"photoUrls\":[\"u\"],\"status\":\"pending\"}");
    assertThat(sent.headers().get("Content-type")).containsExactly("application/json");
  }

  @Test
  void theSchemasRequiredPropertiesAndEnumsAreCheckedBeforeTheUpstreamIsCalled() {
    ToolResult missing = tester.call("petstore", "add_pet", Map.of("body", Map.of("photoUrls", List.of())));
    ToolResult badEnum = tester.call("petstore", "add_pet",
        Map.of("body", Map.of("name", "Rex", "photoUrls", List.of(), "status", "lost")));

    assertThat(missing.errorCode()).isEqualTo("VALIDATION_ERROR");
    assertThat(missing.fieldErrors()).extracting(ToolResult.FieldError::path).contains("body.name");
    assertThat(badEnum.errorCode()).isEqualTo("VALIDATION_ERROR");
    assertThat(api.received()).isEmpty();
  }

  @Test
  void anUpstreamErrorIsAnEnvelopeWithTheDocumentsWordsAndNotTheUpstreamsBody() {
    api.answer("GET /v3/pet/404", 404, "{\"message\":\"" + UPSTREAM_DETAIL + "\"}");
    api.answer("DELETE /v3/store/order/5", 400, "{\"message\":\"" + UPSTREAM_DETAIL + "\"}");

    ToolResult notFound = tester.call("petstore", "get_pet_by_id", Map.of("petId", 404));
    ToolResult invalid = tester.call("petstore", "delete_order", Map.of("orderId", 5));

    assertThat(notFound.errorCode()).isEqualTo("NOT_FOUND");
    assertThat(notFound.errorText()).contains("HTTP 404").contains("Pet not found");
    assertThat(invalid.errorCode()).isEqualTo("UPSTREAM_ERROR");
    assertThat(invalid.errorText()).contains("Invalid ID supplied");
    assertThat(String.join("\n", tester.rawMessages())).doesNotContain(UPSTREAM_DETAIL);
  }

  @Test
  void eachUpstreamStatusClassBecomesItsEnvelopeCode() {
    api.answer("GET /v3/pet/409", 409, "{}");
    api.answer("GET /v3/pet/429", 429, "{}");
    api.answer("GET /v3/pet/503", 503, "{}");
    api.answer("GET /v3/pet/401", 401, "{}");

    assertThat(tester.call("petstore", "get_pet_by_id", Map.of("petId", 409)).errorCode()).isEqualTo("CONFLICT");
    assertThat(tester.call("petstore", "get_pet_by_id", Map.of("petId", 429)).errorCode()).isEqualTo("UPSTREAM_UNAVAILABLE");
    assertThat(tester.call("petstore", "get_pet_by_id", Map.of("petId", 503)).errorCode()).isEqualTo("UPSTREAM_UNAVAILABLE");
    ToolResult refused = tester.call("petstore", "get_pet_by_id", Map.of("petId", 401));
    assertThat(refused.errorCode()).isEqualTo("UPSTREAM_ERROR");
    assertThat(refused.recovery()).contains("credentials were refused");
  }

  @Test
  void theUrlPolicyOfTheGuardedClientApplies() {
    api.answer("GET /v3/pet/7", 200, "{\"id\":7,\"name\":\"Rex\",\"photoUrls\":[]}");
    try (OutboundHttp defaults = OutboundHttp.create();
        FusionTester guarded = FusionTester.of(connector.router("PetstoreTools",
            connector.upstreams("PetstoreTools", defaults, "http://" + api.host() + ":" + api.port() + "/v3")))) {
      ToolResult r = guarded.call("petstore", "get_pet_by_id", Map.of("petId", 7));

      assertThat(r.errorCode()).isEqualTo("OUTBOUND_BLOCKED");
      assertThat(api.received()).isEmpty();
    }
  }

  @Test
  void aPlainValueAnswerIsReturnedAsIs() {
    api.answer("GET /v3/user/login?password=pw&username=alice", 200, "\"logged in user session: 1234\"");

    ToolResult r = tester.call("petstore", "login_user", Map.of("username", "alice", "password", "pw"));

    assertThat(r.isSuccess()).as(r.toString()).isTrue();
    assertThat(r.dataText()).contains("logged in user session: 1234");
  }

  @Test
  void theRouterRefusesUpstreamsThatDoNotConfigureItsUpstream() {
    ProxyUpstreams other = ProxyUpstreams.builder().upstream("billing", "http://" + api.host() + ":" + api.port(), http)
        .build();

    assertThatThrownBy(() -> connector.router("PetstoreTools", other))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("\"petstore\"")
        .hasMessageContaining("upstream(\"petstore\", baseUrl, http)");
  }
}
