package dev.mcpfusion.framework.states;

import dev.mcpfusion.annotation.AllowedIn;
import dev.mcpfusion.annotation.Mutation;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.annotation.States;
import dev.mcpfusion.annotation.Tags;
import dev.mcpfusion.annotation.Transition;
import jakarta.validation.constraints.NotBlank;

/**
 * An order's workflow: {@code show} in every state, {@code pay} only in draft (moving to paid),
 * {@code ship} only in paid (moving to shipped), {@code cancel} in draft or paid.
 */
@Router(value = "orders", description = "One order: pay, ship or cancel it", tags = "orders")
@States(initial = "draft", value = {"draft", "paid", "shipped"})
public class OrderTools {
  @Query(description = "Show the order")
  @Tags("read")
  public String show(@NotBlank String id) {
    return "order " + id;
  }

  @Mutation(description = "Pay the order")
  @AllowedIn("draft")
  @Transition(to = "paid")
  @Tags("write")
  public String pay(@NotBlank String id) {
    return "paid " + id;
  }

  @Mutation(description = "Ship the paid order")
  @AllowedIn("paid")
  @Transition(to = "shipped")
  @Tags("write")
  public String ship(@NotBlank String id) {
    return "shipped " + id;
  }

  @Mutation(description = "Cancel the order")
  @AllowedIn({"draft", "paid"})
  @Tags({"write", "admin"})
  public String cancel(@NotBlank String id) {
    return "cancelled " + id;
  }
}
