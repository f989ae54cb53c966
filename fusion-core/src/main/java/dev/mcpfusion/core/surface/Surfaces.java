package dev.mcpfusion.core.surface;

import dev.mcpfusion.core.Caller;
import dev.mcpfusion.core.server.BoundAction;
import dev.mcpfusion.core.server.ExposedTool;
import dev.mcpfusion.core.server.Exposer;
import dev.mcpfusion.core.server.ToolRegistry;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.RouterDescriptor;
import dev.mcpfusion.wire.Codes;
import dev.mcpfusion.wire.Markup;
import dev.mcpfusion.wire.Meta;
import dev.mcpfusion.wire.References;
import dev.mcpfusion.wire.Reply;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which actions a request sees and may call, beyond its scopes: those its session's workflow state
 * allows ({@link Workflow}) and those carrying a tag it asks for. The tags a request asks for are
 * the intersection of those the server was built with ({@code FusionServer.Builder.tags}), those
 * its {@value #TAGS_HEADER} header names, and, when tags are mapped to scopes
 * ({@code Builder.tagScope}), those whose scope the caller holds; with none of the three it sees
 * every tag. Built once per server; thread-safe.
 */
public final class Surfaces {
  /** The HTTP header a client narrows its tools with: tags separated by commas. */
  public static final String TAGS_HEADER = "Mcp-Fusion-Tags";
  /** The most GROUPED tools of a subset of actions kept; any more are built for each list. */
  private static final int MAX_SUBSETS = 256;

  private final ToolRegistry registry;
  private final Map<String, Workflow> workflows = new LinkedHashMap<>();
  /** Action reference → its tags. */
  private final Map<String, List<String>> tags = new LinkedHashMap<>();
  /** Router → its action names, in declaration order. */
  private final Map<String, List<String>> order = new LinkedHashMap<>();
  private final Set<String> serverTags;
  private final Map<String, String> tagScopes;
  private final Map<String, McpSchema.Tool> subsets = new ConcurrentHashMap<>();

  private Surfaces(ToolRegistry registry, Set<String> serverTags, Map<String, String> tagScopes) {
    this.registry = registry;
    this.serverTags = serverTags == null ? null : Set.copyOf(serverTags);
    this.tagScopes = Map.copyOf(tagScopes);
    for (ExposedTool tool : registry.tools()) {
      RouterDescriptor router = tool.router().descriptor();
      if (!order.containsKey(router.name())) {
        Workflow workflow = Workflow.of(router);
        if (workflow != null) {
          workflows.put(router.name(), workflow);
        }
        List<String> names = new ArrayList<>();
        for (ActionDescriptor action : router.actions()) {
          names.add(action.name());
          tags.put(router.name() + "." + action.name(), Workflow.tags(router, action));
        }
        order.put(router.name(), List.copyOf(names));
      }
    }
  }

  /**
   * The surfaces of {@code registry}'s tools.
   *
   * @param serverTags the tags every request is narrowed to, or {@code null} for every tag
   * @param tagScopes tag → the scope a caller must hold to see the actions carrying it
   */
  public static Surfaces of(ToolRegistry registry, Set<String> serverTags,
      Map<String, String> tagScopes) {
    return new Surfaces(registry, serverTags, tagScopes);
  }

  /** Whether some router declares workflow states: then a session's tool list can change. */
  public boolean gated() {
    return !workflows.isEmpty();
  }

  /** The workflow of {@code router}, or {@code null}. */
  public Workflow workflow(String router) {
    return workflows.get(router);
  }

  /** The tags of {@code action}. */
  public List<String> tags(BoundAction action) {
    return tags.getOrDefault(action.reference(), List.of());
  }

  /**
   * The tags a request asks for, or {@code null} for every tag.
   *
   * @param header the value of its {@value #TAGS_HEADER} header, or {@code null}
   */
  public Set<String> wanted(Caller caller, String header) {
    Set<String> wanted = serverTags == null ? null : new LinkedHashSet<>(serverTags);
    if (header != null && !header.isBlank()) {
      Set<String> named = new LinkedHashSet<>();
      for (String tag : header.split(",")) {
        if (!tag.isBlank()) {
          named.add(tag.trim().toLowerCase(Locale.ROOT));
        }
      }
      wanted = narrow(wanted, named);
    }
    if (!tagScopes.isEmpty() && !caller.isLocal()) {
      Set<String> granted = new LinkedHashSet<>();
      for (Map.Entry<String, String> mapped : tagScopes.entrySet()) {
        if (caller.hasScope(mapped.getValue())) {
          granted.add(mapped.getKey());
        }
      }
      wanted = narrow(wanted, granted);
    }
    return wanted;
  }

  private static Set<String> narrow(Set<String> wanted, Set<String> by) {
    if (wanted == null) {
      return by;
    }
    wanted.retainAll(by);
    return wanted;
  }

  /** Whether {@code action} carries a tag of {@code wanted} ({@code null}: every action does). */
  public boolean tagged(BoundAction action, Set<String> wanted) {
    if (wanted == null) {
      return true;
    }
    for (String tag : tags(action)) {
      if (wanted.contains(tag)) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code session}'s state allows {@code action} ({@code null}: no session, allowed). */
  public boolean allows(BoundAction action, SessionStates session) {
    Workflow workflow = session == null ? null : workflows.get(action.router().name());
    return workflow == null || workflow.allows(action.name(), session.of(workflow));
  }

  /** The actions of {@code tool} shown to a request asking for {@code wanted} in {@code session}. */
  public List<BoundAction> shown(ExposedTool tool, Set<String> wanted, SessionStates session) {
    List<BoundAction> shown = new ArrayList<>();
    for (BoundAction action : tool.actions().values()) {
      if (tagged(action, wanted) && allows(action, session)) {
        shown.add(action);
      }
    }
    return shown;
  }

  /**
   * What {@code tools/list} shows of {@code tool} when only {@code shown} of its actions are: the
   * tool itself when all are; for a GROUPED tool, the same tool built from those actions alone
   * (its {@code action} enum, fields and description name no other); {@code null} when none is.
   */
  public McpSchema.Tool listed(ExposedTool tool, List<BoundAction> shown) {
    if (shown.isEmpty()) {
      return null;
    }
    if (!tool.grouped() || shown.size() == tool.actions().size()) {
      return tool.tool();
    }
    StringBuilder key = new StringBuilder(tool.name());
    for (BoundAction action : shown) {
      key.append('\n').append(action.name());
    }
    McpSchema.Tool cached = subsets.get(key.toString());
    if (cached != null) {
      return cached;
    }
    RouterDescriptor full = tool.router().descriptor();
    List<ActionDescriptor> kept = new ArrayList<>();
    for (BoundAction action : shown) {
      kept.add(action.descriptor());
    }
    // The server was built with TOON descriptions when the tool's is not the text one.
    boolean toon = !Exposer.groupedDescription(full).equals(tool.tool().description());
    McpSchema.Tool built = Exposer.groupedTool(new RouterDescriptor(full.name(), full.description(),
        full.routerType(), full.commonFields(), kept, full.middleware()), toon);
    if (subsets.size() < MAX_SUBSETS) {
      subsets.put(key.toString(), built);
    }
    return built;
  }

  /**
   * The {@code WRONG_STATE} envelope for a call of {@code action} that {@code session}'s state does
   * not allow, naming the state, the states it is allowed in and the actions that lead there;
   * {@code null} when the call may run.
   */
  public Reply refusal(BoundAction action, SessionStates session) {
    if (allows(action, session)) {
      return null;
    }
    String router = action.router().name();
    Workflow workflow = workflows.get(router);
    String state = session.of(workflow);
    References references = registry.references();
    List<String> leading = new ArrayList<>();
    for (String name : workflow.leadingTo(action.name(), order.get(router), state)) {
      leading.add(references.render(router + "." + name));
    }
    String recovery = leading.isEmpty()
        ? "Do not retry: no action leads from here to a state where this action is allowed."
        : "Call " + (leading.size() == 1 ? leading.get(0) : "one of the actions below")
            + " first: it moves the workflow to a state where this action is allowed. Then call"
            + " this action again if it is still needed.";
    List<String> lines = new ArrayList<>();
    lines.add("<tool_error code=\"" + Codes.WRONG_STATE + "\" severity=\"error\">");
    lines.add("<message>" + Markup.text("[" + router + "/" + action.name() + "] The workflow of "
        + router + " is in the state \"" + state + "\"; this action is allowed only in "
        + quoted(workflow.allowedIn(action.name())) + ".") + "</message>");
    lines.add("<recovery>" + Markup.text(recovery) + "</recovery>");
    if (!leading.isEmpty()) {
      lines.add("<available_actions>");
      for (String name : leading) {
        lines.add("  <action>" + Markup.text(name) + "</action>");
      }
      lines.add("</available_actions>");
    }
    lines.add("</tool_error>");
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", Codes.WRONG_STATE);
    error.put("severity", "error");
    error.put("recovery", recovery);
    error.put("actions", List.copyOf(leading));
    error.put("state", state);
    error.put("allowedIn", workflow.allowedIn(action.name()));
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put(Meta.ERROR, error);
    return Reply.error(List.of(String.join("\n", lines)), meta, Codes.WRONG_STATE);
  }

  /**
   * After {@code reply} answered a call of {@code action} in {@code session}: a success of an
   * action with a transition moves the session's state. True when the state changed (the client
   * must then be told that its tool list changed).
   */
  public boolean advance(BoundAction action, Reply reply, SessionStates session) {
    if (session == null || action == null || reply == null || reply.isError()) {
      return false;
    }
    Workflow workflow = workflows.get(action.router().name());
    String to = workflow == null ? null : workflow.transition(action.name());
    return to != null && session.move(workflow, to);
  }

  private static String quoted(List<String> states) {
    List<String> out = new ArrayList<>();
    for (String s : states) {
      out.add("\"" + s + "\"");
    }
    return String.join(", ", out);
  }
}
