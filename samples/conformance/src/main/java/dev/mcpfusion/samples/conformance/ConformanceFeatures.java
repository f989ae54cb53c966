package dev.mcpfusion.samples.conformance;

import dev.mcpfusion.annotation.Complete;
import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Prompt;
import dev.mcpfusion.annotation.Resource;
import dev.mcpfusion.core.Elicitation;
import dev.mcpfusion.core.PromptResult;
import dev.mcpfusion.core.Question;
import dev.mcpfusion.core.RequestContext;
import jakarta.validation.constraints.NotBlank;
import java.util.Base64;
import java.util.List;

/**
 * The prompts, resources and completion of the conformance suite, with the names, URIs and texts
 * its scenarios expect.
 */

public final class ConformanceFeatures {
  private static final byte[] PNG = Base64.getDecoder().decode(ConformanceTools.PNG);

  @Resource(uri = "test://static-text", name = "static-text", title = "Static Text Resource",
      mimeType = "text/plain", description = "A static text resource for testing")
  public String staticText() {
    return "This is the content of the static text resource.";
  }

  @Resource(uri = "test://static-binary", name = "static-binary", title = "Static Binary Resource",
      mimeType = "image/png", description = "A static binary resource (image) for testing")
  public byte[] staticBinary() {
    return PNG.clone();
  }

  @Resource(uri = "test://template/{id}/data", name = "template", title = "Resource Template",
      mimeType = "application/json", description = "A resource template with parameter substitution")
  public String template(String id) {
    String quoted = "\"" + id.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    return "{\"id\":" + quoted + ",\"templateTest\":true,\"data\":\"Data for ID: "
        + quoted.substring(1, quoted.length() - 1) + "\"}";
  }

  @Resource(uri = "test://watched-resource", name = "watched-resource", title = "Watched Resource",
      mimeType = "text/plain", description = "A resource clients may subscribe to")
  public String watched() {
    return "Watched resource content";
  }

  @Prompt(name = "test_simple_prompt", title = "Simple Test Prompt",
      description = "A simple prompt without arguments")
  public String simplePrompt() {
    return "This is a simple prompt for testing.";
  }

  @Prompt(name = "test_prompt_with_arguments", title = "Prompt With Arguments",
      description = "A prompt with required arguments")
  public String promptWithArguments(@NotBlank @Describe("First test argument") String arg1,
      @NotBlank @Describe("Second test argument") String arg2) {
    return "Prompt with arguments: arg1='" + arg1 + "', arg2='" + arg2 + "'";
  }

  @Prompt(name = "test_prompt_with_embedded_resource", title = "Prompt With Embedded Resource",
      description = "A prompt that includes an embedded resource")
  public PromptResult promptWithEmbeddedResource(
      @NotBlank @Describe("URI of the resource to embed") String resourceUri) {
    return PromptResult.empty()
        .resource(PromptResult.Role.USER, resourceUri, "text/plain", "Embedded resource content for testing.")
        .text(PromptResult.Role.USER, "Please process the embedded resource above.");
  }

  @Prompt(name = "test_prompt_with_image", title = "Prompt With Image",
      description = "A prompt that includes image content")
  public PromptResult promptWithImage() {
    return PromptResult.empty()
        .image(PromptResult.Role.USER, PNG, "image/png")
        .text(PromptResult.Role.USER, "Please analyze the image above.");
  }

  /** What {@code test_input_required_result_prompt} asks the user for. */
  public record PromptContext(@NotBlank String context) {}

  @Prompt(name = "test_input_required_result_prompt", title = "Prompt That Asks",
      description = "A prompt that asks the user for its context first (SEP-2322 on prompts/get)")
  public String inputRequiredResultPrompt(RequestContext request) {
    Elicitation<PromptContext> answer = request.ask(Question.form(PromptContext.class,
        "What context should the prompt use?").key("user_context"));
    return "Use this context: " + answer.value().map(PromptContext::context).orElse("(none given)");
  }

  @Complete(prompt = "test_prompt_with_arguments", argument = "arg1")
  public List<String> arg1(String prefix) {
    return List.of("paris", "park", "party").stream().filter(v -> v.startsWith(prefix)).toList();
  }
}
