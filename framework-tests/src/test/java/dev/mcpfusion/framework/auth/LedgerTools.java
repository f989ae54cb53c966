package dev.mcpfusion.framework.auth;

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
 * The scopes fixture: {@code whoami} needs nothing, {@code read} needs {@code ledger:read} (the
 * router's), {@code post} needs {@code ledger:read} and {@code ledger:write}; the prompts and
 * resources of {@link Ledger} follow the same rule.
 */
public final class LedgerTools {
  /** An unscoped router: who is calling. */
  @Router(value = "me", description = "Who is calling")
  public static final class Me {
    @Query(description = "The caller's subject and scopes")
    public String whoami(@Context Caller caller) {
      return caller.isLocal() ? "local" : caller.subject().orElseThrow() + " " + caller.scopes()
          + " client=" + caller.clientId().orElse("-");
    }
  }

  /** Every action needs {@code ledger:read}. */
  @Router(value = "ledger", description = "The ledger")
  @Scopes("ledger:read")
  public static final class Ledger {
    @Query(description = "Read the balance")
    public String read() {
      return "balance 42";
    }

    @Mutation(description = "Post an entry")
    @Scopes("ledger:write")
    public String post(@NotBlank @Describe("The entry") String entry, @Context Caller caller) {
      return "posted " + entry + " by " + caller.subject().orElse("local");
    }

    @Prompt(description = "Summarise the ledger")
    public String summary() {
      return "Summarise the ledger.";
    }

    @Prompt(description = "Draft an entry")
    @Scopes("ledger:write")
    public String draft() {
      return "Draft an entry.";
    }

    @Resource(uri = "ledger://balance", description = "The balance", mimeType = "text/plain")
    public String balance() {
      return "42";
    }

    @Resource(uri = "ledger://audit", description = "The audit trail", mimeType = "text/plain")
    @Scopes("ledger:audit")
    public String audit() {
      return "all clear";
    }

    @Resource(uri = "ledger://entries/{id}", description = "One entry", mimeType = "text/plain")
    @Scopes("ledger:audit")
    public String entry(String id) {
      return "entry " + id;
    }
  }

  /** Prompts and resources of a class that is no router: its own {@code @Scopes} applies. */
  @Scopes("notes:read")
  public static final class Notes {
    @Prompt(description = "Read the notes")
    public String notes() {
      return "Read the notes.";
    }

    @Resource(uri = "notes://today", description = "Today's note", mimeType = "text/plain")
    public String today() {
      return "buy milk";
    }
  }
}
