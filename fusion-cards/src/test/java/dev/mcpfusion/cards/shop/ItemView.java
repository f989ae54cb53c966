package dev.mcpfusion.cards.shop;

import dev.mcpfusion.annotation.Presenter;

/** What an agent sees of an item. */
@Presenter(model = Item.class, select = true)
public record ItemView(String id, String title) {}
