package dev.mcpfusion.testing;

import java.util.List;

/**
 * Entry point of the AssertJ assertions on tool results and on prompt, resource and completion
 * answers.
 *
 * <pre>{@code
 * import static dev.mcpfusion.testing.FusionAssertions.assertThat;
 *
 * assertThat(tester.call("billing", "get_invoice", Map.of("id", "INV-999")))
 *     .isError()
 *     .hasCode("NOT_FOUND")
 *     .suggests("billing.list_invoices");
 * assertThat(tester.call("billing", "list_invoices", Map.of()))
 *     .isSuccess()
 *     .isTruncated(50, 950)
 *     .data().hasNoField("webhookSecret");
 * }</pre>
 *
 * <p>It can be statically imported next to AssertJ's {@code Assertions.assertThat}: the two
 * overload cleanly.
 */
public final class FusionAssertions {
  private FusionAssertions() {}

  /** Assertions on one tool call's result. */
  public static ToolResultAssert assertThat(ToolResult result) {
    return new ToolResultAssert(result);
  }

  /**
   * Assertions on the answer to a prompt, resource or completion request, e.g.
   * {@code assertThat(tester.getPrompt("overdue", Map.of())).isError(-32602)}.
   */
  public static McpResponseAssert assertThat(McpResponse response) {
    return new McpResponseAssert(response);
  }

  /**
   * Assertions on a {@code tools/list} answer, e.g.
   * {@code assertThatTools(tester.listTools()).hasNoField("webhookSecret")}.
   */
  public static ToolListAssert assertThatTools(List<ToolInfo> tools) {
    return new ToolListAssert(tools);
  }
}
