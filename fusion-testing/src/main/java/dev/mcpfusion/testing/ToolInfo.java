package dev.mcpfusion.testing;

import dev.mcpfusion.testing.internal.JsonTrees;
import java.util.Map;
import java.util.Objects;

/**
 * One tool of a {@code tools/list} answer, as the client read it ({@link FusionTester#listTools()}):
 * its name, title and description, its input and output schemas as plain JSON trees, its behaviour
 * hints, and the whole tool as sent ({@link #json()}). Immutable: every tree it hands out is
 * unmodifiable.
 */
public final class ToolInfo {
  /**
   * The tool's {@code annotations}: a display title and the four behaviour hints, each
   * {@code null} when the server did not send it.
   */
  public record Hints(String title, Boolean readOnlyHint, Boolean destructiveHint,
      Boolean idempotentHint, Boolean openWorldHint) {}

  private final Map<String, Object> json;

  private ToolInfo(Map<String, Object> json) {
    this.json = json;
  }

  /**
   * A tool from its JSON tree, one item of a {@code tools/list} result's {@code tools}.
   *
   * @throws IllegalArgumentException when the tree has no string {@code name}
   */
  @SuppressWarnings("unchecked")
  public static ToolInfo of(Map<String, ?> tool) {
    Objects.requireNonNull(tool, "tool");
    if (!(tool.get("name") instanceof String)) {
      throw new IllegalArgumentException("A tool needs a string \"name\": " + JsonTrees.write(tool));
    }
    return new ToolInfo((Map<String, Object>) JsonTrees.frozen(tool));
  }

  /** The tool name the agent calls. */
  public String name() {
    return (String) json.get("name");
  }

  /** The display title, or {@code null} when the tool has none. */
  public String title() {
    return json.get("title") instanceof String s ? s : null;
  }

  /** The description the agent reads, or {@code null} when the tool has none. */
  public String description() {
    return json.get("description") instanceof String s ? s : null;
  }

  /** The input JSON Schema ({@code inputSchema}), or {@code null} when absent. */
  public Map<String, Object> inputSchema() {
    return object("inputSchema");
  }

  /** The output JSON Schema ({@code outputSchema}), or {@code null} when the tool declares none. */
  public Map<String, Object> outputSchema() {
    return object("outputSchema");
  }

  /** The {@code annotations} (title and hints), or {@code null} when the tool has none. */
  public Hints annotations() {
    Map<String, Object> a = object("annotations");
    if (a == null) {
      return null;
    }
    return new Hints(a.get("title") instanceof String s ? s : null, flag(a, "readOnlyHint"),
        flag(a, "destructiveHint"), flag(a, "idempotentHint"), flag(a, "openWorldHint"));
  }

  /** The tool's {@code _meta}, or {@code null} when absent. */
  public Map<String, Object> meta() {
    return object("_meta");
  }

  /** The whole tool as the server sent it, a plain JSON tree in wire order. */
  public Map<String, Object> json() {
    return json;
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> object(String member) {
    return json.get(member) instanceof Map<?, ?> m ? (Map<String, Object>) m : null;
  }

  private static Boolean flag(Map<String, Object> annotations, String hint) {
    return annotations.get(hint) instanceof Boolean b ? b : null;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ToolInfo other && json.equals(other.json);
  }

  @Override
  public int hashCode() {
    return json.hashCode();
  }

  /** The tool's compact JSON. */
  @Override
  public String toString() {
    return JsonTrees.write(json);
  }
}
