package dev.mcpfusion.redis;

import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.core.Elicitation;
import dev.mcpfusion.core.RequestContext;
import jakarta.validation.constraints.NotBlank;

/** A call that asks the user (elicitation) and answers with what the user said. */
@Router(value = "asker", description = "Asks the user")
public final class Asker {
  /** The form the user fills in. */
  public record Name(@Describe("Your name") @NotBlank String name) {}

  @Query(description = "Ask the user's name and greet them")
  public String who(RequestContext request) {
    Elicitation<Name> answer = request.elicit(Name.class, "Who are you?");
    return answer.accepted() ? "Hello, " + answer.form().name() + "!" : "Not told: " + answer.action();
  }
}
