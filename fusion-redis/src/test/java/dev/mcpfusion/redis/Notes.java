package dev.mcpfusion.redis;

import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Invalidates;
import dev.mcpfusion.annotation.Mutation;
import dev.mcpfusion.annotation.Resource;
import dev.mcpfusion.annotation.Router;
import jakarta.validation.constraints.NotBlank;

/**
 * Notes as resources ({@code notes://{id}}) and a mutation that marks them all stale, for the
 * subscription fan-out tests: a subscriber hears of an edit made through another instance.
 */
@Router(value = "notes", description = "Notes that change")
public final class Notes {
  @Resource(uri = "notes://{id}", description = "One note", mimeType = "text/plain")
  public String note(String id) {
    return "note " + id;
  }

  @Mutation(description = "Edit a note")
  @Invalidates("notes.*")
  public String edit(@NotBlank @Describe("The note's id") String id) {
    return "edited " + id;
  }
}
