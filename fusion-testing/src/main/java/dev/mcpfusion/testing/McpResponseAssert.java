package dev.mcpfusion.testing;

import org.assertj.core.api.AbstractAssert;

/**
 * AssertJ assertions on the answer to a prompt, resource or completion request; start with
 * {@link FusionAssertions#assertThat(McpResponse)}.
 */
public final class McpResponseAssert extends AbstractAssert<McpResponseAssert, McpResponse> {
  McpResponseAssert(McpResponse actual) {
    super(actual, McpResponseAssert.class);
  }

  /** The server answered with a result. */
  public McpResponseAssert isSuccess() {
    isNotNull();
    if (actual.isError()) {
      failWithMessage("Expecting a result, but the server answered %s", actual.raw());
    }
    return this;
  }

  /** The server answered with a JSON-RPC error of {@code code}. */
  public McpResponseAssert isError(int code) {
    isNotNull();
    if (!actual.isError() || actual.errorCode() != code) {
      failWithMessage("Expecting a JSON-RPC error %s, but the server answered %s", code, actual.raw());
    }
    return this;
  }

  /** The error message contains every one of {@code parts}. */
  public McpResponseAssert hasErrorMessageContaining(String... parts) {
    isNotNull();
    String message = actual.errorMessage();
    for (String part : parts) {
      if (message == null || !message.contains(part)) {
        failWithMessage("Expecting the error message to contain \"%s\", but the server answered %s",
            part, actual.raw());
      }
    }
    return this;
  }

  /** Some text the client reads (a message or content text) contains {@code part}. */
  public McpResponseAssert hasTextContaining(String part) {
    isNotNull();
    for (String text : actual.texts()) {
      if (text.contains(part)) {
        return this;
      }
    }
    failWithMessage("Expecting a text containing \"%s\", but the texts were %s", part, actual.texts());
    return this;
  }

  /** {@code text} appears nowhere in the response's JSON (a {@code @Hidden} sentinel, say). */
  public McpResponseAssert doesNotMention(String text) {
    isNotNull();
    if (actual.raw().contains(text)) {
      failWithMessage("Expecting the response not to mention \"%s\", but it was%n  %s", text,
          actual.raw());
    }
    return this;
  }
}
