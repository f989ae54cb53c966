package dev.mcpfusion.cards.shop;

import dev.mcpfusion.annotation.Mutation;
import dev.mcpfusion.annotation.Prompt;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Resource;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.annotation.Scopes;
import java.util.List;

/**
 * The connector the card tests describe: one public query, prompt and resource, and a mutation,
 * prompt and resource that need {@code shop:admin}, whose names a card must not show.
 */
@Router(value = "shop", description = "The shop's items")
public final class ShopTools {
  @Query(description = "List the items", presenter = ItemView.class)
  public List<Item> listItems() {
    return List.of(new Item("I-1", "Lamp", "s3cr3t"));
  }

  @Mutation(description = "Purge every item", presenter = ItemView.class)
  @Scopes("shop:admin")
  public List<Item> purgeItems() {
    return List.of();
  }

  @Prompt(description = "Suggest an item")
  public String suggest() {
    return "Suggest an item.";
  }

  @Prompt(description = "Audit the stock")
  @Scopes("shop:admin")
  public String auditStock() {
    return "Audit the stock.";
  }

  @Resource(uri = "shop://catalog", description = "The catalog", mimeType = "text/plain")
  public String catalog() {
    return "Lamp";
  }

  @Resource(uri = "shop://ledger", description = "The supplier ledger", mimeType = "text/plain")
  @Scopes("shop:admin")
  public String ledger() {
    return "secret";
  }
}
