package dev.mcpfusion.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A next action suggested to the agent, written with a logical reference such as
 * {@code billing.void_invoice}; the framework renders it as the agent can call it (FLAT
 * {@code billing_void_invoice}, GROUPED {@code billing (action: void_invoice)}). A string literal
 * or {@code static final} constant written in {@code Suggestion.of(...)} is checked by the
 * annotation processor against the routers of the same compilation ({@code
 * [fusion/UnknownReference]}, with "Did you mean"). One that names a router of another module is
 * recorded in the generated class and checked at {@code build()} against every registered router,
 * with the same message, when it is written in a {@code @Router} class (listed by its
 * {@code X_Fusion}) or in a {@code @Presenter} view (listed by its {@code V_Presenter}, with those
 * of the views nested in it whose {@code @Rules} run when it is shown; checked for every action it
 * presents). Not checked: a reference computed at run time, one written in another class (a
 * helper that builds suggestions for several views: the processor cannot tell what reaches it),
 * and one in a view that presents no registered action; such a reference is rendered as written
 * when it names no registered action.
 *
 * @param action the logical action reference {@code router.action}
 * @param reason why the agent might call it
 * @param arguments suggested arguments (may be empty), rendered as compact JSON
 */
public record Suggestion(String action, String reason, Map<String, Object> arguments) {

  public Suggestion {
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(reason, "reason");
    arguments = arguments == null || arguments.isEmpty()
        ? Map.of()
        : Collections.unmodifiableMap(new LinkedHashMap<>(arguments));
  }

  /** A suggestion without arguments. */
  public static Suggestion of(String action, String reason) {
    return new Suggestion(action, reason, Map.of());
  }

  /** A suggestion with arguments (iteration order of {@code arguments} is kept). */
  public static Suggestion of(String action, String reason, Map<String, ?> arguments) {
    return new Suggestion(action, reason, arguments == null ? Map.of() : new LinkedHashMap<>(arguments));
  }
}
