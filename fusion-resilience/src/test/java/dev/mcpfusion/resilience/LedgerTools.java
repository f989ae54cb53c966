package dev.mcpfusion.resilience;

import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;
import jakarta.validation.constraints.NotBlank;
import java.io.IOException;

/** A router whose one action reads from an upstream service through its circuit breaker. */
@Router(value = "ledger", description = "Reads balances from the ledger service")
public final class LedgerTools {
  /** The upstream service. */
  public interface LedgerApi {
    String balance(String account) throws IOException;
  }

  private final Upstreams upstreams;
  private final LedgerApi api;

  public LedgerTools(Upstreams upstreams, LedgerApi api) {
    this.upstreams = upstreams;
    this.api = api;
  }

  @Query(description = "The balance of an account")
  public String balance(@NotBlank @Describe("The account id") String account) throws IOException {
    return upstreams.upstream("ledger-api").call(() -> api.balance(account));
  }
}
