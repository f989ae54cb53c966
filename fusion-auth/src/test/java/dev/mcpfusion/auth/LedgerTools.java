package dev.mcpfusion.auth;

import dev.mcpfusion.annotation.Context;
import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Mutation;
import dev.mcpfusion.annotation.Prompt;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Resource;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.annotation.Scopes;
import dev.mcpfusion.core.Caller;
import jakarta.validation.constraints.NotBlank;

/**
 * The protected connector of the tests: reading needs {@code ledger:read}, posting, the
 * {@code draft} prompt and the {@code ledger://audit} resource {@code ledger:write} too.
 */
@Router(value = "ledger", description = "The ledger")
@Scopes("ledger:read")
public final class LedgerTools {
  @Query(description = "Who is calling, as the handler sees it")
  public String whoami(@Context Caller caller) {
    return "subject=" + caller.subject().orElse("-") + " client=" + caller.clientId().orElse("-")
        + " scopes=" + String.join(",", caller.scopes());
  }

  @Mutation(description = "Post an entry")
  @Scopes("ledger:write")
  public String post(@NotBlank @Describe("The entry") String entry, @Context Caller caller) {
    return "posted " + entry + " by " + caller.subject().orElseThrow();
  }

  @Prompt(description = "Draft an entry")
  @Scopes("ledger:write")
  public String draft() {
    return "Draft an entry.";
  }

  @Resource(uri = "ledger://audit", description = "The audit trail", mimeType = "text/plain")
  @Scopes("ledger:write")
  public String audit() {
    return "all clear";
  }
}
