package dev.mcpfusion.micrometer;

import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Limits;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;
import jakarta.validation.constraints.NotBlank;

/** A router with a success, a validation error and a timeout to measure. */
@Router(value = "counter", description = "Counts words")
public final class Counter {
  @Query(description = "Count the words of a text")
  public int words(@NotBlank @Describe("The text") String text) {
    return text.trim().split("\\s+").length;
  }

  @Query(description = "Never finishes in time")
  @Limits(timeoutMs = 30)
  public int slow() throws InterruptedException {
    Thread.sleep(1_000);
    return 0;
  }
}
