package dev.mcpfusion.maven;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.outbound.OutboundHttp;
import dev.mcpfusion.outbound.UrlPolicy;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolInfo;
import dev.mcpfusion.testing.ToolResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A schema's validation keywords become jakarta constraints, which the processor turns into the
 * tool's input schema and checks that run before the upstream is called; an OpenAPI 3.1 document
 * (type arrays with {@code "null"}, numeric {@code exclusiveMinimum}) reads the same way.
 */
class OpenApiConstraintsTest {
  private static final String DOCUMENT = """
      openapi: 3.1.0
      info: {title: Members, version: '1'}
      paths:
        /members:
          get:
            operationId: listMembers
            parameters:
              - {name: limit, in: query, schema: {type: integer, format: int32, minimum: 1, maximum: 100}}
              - {name: prefix, in: query, schema: {type: [string, 'null'], pattern: '^[a-z]+$', maxLength: 8}}
            responses:
              '200':
                description: the members
                content:
                  application/json:
                    schema: {type: array, items: {$ref: '#/components/schemas/Member'}}
          post:
            operationId: addMember
            requestBody:
              content:
                application/json:
                  schema: {$ref: '#/components/schemas/Member'}
            responses:
              '201':
                description: added
                content:
                  application/json:
                    schema: {$ref: '#/components/schemas/Member'}
      components:
        schemas:
          Member:
            type: object
            required: [name, email]
            properties:
              id: {type: integer, readOnly: true}
              name: {type: string, minLength: 1, maxLength: 50, description: Full name}
              email: {type: string, format: email}
              score: {type: number, exclusiveMinimum: 0}
              nicknames: {type: array, maxItems: 3, items: {type: string}}
              pin: {type: string, writeOnly: true}
              kind: {type: string, enum: [full-time, part-time]}
      """;

  @Test
  void schemaKeywordsBecomeInputSchemaKeywordsAndChecksBeforeTheCall(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("members.yaml"), DOCUMENT);
    OpenApiConfig config = new OpenApiConfig("acme.members", "members", List.of(), List.of());
    OpenApiGenerator.Output output;
    try {
      output = OpenApiGenerator.generate(dir.resolve("members.yaml"), config);
    } catch (OpenApiGenerator.Refusal r) {
      throw new AssertionError(r.getMessage());
    }
    String member = output.sources().get("acme/members/Member.java");
    assertThat(member).contains("@NotNull @Size(min = 1, max = 50) String name")
        .contains("@NotNull @Email String email")
        .contains("@DecimalMin(value = \"0\", inclusive = false) @Nullable Double score")
        .contains("@Size(max = 3) @Nullable List<String> nicknames")
        .contains("@Hidden @Nullable String pin")
        .contains("@Pattern(regexp = \"full-time|part-time\") @Nullable String kind");
    assertThat(output.unsupported()).isEmpty();

    Path build = Files.createDirectories(dir.resolve("build"));
    assertThat(GeneratedConnector.compile(output.sources(), build)).isEmpty();
    GeneratedConnector connector = GeneratedConnector.loaded(build, "acme.members");
    try (StubApi api = new StubApi();
        OutboundHttp http = OutboundHttp.builder()
            .policy(UrlPolicy.defaults().allowAddresses(api.host()).allowPorts(api.port())).build();
        FusionTester tester = FusionTester.of(connector.router("MembersTools",
            connector.upstreams("MembersTools", http, "http://" + api.host() + ":" + api.port())))) {
      ToolInfo list = tester.listTools().stream().filter(t -> t.name().equals("members_list_members")).findFirst().orElseThrow();
      assertThat(list.inputSchema().toString()).contains("minimum=1").contains("maximum=100").contains("maxLength=8");
      ToolInfo add = tester.listTools().stream().filter(t -> t.name().equals("members_add_member")).findFirst().orElseThrow();
      assertThat(add.inputSchema().toString()).contains("format=email").contains("minLength=1").doesNotContain("pin")
          .doesNotContain("id=");

      ToolResult tooMany = tester.call("members", "list_members", Map.of("limit", 0));
      ToolResult badEmail = tester.call("members", "add_member", Map.of("body", Map.of("name", "Ann", "email", "not-an-email")));
      ToolResult badKind = tester.call("members", "add_member",
          Map.of("body", Map.of("name", "Ann", "email", "ann@example.com", "kind", "contractor")));

      assertThat(tooMany.errorCode()).isEqualTo("VALIDATION_ERROR");
      assertThat(badEmail.errorCode()).isEqualTo("VALIDATION_ERROR");
      assertThat(badKind.errorCode()).isEqualTo("VALIDATION_ERROR");
      assertThat(api.received()).isEmpty();
    }
  }
}
