package dev.mcpfusion.spring.boot.unprocessed;

import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;

/** Compiled with {@code -proc:none} (see the pom): it has no generated {@code UnprocessedTools_Fusion}. */
@Router(value = "unprocessed", description = "A router the processor never saw")
public class UnprocessedTools {
  @Query(description = "Say hello")
  public String hello() {
    return "hello";
  }
}
