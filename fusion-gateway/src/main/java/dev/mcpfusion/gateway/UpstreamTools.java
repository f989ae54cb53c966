package dev.mcpfusion.gateway;

import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.ElementKind;
import dev.mcpfusion.core.spi.ResultShape;
import dev.mcpfusion.core.spi.Verb;
import dev.mcpfusion.json.Json;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An upstream's {@code tools/list} entries as actions of the gateway: the name, description, title,
 * annotations and input schema as the upstream lists them; the gateway lists each tool as
 * {@code <upstream>_<tool>}. The input schema goes through the {@code @InputSchema} path, so it is
 * listed unchanged and the gateway checks arguments against it before forwarding.
 */
final class UpstreamTools {
  private static final Logger LOG = LoggerFactory.getLogger(UpstreamTools.class);
  /** What a listed MCP tool name may be here (the edge's rule). */
  private static final Pattern TOOL_NAME = Pattern.compile("[A-Za-z0-9_-]+");
  /** The longest tool name the edge lists. */
  static final int MAX_TOOL_NAME = 64;

  private UpstreamTools() {}

  /**
   * The actions for {@code tools}, in the upstream's order. A tool whose name the gateway cannot
   * list (characters outside {@code [A-Za-z0-9_-]}, or longer than 64 with the prefix), a repeated
   * name or an entry without an object input schema is left out with a warning in the log naming it.
   */
  static List<ActionDescriptor> actions(String upstream, List<Map<String, Object>> tools) {
    List<ActionDescriptor> actions = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Map<String, Object> tool : tools) {
      Object name = tool.get("name");
      if (!(name instanceof String toolName) || !TOOL_NAME.matcher(toolName).matches()
          || upstream.length() + 1 + toolName.length() > MAX_TOOL_NAME) {
        LOG.warn("upstream {}: tool {} is not listed: the gateway's name {}_{} would not be a valid"
            + " tool name ([A-Za-z0-9_-], at most {} characters)", upstream, name, upstream, name,
            MAX_TOOL_NAME);
        continue;
      }
      if (!seen.add(toolName)) {
        LOG.warn("upstream {}: tool {} is listed twice; the first is kept", upstream, toolName);
        continue;
      }
      if (!(tool.get("inputSchema") instanceof Map<?, ?> schema)) {
        LOG.warn("upstream {}: tool {} is not listed: it has no object inputSchema", upstream,
            toolName);
        continue;
      }
      actions.add(action(toolName, tool, schema));
    }
    return actions;
  }

  private static ActionDescriptor action(String toolName, Map<String, Object> tool, Map<?, ?> schema) {
    Map<?, ?> hints = tool.get("annotations") instanceof Map<?, ?> m ? m : Map.of();
    // A hint the upstream leaves out keeps the meaning MCP gives its absence.
    boolean readOnly = hint(hints, "readOnlyHint", false);
    String title = tool.get("title") instanceof String t ? t
        : hints.get("title") instanceof String t ? t : "";
    return ActionDescriptor.action(toolName)
        .verb(readOnly ? Verb.QUERY : Verb.ACTION)
        .method("forward")
        .description(tool.get("description") instanceof String d ? d : "")
        .title(title)
        .readOnly(readOnly)
        .destructive(hint(hints, "destructiveHint", true))
        .idempotent(hint(hints, "idempotentHint", false))
        .openWorld(hint(hints, "openWorldHint", true))
        .inputSchema(Json.write(schema))
        .result(ResultShape.VALUE, ElementKind.NONE)
        .build();
  }

  private static boolean hint(Map<?, ?> hints, String key, boolean absent) {
    return hints.get(key) instanceof Boolean b ? b : absent;
  }
}
