package dev.mcpfusion.framework.states;

import dev.mcpfusion.annotation.Mutation;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.annotation.Tags;

/** A router without states: {@code search} is tagged read, {@code purge} admin. */
@Router(value = "catalog", description = "The catalog: search or purge it")
public class CatalogTools {
  @Query(description = "Search the catalog")
  @Tags("read")
  public String search(String text) {
    return "found " + text;
  }

  @Mutation(description = "Purge the catalog")
  @Tags("admin")
  public String purge() {
    return "purged";
  }
}
