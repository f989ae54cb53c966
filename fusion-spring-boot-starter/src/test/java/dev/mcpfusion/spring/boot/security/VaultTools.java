package dev.mcpfusion.spring.boot.security;

import dev.mcpfusion.annotation.Context;
import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Mutation;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.annotation.Scopes;
import dev.mcpfusion.core.Caller;
import jakarta.validation.constraints.NotBlank;

/** The protected router of the Spring Security tests: reading needs {@code vault:read}, storing {@code vault:write} too. */
@Router(value = "vault", description = "The vault")
@Scopes("vault:read")
public class VaultTools {
  @Query(description = "Who is calling, as the handler sees it")
  public String whoami(@Context Caller caller, @Context Tenant tenant) {
    return "subject=" + caller.subject().orElse("-") + " client=" + caller.clientId().orElse("-")
        + " scopes=" + String.join(",", caller.scopes()) + " tenant=" + tenant.id();
  }

  @Mutation(description = "Store an item")
  @Scopes("vault:write")
  public String store(@NotBlank @Describe("The item") String item, @Context Caller caller) {
    return "stored " + item + " for " + caller.subject().orElseThrow();
  }
}
