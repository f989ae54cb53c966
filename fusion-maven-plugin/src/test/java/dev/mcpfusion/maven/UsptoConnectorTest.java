package dev.mcpfusion.maven;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.outbound.OutboundHttp;
import dev.mcpfusion.outbound.ProxyUpstreams;
import dev.mcpfusion.outbound.UrlPolicy;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The connector generated from the USPTO Data Set API document, against a loopback stub. */
class UsptoConnectorTest {
  private static final String KEY = "oa_citations_" + "k3y";

  @Test
  void anInlineObjectListIsPresentedAndItsSecretLikePropertyNeverReachesTheReply(@TempDir Path dir) {
    GeneratedConnector connector = GeneratedConnector.build(OpenApiDocuments.USPTO,
        OpenApiDocuments.config(OpenApiDocuments.USPTO), dir);
    try (StubApi api = new StubApi();
        OutboundHttp http = OutboundHttp.builder()
            .policy(UrlPolicy.defaults().allowAddresses(api.host()).allowPorts(api.port())).build()) {
      api.answer("GET /ds-api/", 200, "{\"total\":1,\"apis\":[{\"apiKey\":\"" + KEY + "\",\"apiVersionNumber\":\"v1\","
          + "\"apiUrl\":\"https://developer.uspto.gov/ds-api/oa_citations/v1/fields\","
          + "\"apiDocumentationUrl\":\"https://developer.uspto.gov/ds-api-docs/index.html\"}]}");
      api.answer("GET /ds-api/oa_citations/v1/fields", 200, "\"{\\\"fields\\\":[\\\"patent_number\\\"]}\"");
      ProxyUpstreams upstreams = connector.upstreams("UsptoTools", http, "http://" + api.host() + ":" + api.port() + "/ds-api");
      try (FusionTester tester = FusionTester.of(connector.router("UsptoTools", upstreams))) {
        ToolResult sets = tester.call("uspto", "list_data_sets", Map.of());
        ToolResult fields = tester.call("uspto", "list_searchable_fields",
            Map.of("dataset", "oa_citations", "version", "v1"));

        assertThat(sets.isSuccess()).as(sets.toString()).isTrue();
        assertThat(sets.structuredContent()).containsEntry("total", 1);
        assertThat(sets.dataText()).contains("apiVersionNumber");
        assertThat(String.join("\n", tester.rawMessages())).doesNotContain(KEY).doesNotContain("\"apiKey\"");
        assertThat(fields.isSuccess()).as(fields.toString()).isTrue();
        assertThat(fields.dataText()).contains("patent_number");
        assertThat(api.received()).extracting(StubApi.Received::line)
            .containsExactly("GET /ds-api/", "GET /ds-api/oa_citations/v1/fields");
        assertThat(tester.listTools()).extracting(t -> t.name())
            .containsExactlyInAnyOrder("uspto_list_data_sets", "uspto_list_searchable_fields");
      }
    }
  }

  @Test
  void whatTheGeneratorLeavesOutIsNamedByItsPointer() {
    OpenApiGenerator.Output output = GeneratedConnector.generate(OpenApiDocuments.USPTO,
        OpenApiDocuments.config(OpenApiDocuments.USPTO));
    assertThat(output.unsupported()).extracting(ApiModel.Unsupported::pointer)
        .containsExactly("#/paths/~1{dataset}~1{version}~1records/post/requestBody");
    assertThat(List.copyOf(output.sources().keySet())).contains("gov/uspto/dsapi/UsptoTools.java");
  }
}
