package dev.mcpfusion.core.edge;

import dev.mcpfusion.core.Caller;
import dev.mcpfusion.core.server.BoundAction;
import dev.mcpfusion.core.server.Exposer;
import dev.mcpfusion.core.server.ExposedTool;
import dev.mcpfusion.core.server.FeatureRegistry;
import dev.mcpfusion.core.server.ToolRegistry;
import dev.mcpfusion.surface.SessionStates;
import dev.mcpfusion.core.surface.Surfaces;
import dev.mcpfusion.surface.TagFilter;
import io.modelcontextprotocol.spec.McpSchema;
import dev.mcpfusion.wire.JsonRpc;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The tools as one request sees them: {@code tools/list} without the tools its caller's scopes do
 * not allow ({@code @Scopes}), the actions its session's workflow state does not allow
 * ({@code @States}, 2025 era only: the stateless era has no session) and the actions that carry
 * none of the tags it asks for ({@link Surfaces}); and, before a {@code tools/call},
 * {@code prompts/get}, {@code resources/read}, {@code resources/subscribe} or a
 * {@code completion/complete} of a prompt or template is dispatched, the scopes it lacks (HTTP answers
 * {@code 403 insufficient_scope} with them; the prompt and resource lists are filtered where they
 * are answered, by {@code FeatureCalls}). When nothing narrows a request's view, the edge answers
 * the one {@code tools/list} of every caller.
 */
final class ScopedTools {
  private final ToolRegistry registry;
  private final boolean any;
  /** Each tool's {@code tools/list} entry, converted once, by the registry's order. */
  private final List<Map<String, Object>> entries;

  private final FeatureRegistry features;
  /** Whether any prompt or resource requires a scope. */
  private final boolean anyFeature;
  private final Surfaces surfaces;

  ScopedTools(ToolRegistry registry, FeatureRegistry features, Surfaces surfaces) {
    this.registry = registry;
    this.features = features;
    this.surfaces = surfaces;
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
    List<Map<String, Object>> converted = new ArrayList<>();
    for (ExposedTool tool : registry.tools()) {
      scoped |= tool.scoped();
      converted.add(ToolEntries.entry(tool.tool()));
    }
    this.any = scoped;
    this.entries = List.copyOf(converted);
  }

  /** What narrows one request's view of the tools: the tags it asks for and its session's states. */
  record View(Set<String> wanted, SessionStates states) {}

  /** The view of a request over {@code inbound} in {@code session} ({@code null}: stateless). */
  View view(Inbound inbound, EdgeSession session, boolean modernEra) {
    Set<String> wanted = surfaces.wanted(inbound.caller(),
        inbound.header(TagFilter.HEADER.toLowerCase(Locale.ROOT)));
    return new View(wanted,
        modernEra || session == null || !surfaces.gated() ? null : session.workflow());
  }

  /** Whether {@code tools/list} must be filtered for {@code caller} seeing {@code view}. */
  boolean filters(Caller caller, View view) {
    return (any && !caller.isLocal()) || view.wanted() != null || view.states() != null;
  }

  /** The {@code tools/list} result for {@code caller}: only the tools and actions it may use. */
  Map<String, Object> list(Caller caller, View view) {
    List<Object> shown = new ArrayList<>();
    List<ExposedTool> tools = registry.tools();
    for (int i = 0; i < tools.size(); i++) {
      ExposedTool tool = tools.get(i);
      if (!tool.visibleTo(caller)) {
        continue;
      }
      McpSchema.Tool listed = surfaces.listed(tool,
          surfaces.shown(tool, view.wanted(), view.states()));
      if (listed == tool.tool()) {
        shown.add(entries.get(i));
      } else if (listed != null) {
        shown.add(ToolEntries.entry(listed));
      }
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("tools", shown);
    return result;
  }

  /** Whether a request asking for {@code wanted} tags sees some action of {@code tool}. */
  boolean tagged(ExposedTool tool, Set<String> wanted) {
    return wanted == null || !surfaces.shown(tool, wanted, null).isEmpty();
  }

  /** The surfaces the view is made of. */
  Surfaces surfaces() {
    return surfaces;
  }

  /**
   * The scopes the caller of {@code inbound} lacks for the request {@code message}, a
   * {@code tools/call} of an action that requires scopes; empty for anything else (including a
   * call the pipeline will refuse for another reason: an unknown tool or action, or a tool its tags
   * hide, which is answered as an unknown one).
   */
  List<String> missing(Message message, Inbound inbound) {
    Caller caller = inbound.caller();
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
    Set<String> wanted = view(inbound, null, true).wanted();
    if (tool == null || !tagged(tool, wanted)) {
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
    return action == null || !surfaces.tagged(action, wanted) ? List.of()
        : caller.missing(action.descriptor().scopes());
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
