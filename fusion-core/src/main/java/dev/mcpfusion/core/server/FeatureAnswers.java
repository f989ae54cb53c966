package dev.mcpfusion.core.server;

import dev.mcpfusion.core.egress.Egress;
import dev.mcpfusion.core.spi.IconDescriptor;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.wire.Codes;
import dev.mcpfusion.wire.Echo;
import dev.mcpfusion.wire.JsonRpc;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the answerers of prompts, resources and completions ({@link PromptCalls},
 * {@link ResourceCalls}, {@link CompletionCalls}) share: the registry they serve, the egress chain
 * their answers pass, the server's tracer, the runner of user code and the presenter of data.
 */
abstract class FeatureAnswers {
  final FeatureRegistry registry;
  final Egress egress;
  final FusionTracer tracer;
  final FeatureRunner runner;
  final FeaturePresenter presenter;

  FeatureAnswers(FeatureRegistry registry, Egress egress, FusionTracer tracer, FeatureRunner runner,
      FeaturePresenter presenter) {
    this.registry = registry;
    this.egress = egress;
    this.tracer = tracer;
    this.runner = runner;
    this.presenter = presenter;
  }

  /**
   * The refusal of a prompt or resource whose {@code @Scopes} the caller lacks ({@code missing}):
   * as a tool's {@code FORBIDDEN} envelope says it, with the scopes also as {@code requiredScopes}
   * in the error's data, so that the agent asks for them instead of retrying.
   */
  static FeatureError forbidden(String router, String kind, String name, List<String> missing) {
    String scopes = String.join(" ", missing);
    String plural = missing.size() == 1 ? " " : "s ";
    String them = missing.size() == 1 ? "it" : "them";
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("code", Codes.FORBIDDEN);
    data.put("requiredScopes", List.copyOf(missing));
    return new FeatureError(JsonRpc.INVALID_REQUEST,
        (router.isEmpty() ? "" : "[" + router + "] ") + "This caller lacks the scope" + plural
            + scopes + ", which the " + kind + " " + Echo.quoted(name)
            + " requires. Do not retry: ask the user to grant the scope" + plural + scopes
            + " (for example by signing in again with " + them + ").", data);
  }

  /**
   * Puts a member's {@code icons} into its list entry, each key only when set; a member without
   * icons gets no {@code icons} key (an empty array would read as "has icons, none usable").
   */
  static void putIcons(Map<String, Object> entry, List<IconDescriptor> icons) {
    if (icons.isEmpty()) {
      return;
    }
    List<Object> out = new ArrayList<>(icons.size());
    for (IconDescriptor i : icons) {
      Map<String, Object> icon = new LinkedHashMap<>();
      icon.put("src", i.src());
      if (!i.mimeType().isEmpty()) {
        icon.put("mimeType", i.mimeType());
      }
      if (!i.sizes().isEmpty()) {
        icon.put("sizes", i.sizes());
      }
      if (!i.theme().isEmpty()) {
        icon.put("theme", i.theme());
      }
      out.add(icon);
    }
    entry.put("icons", out);
  }
}
