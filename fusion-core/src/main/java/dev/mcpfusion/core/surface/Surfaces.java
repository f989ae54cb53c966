package dev.mcpfusion.core.surface;

import dev.mcpfusion.core.Caller;
import dev.mcpfusion.core.server.BoundAction;
import dev.mcpfusion.core.server.ExposedTool;
import dev.mcpfusion.core.server.Exposer;
import dev.mcpfusion.core.server.ToolRegistry;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.RouterDescriptor;
import dev.mcpfusion.surface.SessionStates;
import dev.mcpfusion.surface.TagFilter;
import dev.mcpfusion.surface.Workflow;
import dev.mcpfusion.surface.WrongState;
import dev.mcpfusion.wire.Reply;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which actions a request sees and may call, beyond its scopes: those its session's workflow state
 * allows ({@link Workflow}) and those carrying a tag it asks for ({@link TagFilter}). Built once
 * per server from its registry; thread-safe.
 */
public final class Surfaces {
  /** The most GROUPED tools of a subset of actions kept; any more are built for each list. */
  private static final int MAX_SUBSETS = 256;

  private final ToolRegistry registry;
  private final Map<String, Workflow> workflows = new LinkedHashMap<>();
  /** Action reference → its tags. */
  private final Map<String, List<String>> tags = new LinkedHashMap<>();
  private final TagFilter filter;
  private final Map<String, McpSchema.Tool> subsets = new ConcurrentHashMap<>();

  private Surfaces(ToolRegistry registry, TagFilter filter) {
    this.registry = registry;
    this.filter = filter;
    for (ExposedTool tool : registry.tools()) {
      RouterDescriptor router = tool.router().descriptor();
      Map<String, String> methods = new LinkedHashMap<>();
      for (ActionDescriptor action : router.actions()) {
        methods.put(action.name(), action.methodName());
        tags.put(router.name() + "." + action.name(),
            Workflow.tags(router.routerType(), action.methodName()));
      }
      Workflow workflow = Workflow.of(router.name(), router.routerType(), methods);
      if (workflow != null) {
        workflows.putIfAbsent(router.name(), workflow);
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
    return new Surfaces(registry, new TagFilter(serverTags, tagScopes));
  }

  /** Whether some router declares workflow states: then a session's tool list can change. */
  public boolean gated() {
    return !workflows.isEmpty();
  }

  /** The tags a request of {@code caller} with {@code header} ({@link TagFilter#HEADER}) asks for. */
  public Set<String> wanted(Caller caller, String header) {
    return filter.wanted(header, caller.isLocal(), caller::hasScope);
  }

  /** Whether {@code action} carries a tag of {@code wanted} ({@code null}: every action does). */
  public boolean tagged(BoundAction action, Set<String> wanted) {
    if (wanted == null) {
      return true;
    }
    for (String tag : tags.getOrDefault(action.reference(), List.of())) {
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
    List<ActionDescriptor> kept = new ArrayList<>();
    for (BoundAction action : shown) {
      key.append('\n').append(action.name());
      kept.add(action.descriptor());
    }
    McpSchema.Tool cached = subsets.get(key.toString());
    if (cached != null) {
      return cached;
    }
    RouterDescriptor full = tool.router().descriptor();
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
   * not allow ({@link WrongState}); {@code null} when the call may run.
   */
  public Reply refusal(BoundAction action, SessionStates session) {
    if (allows(action, session)) {
      return null;
    }
    String router = action.router().name();
    Workflow workflow = workflows.get(router);
    String state = session.of(workflow);
    List<String> leading = new ArrayList<>();
    for (String name : workflow.leadingTo(action.name(), state)) {
      leading.add(registry.references().render(router + "." + name));
    }
    return WrongState.reply(router, action.name(), state, workflow.allowedIn(action.name()),
        leading);
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
}
