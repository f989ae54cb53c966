package dev.mcpfusion.surface;

import dev.mcpfusion.wire.Codes;
import dev.mcpfusion.wire.Markup;
import dev.mcpfusion.wire.Meta;
import dev.mcpfusion.wire.Reply;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code WRONG_STATE} envelope: a call its session's workflow state does not allow. */
public final class WrongState {
  private WrongState() {}

  /**
   * The envelope for a call of {@code action} of {@code router} in {@code state}: the states it is
   * allowed in and the actions that lead to one of them, as the agent calls them ({@code leading}),
   * also in {@code _meta["mcpfusion/error"]} ({@code state}, {@code allowedIn}, {@code actions}).
   */
  public static Reply reply(String router, String action, String state, List<String> allowedIn,
      List<String> leading) {
    String recovery = leading.isEmpty()
        ? "Do not retry: no action leads from here to a state where this action is allowed."
        : "Call " + (leading.size() == 1 ? leading.get(0) : "one of the actions below")
            + " first: it moves the workflow to a state where this action is allowed. Then call"
            + " this action again if it is still needed.";
    List<String> quoted = new ArrayList<>();
    allowedIn.forEach(s -> quoted.add("\"" + s + "\""));
    List<String> lines = new ArrayList<>();
    lines.add("<tool_error code=\"" + Codes.WRONG_STATE + "\" severity=\"error\">");
    lines.add("<message>" + Markup.text("[" + router + "/" + action + "] The workflow of " + router
        + " is in the state \"" + state + "\"; this action is allowed only in "
        + String.join(", ", quoted) + ".") + "</message>");
    lines.add("<recovery>" + Markup.text(recovery) + "</recovery>");
    if (!leading.isEmpty()) {
      lines.add("<available_actions>");
      leading.forEach(name -> lines.add("  <action>" + Markup.text(name) + "</action>"));
      lines.add("</available_actions>");
    }
    lines.add("</tool_error>");
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", Codes.WRONG_STATE);
    error.put("severity", "error");
    error.put("recovery", recovery);
    error.put("actions", List.copyOf(leading));
    error.put("state", state);
    error.put("allowedIn", List.copyOf(allowedIn));
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put(Meta.ERROR, error);
    return Reply.error(List.of(String.join("\n", lines)), meta, Codes.WRONG_STATE);
  }
}
