package dev.mcpfusion.core.server;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What Hibernate Validator needs to check one action's parameters (custom {@code @Constraint}s and
 * {@code @Valid}): the router instance, the method and, per parameter slot, the JSON path the agent
 * knows it by.
 *
 * @param target the router instance
 * @param method the action method
 * @param slots per parameter: the JSON field name; {@link #COMMON} for the router-wide record
 *     (flattened, its components are top-level fields); {@code null} for a context parameter
 */
public record ExecutableTarget(Object target, Method method, List<String> slots) {
  /** The slot of the router-wide ({@code common}) record parameter. */
  public static final String COMMON = "";

  public ExecutableTarget {
    slots = Collections.unmodifiableList(new ArrayList<>(slots));
  }
}
