package dev.mcpfusion.testing;

import dev.mcpfusion.testing.internal.JsonTrees;
import java.util.List;
import org.assertj.core.api.AbstractAssert;

/**
 * AssertJ assertions on a {@code tools/list} answer ({@link FusionTester#listTools()}); start with
 * {@link FusionAssertions#assertThatTools(List)}. The list is checked as the JSON a client reads.
 */
public final class ToolListAssert extends AbstractAssert<ToolListAssert, List<ToolInfo>> {
  private final Object tree;
  private final String json;

  ToolListAssert(List<ToolInfo> tools) {
    super(tools, ToolListAssert.class);
    this.tree = tools == null ? null : tools.stream().map(ToolInfo::json).toList();
    this.json = tools == null ? "null" : JsonTrees.write(tree);
  }

  /** The tool names are exactly these, in order. */
  public ToolListAssert hasToolNames(String... names) {
    isNotNull();
    List<String> actualNames = actual.stream().map(ToolInfo::name).toList();
    if (!actualNames.equals(List.of(names))) {
      failWithMessage("Expecting the tools %s, but were %s", List.of(names), actualNames);
    }
    return this;
  }

  /**
   * No object property named {@code name} occurs at any depth of any tool (input and output
   * schemas, annotations, {@code _meta}).
   */
  public ToolListAssert hasNoField(String name) {
    isNotNull();
    List<String> found = JsonTrees.pathsOf(tree, name);
    if (!found.isEmpty()) {
      failWithMessage("Expecting no field \"%s\" in the tool list, but found it at %s%nTools:%n  %s",
          name, found, json);
    }
    return this;
  }

  /** {@code text} appears nowhere in the tool list's JSON (names, descriptions, schemas). */
  public ToolListAssert doesNotMention(String text) {
    isNotNull();
    if (json.contains(text)) {
      failWithMessage("Expecting the tool list not to mention \"%s\"%nTools:%n  %s", text, json);
    }
    return this;
  }
}
