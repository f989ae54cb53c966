package dev.mcpfusion.redis;

import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Invalidates;
import dev.mcpfusion.annotation.Mutation;
import dev.mcpfusion.annotation.Resource;
import dev.mcpfusion.annotation.Router;
import jakarta.validation.constraints.NotBlank;

/**
 * Pins as resources ({@code pins://{id}}) of a router other than {@link Notes}', for the listen
 * tests: a stream that listens to a pin only does not hear of a note's edit.
 */
@Router(value = "pins", description = "Pins that move")
public final class Pins {
  @Resource(uri = "pins://{id}", description = "One pin", mimeType = "text/plain")
  public String pin(String id) {
    return "pin " + id;
  }

  @Mutation(description = "Move a pin")
  @Invalidates("pins.*")
  public String move(@NotBlank @Describe("The pin's id") String id) {
    return "moved " + id;
  }
}
