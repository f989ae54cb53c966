package dev.mcpfusion.core.spi;

import java.util.List;

/**
 * A router as the processor saw it.
 *
 * @param name the router name, {@code [a-z][a-z0-9_]*}
 * @param description the router description (may be empty)
 * @param routerType the user's {@code @Router} class
 * @param commonFields the fields of {@code @Router(common = ...)}, in component order (empty if none);
 *     they are also the first entries of every action's {@link ActionDescriptor#fields()}
 * @param actions the actions, in source order; their index is the {@code action} argument of
 *     {@link GeneratedRouter#decode} and {@link GeneratedRouter#invoke}
 * @param middleware the router-level {@code @Use} classes, in order
 */
public record RouterDescriptor(
    String name,
    String description,
    Class<?> routerType,
    List<FieldDescriptor> commonFields,
    List<ActionDescriptor> actions,
    List<Class<?>> middleware) {

  public RouterDescriptor {
    commonFields = List.copyOf(commonFields);
    actions = List.copyOf(actions);
    middleware = List.copyOf(middleware);
  }
}
