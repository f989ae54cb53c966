package dev.mcpfusion.core.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.annotation.Complete;
import dev.mcpfusion.annotation.Limits;
import dev.mcpfusion.annotation.Prompt;
import dev.mcpfusion.annotation.Resource;
import dev.mcpfusion.core.CallLimits;
import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.Redaction;
import dev.mcpfusion.core.guard.ActionLimits;
import dev.mcpfusion.core.spi.CompletionDescriptor;
import dev.mcpfusion.core.spi.ContextLookup;
import dev.mcpfusion.core.spi.FeaturesDescriptor;
import dev.mcpfusion.core.spi.GeneratedFeatures;
import dev.mcpfusion.core.spi.Problems;
import dev.mcpfusion.core.spi.PromptArgument;
import dev.mcpfusion.core.spi.PromptDescriptor;
import dev.mcpfusion.core.spi.ResourceDescriptor;
import dev.mcpfusion.wire.UriTemplate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What build() checks of prompts and resources, URI templates, and invalidation patterns. */
class FeatureRegistryTest {

  /** A hand-written X_Features: one prompt "greet", one resource "docs://readme". */
  private static GeneratedFeatures docs(Class<?> type) {
    return docs(type, "docs", List.of());
  }

  /**
   * As {@link #docs(Class)}, with a router name, a template "docs://pages/{page}" and
   * {@code completions}.
   */
  private static GeneratedFeatures docs(Class<?> type, String router,
      List<CompletionDescriptor> completions) {
    FeaturesDescriptor d = new FeaturesDescriptor(router, type,
        List.of(new PromptDescriptor("greet", "greet", "", "Greets",
            List.of(new PromptArgument("name", "", false, List.of())), List.of(), null, List.of())),
        completions.isEmpty()
            ? List.of(new ResourceDescriptor("docs://readme", "readme", "readme", "", "The read-me",
                "text/plain", List.of(), List.of(), null, false, List.of()))
            : List.of(new ResourceDescriptor("docs://readme", "readme", "readme", "", "The read-me",
                "text/plain", List.of(), List.of(), null, false, List.of()),
                new ResourceDescriptor("docs://pages/{page}", "page", "page", "", "A page",
                    "text/plain", List.of("page"), List.of(), null, false, List.of())),
        completions, List.of());
    return new GeneratedFeatures() {
      @Override
      public int spiVersion() {
        return dev.mcpfusion.core.spi.FusionSpi.VERSION;
      }

      @Override
      public FeaturesDescriptor descriptor() {
        return d;
      }

      @Override
      public Object[] decodePrompt(int prompt, Map<String, ?> arguments, Problems problems) {
        return new Object[1];
      }

      @Override
      public Object prompt(int prompt, Object[] arguments, ContextLookup context) {
        return "hi";
      }

      @Override
      public Object resource(int resource, Map<String, String> variables, ContextLookup context) {
        return "read me";
      }

      @Override
      public List<String> complete(int completion, String value, ContextLookup context) {
        return List.of();
      }
    };
  }

  static final class DocsA {}

  static final class DocsB {}

  @Test
  void aPromptNameOrResourceUriUsedTwiceFailsTheBuild() {
    assertThatThrownBy(() -> FusionServer.builder("x", "1").register(docs(DocsA.class))
        .register(docs(DocsB.class)).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("[fusion/DuplicatePrompt] The prompt name 'greet' is used by"
            + " DocsA.greet and by DocsB.greet. Rename one with @Prompt(name = \"...\").")
        .hasMessageContaining("[fusion/DuplicateResource] The resource URI 'docs://readme' is"
            + " served by DocsA.readme and by DocsB.readme. Give each resource its own URI.");
  }

  /** Limits on the class, overridden per method; the completions are the class's too. */
  @Limits(maxConcurrent = 2, queue = 1, timeoutMs = 5_000, maxEgressBytes = 65_536)
  static final class LimitedDocs {
    @Prompt(description = "Greets")
    @Limits(timeoutMs = 100)
    public String greet(String name) {
      return "hi " + name;
    }

    @Resource(uri = "docs://readme", description = "The read-me")
    @Limits(maxConcurrent = 1, maxEgressBytes = 2048)
    public String readme() {
      return "read me";
    }

    @Resource(uri = "docs://pages/{page}", description = "A page")
    public String page(String page) {
      return page;
    }

    @Complete(prompt = "greet", argument = "name")
    @Limits(timeoutMs = 50, maxEgressBytes = 1024)
    public List<String> names(String prefix) {
      return List.of();
    }

    @Complete(resource = "docs://pages/{page}", argument = "page")
    public List<String> pages(String prefix) {
      return List.of();
    }
  }

  /** No limits of its own: only the server's apply. */
  static final class PlainDocs {
    @Prompt(description = "Greets")
    public String greet(String name) {
      return "hi";
    }
  }

  private static ServerConfig config(CallLimits limits, Object... registrations) {
    return new ServerConfig("x", "1", List.of(registrations), Exposition.FLAT, "_", Map.of(),
        List.of(), List.of(), Redaction.none(), limits, false);
  }

  private static List<CompletionDescriptor> limitedCompletions() {
    return List.of(CompletionDescriptor.forPrompt("greet", "name", "names"),
        CompletionDescriptor.forResource("docs://pages/{page}", "page", "pages"));
  }

  @Test
  void limitsResolveAsForToolsMethodThenClassThenServer() {
    FeatureRegistry registry = FeatureRegistry.build(config(
        CallLimits.none().maxConcurrent(50).timeout(java.time.Duration.ofSeconds(30)),
        docs(LimitedDocs.class, "docs", limitedCompletions())));

    FeatureRegistry.BoundPrompt greet = registry.prompt("greet");
    // timeoutMs from the method, the rest from the class
    assertThat(greet.limits()).isEqualTo(new ActionLimits(2, 1, 100, 65_536, "router"));
    FeatureRegistry.BoundResource readme = registry.resolve("docs://readme").resource();
    assertThat(readme.limits()).isEqualTo(new ActionLimits(1, 1, 5_000, 2048, "method"));
    FeatureRegistry.BoundResource page = registry.template("docs://pages/{page}");
    assertThat(page.limits()).isEqualTo(new ActionLimits(2, 1, 5_000, 65_536, "router"));
    // a completion resolves its own method's @Limits, else its class's
    assertThat(greet.completionLimits("name")).isEqualTo(new ActionLimits(2, 1, 50, 1024, "router"));
    assertThat(page.completionLimits("page")).isEqualTo(page.limits());
    // an argument without a @Complete method answers from its enum: under its owner's limits
    assertThat(readme.completionLimits("none")).isEqualTo(readme.limits());
    assertThat(greet.completions().get("name").limits()).isEqualTo(greet.completionLimits("name"));

    // the class's maxConcurrent is one gate for all its members; a method's is its own
    assertThat(greet.gate()).isSameAs(page.gate()).isSameAs(greet.completions().get("name").gate());
    assertThat(readme.gate()).isNotSameAs(greet.gate());
    assertThat(readme.gate().maxConcurrent()).isEqualTo(1);
    assertThat(registry.hasDeadlines()).isTrue();
    assertThat(registry.anyUngated()).isFalse();
    assertThat(registry.gates()).hasSize(2);

    // without annotations only the server's limits apply, and its gate is shared
    FeatureRegistry plain = FeatureRegistry.build(config(CallLimits.none().maxConcurrent(3),
        docs(PlainDocs.class)));
    assertThat(plain.prompt("greet").limits()).isEqualTo(new ActionLimits(3, 0, -1, -1, "server"));
    assertThat(plain.resolve("docs://readme").resource().gate())
        .isSameAs(plain.prompt("greet").gate());
    assertThat(plain.hasDeadlines()).isFalse();
    FeatureRegistry none = FeatureRegistry.build(config(CallLimits.none(), docs(PlainDocs.class)));
    assertThat(none.prompt("greet").limits().any()).isFalse();
    assertThat(none.prompt("greet").gate()).isNull();
    assertThat(none.anyUngated()).isTrue();
  }

  @Test
  void theTransportsSizeTheirThreadsAndEarlyRepliesByFeaturesToo() {
    // The class's gate (2 running + 1 waiting) and readme's own (1 + 1): 5 requests at once.
    FusionServer limited = FusionServer.builder("x", "1")
        .register(docs(LimitedDocs.class, "docs", limitedCompletions())).build();
    assertThat(limited.edge().callCapacity()).isEqualTo(5);
    assertThat(limited.edge().repliesEarly()).as("a prompt has a deadline").isTrue();
    // An ungated prompt may run as often as requests come: no bound from the gates.
    FusionServer plain = FusionServer.builder("x", "1").register(docs(PlainDocs.class)).build();
    assertThat(plain.edge().callCapacity()).isEqualTo(Integer.MAX_VALUE);
    assertThat(plain.edge().repliesEarly()).isFalse();
  }

  @Test
  void onlyWhatNeverWaitsMayRunOnTheThreadThatReadIt() {
    FusionServer server = FusionServer.builder("x", "1")
        .register(docs(LimitedDocs.class, "docs", limitedCompletions())).build();
    dev.mcpfusion.core.edge.Edge edge = server.edge();
    java.util.function.Predicate<String> neverWaits = json -> edge.neverWaits(edge.read(json),
        dev.mcpfusion.core.edge.Inbound.stdio());
    String request = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"%s\",\"params\":%s}";
    assertThat(neverWaits.test("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"))
        .isTrue();
    assertThat(neverWaits.test("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}")).isTrue();
    for (String quick : List.of("ping", "prompts/list", "resources/list", "tools/list")) {
      assertThat(neverWaits.test(request.formatted(quick, "{}"))).as(quick).isTrue();
    }
    assertThat(neverWaits.test(request.formatted("prompts/get",
        "{\"name\":\"greet\",\"arguments\":{\"name\":\"a\"}}"))).as("a prompt").isFalse();
    assertThat(neverWaits.test(request.formatted("resources/read", "{\"uri\":\"docs://readme\"}")))
        .as("a resource").isFalse();
    assertThat(neverWaits.test(request.formatted("completion/complete", "{\"ref\":{\"type\":"
        + "\"ref/prompt\",\"name\":\"greet\"},\"argument\":{\"name\":\"name\",\"value\":\"a\"}}")))
        .as("a completion").isFalse();
    assertThat(neverWaits.test(request.formatted("tools/call", "{\"name\":\"nope\"}")))
        .as("a call of no tool").isFalse();
    assertThat(neverWaits.test(request.formatted("tools/list",
        "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}")))
        .as("a 2026-07-28 request runs a call").isFalse();
    edge.close();
  }

  /** A class with tools and prompts: its one @Limits(maxConcurrent) counts both. */
  @Limits(maxConcurrent = 1)
  static final class MixedTools {}

  @Test
  void aClassLimitCountsItsToolsAndItsPromptsInOneGate() {
    dev.mcpfusion.core.guard.Gates gates = new dev.mcpfusion.core.guard.Gates();
    ServerConfig config = config(CallLimits.none(), docs(MixedTools.class, "mixed", List.of()));
    FeatureRegistry features = FeatureRegistry.build(config, gates);
    ActionLimits toolLimits = ActionLimits.resolve(CallLimits.none(), MixedTools.class, null,
        "MixedTools.tool", new java.util.ArrayList<>());
    // The router's gate as ToolRegistry asks for it: owner = the router name.
    assertThat(gates.gate(toolLimits, "mixed", "tool")).isSameAs(features.prompt("greet").gate());
  }

  /** Invalid values on a prompt, a resource and a completion method, and on the class. */
  @Limits(queue = -5)
  static final class BadLimits {
    @Prompt(description = "Greets")
    @Limits(maxConcurrent = 0)
    public String greet(String name) {
      return "hi";
    }

    @Resource(uri = "docs://readme", description = "The read-me")
    @Limits(maxEgressBytes = 100)
    public String readme() {
      return "read me";
    }

    @Resource(uri = "docs://pages/{page}", description = "A page")
    public String page(String page) {
      return page;
    }

    @Complete(prompt = "greet", argument = "name")
    @Limits(timeoutMs = 0)
    public List<String> names(String prefix) {
      return List.of();
    }
  }

  @Test
  void anInvalidLimitsValueOnAFeatureMethodFailsTheBuildAsForATool() {
    assertThatThrownBy(() -> FusionServer.builder("x", "1")
            .register(docs(BadLimits.class, "docs",
                List.of(CompletionDescriptor.forPrompt("greet", "name", "names")))).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("[fusion/InvalidLimits] BadLimits.greet: @Limits(maxConcurrent = 0)"
            + " must be at least 1. Set a value of 1 or more, or -1 to inherit.")
        .hasMessageContaining("[fusion/InvalidLimits] BadLimits.readme: @Limits(maxEgressBytes ="
            + " 100) must be at least 1024.")
        .hasMessageContaining("[fusion/InvalidLimits] BadLimits.names: @Limits(timeoutMs = 0) must"
            + " be at least 1.")
        // The class's own problem once, although every member inherits it.
        .satisfies(e -> assertThat(e.getMessage().split("BadLimits: @Limits\\(queue = -5\\)", -1))
            .hasSize(2));
  }

  @Test
  void aServerOfPromptsAndResourcesOnlyBuilds() {
    FusionServer server = FusionServer.builder("x", "1").register(docs(DocsA.class)).build();
    assertThat(server.promptNames()).containsExactly("greet");
    assertThat(server.toolNames()).isEmpty();
  }

  @Test
  void uriTemplatesMatchOneSegmentPerVariableAndDecodeIt() {
    UriTemplate t = UriTemplate.parse("test://template/{id}/data");
    assertThat(t.variables()).containsExactly("id");
    assertThat(t.match("test://template/123/data")).containsExactly(Map.entry("id", "123"));
    assertThat(t.match("test://template/a%20b/data")).containsExactly(Map.entry("id", "a b"));
    assertThat(t.match("test://template/1/2/data")).isNull();
    assertThat(t.match("test://template//data")).isNull();
    assertThat(t.match("test://template/%zz/data")).isNull();
    assertThat(UriTemplate.parse("a.b://{x}").match("aXb://1")).isNull();
  }

  @Test
  void anInvalidationPatternMatchesTheRouterPartOnly() {
    assertThat(FeatureRegistry.invalidates("billing.*", "billing")).isTrue();
    assertThat(FeatureRegistry.invalidates("billing.invoices", "billing")).isTrue();
    assertThat(FeatureRegistry.invalidates("*", "billing")).isTrue();
    assertThat(FeatureRegistry.invalidates("bill*.x", "billing")).isTrue();
    assertThat(FeatureRegistry.invalidates("ledger.*", "billing")).isFalse();
    assertThat(FeatureRegistry.invalidates("billing2.*", "billing")).isFalse();
    assertThat(FeatureRegistry.invalidates("billing.*", "")).isFalse();
  }
}
