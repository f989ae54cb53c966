package dev.mcpfusion.core.server;

import dev.mcpfusion.core.Caller;
import dev.mcpfusion.core.PromptResult;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.egress.Egress;
import dev.mcpfusion.redact.Redactor;
import dev.mcpfusion.redact.Tally;
import dev.mcpfusion.core.spi.PresenterBinding;
import dev.mcpfusion.core.spi.Problem;
import dev.mcpfusion.core.spi.Problems;
import dev.mcpfusion.core.spi.PromptArgument;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.core.trace.internal.RequestTrace;
import dev.mcpfusion.core.trace.internal.SpanStart;
import dev.mcpfusion.wire.Codes;
import dev.mcpfusion.wire.Echo;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.Reply;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Answers {@code prompts/list} and {@code prompts/get}. */
final class PromptCalls extends FeatureAnswers {
  PromptCalls(FeatureRegistry registry, Egress egress, FusionTracer tracer, FeatureRunner runner,
      FeaturePresenter presenter) {
    super(registry, egress, tracer, runner, presenter);
  }

  /** The {@code prompts/list} result: the prompts whose scopes {@code caller} holds. */
  Map<String, Object> listPrompts(Caller caller) {
    List<Object> prompts = new ArrayList<>();
    for (FeatureRegistry.BoundPrompt p : registry.prompts()) {
      if (!caller.missing(p.descriptor().scopes()).isEmpty()) {
        continue;
      }
      Map<String, Object> prompt = new LinkedHashMap<>();
      prompt.put("name", p.descriptor().name());
      if (!p.descriptor().title().isEmpty()) {
        prompt.put("title", p.descriptor().title());
      }
      prompt.put("description", p.descriptor().description());
      putIcons(prompt, p.descriptor().icons());
      List<Object> arguments = new ArrayList<>();
      for (PromptArgument a : p.descriptor().arguments()) {
        Map<String, Object> argument = new LinkedHashMap<>();
        argument.put("name", a.name());
        String description = argumentDescription(a);
        if (!description.isEmpty()) {
          argument.put("description", description);
        }
        // Explicit either way: an optional argument must read as optional to every client.
        argument.put("required", a.required());
        arguments.add(argument);
      }
      prompt.put("arguments", arguments);
      prompts.add(prompt);
    }
    return Map.of("prompts", prompts);
  }

  private static String argumentDescription(PromptArgument a) {
    if (a.values().isEmpty()) {
      return a.description();
    }
    String values = "One of: " + String.join(", ", a.values()) + ".";
    String d = a.description().strip();
    if (d.isEmpty()) {
      return values;
    }
    char last = d.charAt(d.length() - 1);
    return d + (last == '.' || last == '!' || last == '?' ? " " : ". ") + values;
  }

  /** The {@code prompts/get} result for {@code params} ({@code name}, {@code arguments}), for the request {@code call}. */
  Map<String, Object> getPrompt(Map<?, ?> params, RequestContext request,
      FeatureRequest call) {
    Object name = params == null ? null : params.get("name");
    if (!(name instanceof String promptName)) {
      throw new FeatureError(JsonRpc.INVALID_PARAMS, "Invalid params: prompts/get needs the"
          + " prompt \"name\" (a string). Prompts: " + FeatureRunner.list(visibleNames(request.caller()))
          + ".", null);
    }
    FeatureRegistry.BoundPrompt prompt = registry.prompt(promptName);
    Object raw = params.get("arguments");
    call.trace(SpanStart.prompt(tracer, promptName,
        prompt == null ? null : FeatureRunner.routerOf(prompt.router(), prompt.features()), request,
        call.id(), raw instanceof Map<?, ?> m ? m : null));
    if (prompt == null) {
      call.trace().unknownTarget();
      throw unknownPrompt(promptName, request.caller());
    }
    List<String> missing = request.caller().missing(prompt.descriptor().scopes());
    if (!missing.isEmpty()) {
      throw forbidden(FeatureRunner.routerOf(prompt.router(), prompt.features()), "prompt",
          promptName, missing);
    }
    if (raw != null && !(raw instanceof Map<?, ?>)) {
      throw new FeatureError(JsonRpc.INVALID_PARAMS, "Invalid params: \"arguments\" of"
          + " prompts/get must be an object of strings.", null);
    }
    @SuppressWarnings("unchecked")
    Map<String, ?> arguments = raw == null ? Map.of() : (Map<String, ?>) raw;
    Problems problems = new Problems();
    Object[] decoded = prompt.features().decodePrompt(prompt.index(), arguments, problems);
    if (!problems.isEmpty()) {
      throw invalidArguments(prompt, problems.list());
    }
    String router = FeatureRunner.routerOf(prompt.router(), prompt.features());
    Redactor content = egress.content(presenter.viewRedactor(prompt.descriptor().presenter()));
    @SuppressWarnings("unchecked")
    Map<String, Object> answer = (Map<String, Object>) runner.run(router, prompt.descriptor().name(),
        promptName, arguments, request, prompt.chain(), prompt.limits(), prompt.gate(), call,
        JsonRpc.INVALID_PARAMS, "prompt", null,
        ctx -> prompt.features().prompt(prompt.index(), decoded, ctx),
        result -> promptResult(prompt, result, content));
    return answer;
  }

  /**
   * The {@code prompts/get} result: the handler's own messages with what {@code content} finds
   * masked (no view shaped them), then the presented data, which its view's redaction masked.
   */
  private Map<String, Object> promptResult(FeatureRegistry.BoundPrompt prompt, Object result,
      Redactor content) {
    List<Object> messages = new ArrayList<>();
    String description = prompt.descriptor().description();
    Tally tally = new Tally();
    if (result instanceof String text) {
      messages.add(message("user", text("user", content == null ? text : content.text(text, tally))));
    } else if (result instanceof PromptResult r) {
      if (r.description() != null) {
        description = content == null ? r.description() : content.text(r.description(), tally);
      }
      for (PromptResult.Message m : r.messages()) {
        messages.add(message(m.role().wire(), Egress.redact(content, m.content(), tally)));
      }
      PresenterBinding<?, ?> binding = prompt.descriptor().presenter();
      if (r.hasData() && binding == null) {
        throw new IllegalStateException("PromptResult.data(...) was set, but @Prompt names no"
            + " presenter; add presenter = SomeView.class to @Prompt");
      }
      if (r.hasData() && r.data() != null) {
        Reply reply = presenter.present(binding, r.data(), prompt.descriptor().name());
        List<String> data = new ArrayList<>();
        String rules = null;
        for (String block : reply.blocks()) {
          if (block.startsWith("<domain_rules>")) {
            rules = block;
          } else if (!block.startsWith("<action_suggestions>")) {
            data.add(block);
          }
        }
        messages.add(message("user", text("user", String.join("\n\n", data))));
        if (rules != null) {
          messages.add(message("user", text("user", rules)));
        }
      }
    } else {
      throw new IllegalStateException(result == null ? "returned null"
          : "returned a " + result.getClass().getName() + " where a PromptResult was expected");
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("description", description);
    out.put("messages", messages);
    return out;
  }

  private static Map<String, Object> text(String role, String text) {
    Map<String, Object> content = new LinkedHashMap<>();
    content.put("type", "text");
    content.put("text", text);
    return content;
  }

  private static Map<String, Object> message(String role, Map<String, Object> content) {
    Map<String, Object> message = new LinkedHashMap<>();
    message.put("role", role);
    message.put("content", content);
    return message;
  }

  /** The prompt {@code name} does not exist; the prompts listed are those {@code caller} may see. */
  FeatureError unknownPrompt(String name, Caller caller) {
    List<String> visible = visibleNames(caller);
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("code", "UNKNOWN_PROMPT");
    data.put("available", visible);
    return new FeatureError(JsonRpc.INVALID_PARAMS, "The prompt " + Echo.quoted(name) + " does"
        + " not exist. Prompts: " + FeatureRunner.list(visible) + ".", data);
  }

  /**
   * The names of the prompts {@code caller} holds the scopes of, as {@code prompts/list} shows
   * them: an error must not name a prompt the list hides.
   */
  private List<String> visibleNames(Caller caller) {
    List<String> names = new ArrayList<>();
    for (FeatureRegistry.BoundPrompt p : registry.prompts()) {
      if (caller.missing(p.descriptor().scopes()).isEmpty()) {
        names.add(p.descriptor().name());
      }
    }
    return names;
  }

  private static FeatureError invalidArguments(FeatureRegistry.BoundPrompt prompt,
      List<Problem> problems) {
    StringBuilder text = new StringBuilder("Invalid arguments for prompt \"")
        .append(prompt.descriptor().name()).append("\": ");
    List<Object> fields = new ArrayList<>();
    for (int i = 0; i < problems.size(); i++) {
      Problem p = problems.get(i);
      text.append(i == 0 ? "" : "; ").append('"').append(p.path()).append("\" ").append(p.message());
      Map<String, Object> field = new LinkedHashMap<>();
      field.put("path", p.path());
      field.put("message", p.message());
      fields.add(field);
    }
    text.append(". Arguments: ");
    List<String> arguments = new ArrayList<>();
    for (PromptArgument a : prompt.descriptor().arguments()) {
      arguments.add(a.name() + (a.required() ? " (required)" : " (optional)"));
    }
    text.append(FeatureRunner.list(arguments)).append('.');
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("code", Codes.VALIDATION_ERROR);
    data.put("fields", fields);
    return new FeatureError(JsonRpc.INVALID_PARAMS, text.toString(), data);
  }

}
