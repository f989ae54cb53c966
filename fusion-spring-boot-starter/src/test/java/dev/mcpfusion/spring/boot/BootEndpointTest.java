package dev.mcpfusion.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.mcpfusion.spring.boot.fixtures.AuditTrail;
import dev.mcpfusion.spring.boot.fixtures.GreeterTools;
import dev.mcpfusion.spring.boot.fixtures.Member;
import dev.mcpfusion.spring.boot.fixtures.Salutations;
import dev.mcpfusion.spring.boot.unprocessed.UnprocessedTools;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/** A real Boot application on Tomcat, a real MCP client, beans all the way to the handler. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@ExtendWith(OutputCaptureExtension.class)
class BootEndpointTest {

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class GreeterApp {
    @Bean
    Salutations salutations() {
      return new Salutations("Hello");
    }

    @Bean
    GreeterTools greeterTools(Salutations salutations) {
      return new GreeterTools(salutations);
    }

    @Bean
    AuditTrail auditTrail() {
      return new AuditTrail("audit");
    }

    @Bean
    ContextProvider<Member> member() {
      return ContextProvider.of(Member.class, request -> new Member(request.header("x-member").orElse("anonymous")));
    }
  }

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class UnprocessedApp {
    @Bean
    UnprocessedTools legacyTools() {
      return new UnprocessedTools();
    }
  }

  @Test
  void contextProviderAndMiddlewareBeansReachTheHandlerOverStreamableHttp() {
    try (ConfigurableApplicationContext app = new SpringApplicationBuilder(GreeterApp.class)
        .properties("server.port=0", "server.address=127.0.0.1").run()) {
      String base = "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port");
      try (McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(base)
              .endpoint("/mcp")
              .requestBuilder(HttpRequest.newBuilder().header("x-member", "m-42"))
              .build())
          .requestTimeout(Duration.ofSeconds(20)).build()) {
        client.initialize();
        assertThat(client.listTools().tools()).extracting(McpSchema.Tool::name).containsExactly("greeter_greet");
        McpSchema.CallToolResult result =
            client.callTool(new McpSchema.CallToolRequest("greeter_greet", Map.of("name", "Ada")));
        assertThat(result.isError()).isNotEqualTo(Boolean.TRUE);
        assertThat(((McpSchema.TextContent) result.content().get(0)).text()).contains("Hello, Ada (from m-42)");
      }
      assertThat(app.getBean(AuditTrail.class).seen()).containsExactly("audit:m-42");
    }
  }

  @Test
  void aRouterWithoutGeneratedClassStopsStartupWithBootsReport(CapturedOutput output) {
    Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(UnprocessedApp.class)
        .web(WebApplicationType.NONE).run().close());
    assertThat(failure).isNotNull();
    assertThat(output.getOut() + output.getErr())
        .contains("APPLICATION FAILED TO START")
        .contains("The @Router bean 'legacyTools' (" + UnprocessedTools.class.getName()
            + ") has no generated class " + UnprocessedTools.class.getName() + "_Fusion")
        .contains("Action:")
        .contains("Add fusion-processor to the maven-compiler-plugin annotationProcessorPaths");
  }
}
