package dev.mcpfusion.core.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.annotation.CachePolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The named-call builders generated code uses: defaults, every setting, and what is required. */
class DescriptorBuildersTest {

  @Test
  void anActionLeftAtItsDefaultsIsAVoidActionWithNothingElse() {
    ActionDescriptor a = ActionDescriptor.query("ping").method("ping").description("Ping").build();
    assertThat(a).isEqualTo(new ActionDescriptor("ping", "ping", "Ping", Verb.QUERY, false, false,
        false, false, List.of(), List.of(), null, ResultShape.VOID, ElementKind.NONE, null,
        CachePolicy.DEFAULT, List.of(), List.of(), List.of(), false));
  }

  @Test
  void everyNamedCallLandsInItsComponent() {
    ActionDescriptor a = ActionDescriptor.mutation("pay").method("payIt").description("Pay")
        .readOnly(false).destructive(true).idempotent(true).openWorld(true)
        .fields(List.of(FieldDescriptor.required("id", "{}"),
            FieldDescriptor.optional("note", "{}").describedAs("A note").asCommon()))
        .context("clock", java.time.Clock.class)
        .result(ResultShape.VALUE, ElementKind.NONE).resultSchema("{\"type\":\"string\"}")
        .cache(CachePolicy.NO_STORE).invalidates("billing.*").middleware(String.class)
        .parameterTypes(String.class, java.time.Clock.class).beanValidation(true).build();
    assertThat(a).isEqualTo(new ActionDescriptor("pay", "payIt", "Pay", Verb.MUTATION, false, true,
        true, true, List.of(new FieldDescriptor("id", "{}", true, "", false),
            new FieldDescriptor("note", "{}", false, "A note", true)),
        List.of(new ContextParameter("clock", java.time.Clock.class)), null, ResultShape.VALUE,
        ElementKind.NONE, "{\"type\":\"string\"}", CachePolicy.NO_STORE, List.of("billing.*"),
        List.of(String.class), List.of(String.class, java.time.Clock.class), true));
    assertThat(a.toBuilder().build()).isEqualTo(a);
    assertThat(a.toBuilder().verb(Verb.QUERY).destructive(false).build().verb())
        .isEqualTo(Verb.QUERY);
  }

  @Test
  void aMissingMethodOrDescriptionFailsNamingTheDescriptor() {
    assertThatThrownBy(() -> ActionDescriptor.action("x").description("X").build())
        .hasMessage("ActionDescriptor 'x' needs method(...) before build()");
    assertThatThrownBy(() -> PromptDescriptor.builder("p").method("p").build())
        .hasMessage("PromptDescriptor 'p' needs description(...) before build()");
    assertThatThrownBy(() -> ResourceDescriptor.builder("a://b", "b").method("b").description("B")
        .build()).hasMessage("ResourceDescriptor 'a://b' needs mimeType(...) before build()");
  }

  @Test
  void routerPromptResourceAndCompletionBuildersMatchTheirComponents() {
    assertThat(RouterDescriptor.builder("r", String.class).build())
        .isEqualTo(new RouterDescriptor("r", "", String.class, List.of(), List.of(), List.of()));
    assertThat(PromptDescriptor.builder("p").method("m").title("T").description("D")
        .arguments(PromptArgument.required("a", ""), PromptArgument.optional("t", "Tone")
            .oneOf("FORMAL", "CASUAL"))
        .context("clock", java.time.Clock.class).build())
        .isEqualTo(new PromptDescriptor("p", "m", "T", "D", List.of(
            new PromptArgument("a", "", true, List.of()),
            new PromptArgument("t", "Tone", false, List.of("FORMAL", "CASUAL"))),
            List.of(new ContextParameter("clock", java.time.Clock.class)), null, List.of()));
    assertThat(ResourceDescriptor.builder("a://{id}", "a").method("m").description("D")
        .mimeType("application/octet-stream").variables("id").binary(true).build())
        .isEqualTo(new ResourceDescriptor("a://{id}", "a", "m", "", "D", "application/octet-stream",
            List.of("id"), List.of(), null, true, List.of()));
    assertThat(CompletionDescriptor.forResource("a://{id}", "id", "ids"))
        .isEqualTo(new CompletionDescriptor("", "a://{id}", "id", "ids", List.of()));
    assertThat(CompletionDescriptor.forPrompt("p", "t", "tones"))
        .isEqualTo(new CompletionDescriptor("p", "", "t", "tones", List.of()));
  }
}
