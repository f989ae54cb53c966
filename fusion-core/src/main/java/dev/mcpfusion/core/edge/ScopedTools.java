package dev.mcpfusion.core.edge;

import dev.mcpfusion.core.Caller;
import dev.mcpfusion.core.server.BoundAction;
import dev.mcpfusion.core.server.Exposer;
import dev.mcpfusion.core.server.ExposedTool;
import dev.mcpfusion.core.server.FeatureRegistry;
import dev.mcpfusion.core.server.ToolRegistry;
import dev.mcpfusion.wire.JsonRpc;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tools as a caller with scopes sees them ({@code @Scopes}): {@code tools/list} without the
 * tools it may not use, and, before a {@code tools/call}, {@code prompts/get},
 * {@code resources/read}, {@code resources/subscribe} or a {@code completion/complete} of a prompt
 * or template is dispatched, the scopes it lacks (HTTP answers
 * {@code 403 insufficient_scope} with them; the prompt and resource lists are filtered where they
 * are answered, by {@code FeatureCalls}). A server with no scoped tool, and the local
 * caller, see every tool: then the edge answers the one {@code tools/list} of every caller.
 */
final class ScopedTools {
  private final ToolRegistry registry;
  private final boolean any;
  /** Each tool's {@code tools/list} entry, converted once, by the registry's order. */
  private final List<Map<String, Object>> entries;

  private final FeatureRegistry features;
  /** Whether any prompt or resource requires a scope. */
  private final boolean anyFeature;

  ScopedTools(ToolRegistry registry, FeatureRegistry features) {
    this.registry = registry;
    this.features = features;
    boolean scopedFeature = false;
    for (FeatureRegistry.BoundPrompt p : features.prompts()) {
      scopedFeature |= !p.descriptor().scopes().isEmpty();
    }
    for (FeatureRegistry.BoundResource r : features.staticResources()) {
      scopedFeature |= !r.descriptor().scopes().isEmpty();
    }
    for (FeatureRegistry.BoundResource r : features.templates()) {
      scopedFeature |= !r.descriptor().scopes().isEmpty();
    }
    this.anyFeature = scopedFeature;
    boolean scoped = false;
    for (ExposedTool tool : registry.tools()) {
      scoped |= tool.scoped();
    }
    this.any = scoped;
    List<Map<String, Object>> converted = new ArrayList<>();
    if (scoped) {
      for (ExposedTool tool : registry.tools()) {
        converted.add(ToolEntries.entry(tool.tool()));
      }
    }
    this.entries = List.copyOf(converted);
  }

  /** Whether {@code tools/list} must be filtered for {@code caller}. */
  boolean filters(Caller caller) {
    return any && !caller.isLocal();
  }

  /** The {@code tools/list} result for {@code caller}: only the tools it may use. */
  Map<String, Object> list(Caller caller) {
    List<Object> shown = new ArrayList<>();
    List<ExposedTool> tools = registry.tools();
    for (int i = 0; i < tools.size(); i++) {
      if (tools.get(i).visibleTo(caller)) {
        shown.add(entries.get(i));
      }
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("tools", shown);
    return result;
  }

  /**
   * The scopes {@code caller} lacks for the request {@code message}, a {@code tools/call} of an
   * action that requires scopes; empty for anything else (including a call the pipeline will
   * refuse for another reason: an unknown tool or action).
   */
  List<String> missing(Message message, Caller caller) {
    if (caller.isLocal() || message.kind() != Message.Kind.REQUEST) {
      return List.of();
    }
    Map<?, ?> params = message.params();
    if (anyFeature && JsonRpc.PROMPTS_GET.equals(message.method())) {
      FeatureRegistry.BoundPrompt prompt = params != null && params.get("name") instanceof String n
          ? features.prompt(n) : null;
      return prompt == null ? List.of() : caller.missing(prompt.descriptor().scopes());
    }
    if (anyFeature && JsonRpc.COMPLETE.equals(message.method())) {
      return params != null && params.get("ref") instanceof Map<?, ?> ref
          ? completionScopes(ref, caller) : List.of();
    }
    if (anyFeature && (JsonRpc.RESOURCES_READ.equals(message.method())
        || JsonRpc.RESOURCES_SUBSCRIBE.equals(message.method()))) {
      FeatureRegistry.Resolved resolved = params != null && params.get("uri") instanceof String u
          ? features.resolve(u) : null;
      return resolved == null ? List.of() : caller.missing(resolved.resource().descriptor().scopes());
    }
    if (!any || !JsonRpc.TOOLS_CALL.equals(message.method())) {
      return List.of();
    }
    ExposedTool tool = params != null && params.get("name") instanceof String name
        ? registry.tool(name) : null;
    if (tool == null) {
      return List.of();
    }
    BoundAction action;
    if (tool.grouped()) {
      Object arguments = params.get("arguments");
      Object chosen = arguments instanceof Map<?, ?> m ? m.get(Exposer.DISCRIMINATOR) : null;
      action = chosen instanceof String n ? tool.actions().get(n) : null;
    } else {
      action = tool.single();
    }
    return action == null ? List.of() : caller.missing(action.descriptor().scopes());
  }

  /** The scopes {@code caller} lacks to complete an argument of the prompt or template {@code ref} names. */
  private List<String> completionScopes(Map<?, ?> ref, Caller caller) {
    if ("ref/prompt".equals(ref.get("type")) && ref.get("name") instanceof String name) {
      FeatureRegistry.BoundPrompt prompt = features.prompt(name);
      return prompt == null ? List.of() : caller.missing(prompt.descriptor().scopes());
    }
    if ("ref/resource".equals(ref.get("type")) && ref.get("uri") instanceof String uri) {
      FeatureRegistry.BoundResource template = features.template(uri);
      return template == null ? List.of() : caller.missing(template.descriptor().scopes());
    }
    return List.of();
  }
}
