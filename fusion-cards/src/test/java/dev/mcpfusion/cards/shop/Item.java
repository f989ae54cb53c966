package dev.mcpfusion.cards.shop;

import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Hidden;
import dev.mcpfusion.annotation.Model;

/** An item of the shop; its supplier secret must never reach a card. */
@Model(description = "A shop item")
public record Item(@Describe("Item id") String id, @Describe("What it is called") String title,
    @Hidden String supplierSecret) {}
