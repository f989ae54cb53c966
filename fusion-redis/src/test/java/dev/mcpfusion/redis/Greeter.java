package dev.mcpfusion.redis;

import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;
import jakarta.validation.constraints.NotBlank;

/** The connector the fleet tests serve from two instances. */
@Router(value = "greeter", description = "Greets people")
public final class Greeter {
  @Query(description = "Greet someone by name")
  public String hello(@NotBlank @Describe("Who to greet") String name) {
    return "Hello, " + name + "!";
  }
}
