package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The workflow states of a {@link Router}: each session starts in {@link #initial()}, sees only the
 * actions its current state allows ({@link AllowedIn}), and moves when an action marked
 * {@link Transition} succeeds.
 *
 * <pre>{@code
 * @Router("orders")
 * @States(initial = "draft", value = {"draft", "paid", "shipped"})
 * public class OrderTools {
 *   @Mutation(description = "Pay the order") @AllowedIn("draft") @Transition(to = "paid")
 *   public Order pay(String id) { ... }
 *
 *   @Mutation(description = "Ship the order") @AllowedIn("paid") @Transition(to = "shipped")
 *   public Order ship(String id) { ... }
 * }
 * }</pre>
 *
 * <p>{@code tools/list} shows a session only the actions its state allows (an action without
 * {@link AllowedIn} is allowed in every state); a call outside its state is refused with a
 * {@code WRONG_STATE} envelope naming the state and the actions that lead to one where it is
 * allowed; a successful transition sends {@code notifications/tools/list_changed}. The processor
 * checks that every state named exists ({@code [fusion/UnknownState]}). The stateless 2026-07-28
 * era has no session, so it shows and allows every action.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface States {
  /** The states, each a name such as {@code draft}. */
  String[] value();

  /** The state a session starts in; one of {@link #value()}. */
  String initial();
}
