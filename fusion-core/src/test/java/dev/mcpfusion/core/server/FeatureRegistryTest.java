package dev.mcpfusion.core.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.spi.ContextLookup;
import dev.mcpfusion.core.spi.FeaturesDescriptor;
import dev.mcpfusion.core.spi.GeneratedFeatures;
import dev.mcpfusion.core.spi.Problems;
import dev.mcpfusion.core.spi.PromptArgument;
import dev.mcpfusion.core.spi.PromptDescriptor;
import dev.mcpfusion.core.spi.ResourceDescriptor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What build() checks of prompts and resources, URI templates, and invalidation patterns. */
class FeatureRegistryTest {

  /** A hand-written X_Features: one prompt "greet", one resource "docs://readme". */
  private static GeneratedFeatures docs(Class<?> type) {
    FeaturesDescriptor d = new FeaturesDescriptor("docs", type,
        List.of(new PromptDescriptor("greet", "greet", "", "Greets",
            List.of(new PromptArgument("name", "", false, List.of())), List.of(), null, List.of())),
        List.of(new ResourceDescriptor("docs://readme", "readme", "readme", "", "The read-me",
            "text/plain", List.of(), List.of(), null, false, List.of())),
        List.of(), List.of());
    return new GeneratedFeatures() {
      @Override
      public int spiVersion() {
        return 1;
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
