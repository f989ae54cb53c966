package dev.mcpfusion.core.spi;

import dev.mcpfusion.annotation.Router;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A router as the processor saw it. Generated code builds it with named calls:
 * {@code RouterDescriptor.builder("billing", BillingTools.class).description("...")
 * .commonFields(common).actions(actions).middleware(TenantGuard.class).build()}; left out, the
 * description is empty and the lists are empty.
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

  /**
   * The FLAT tool name of this router's action {@code action}: {@code <router><separator><action>},
   * or the action alone when {@link #routerType()} says {@code @Router(prefixed = false)} (a
   * descriptor of a class without {@code @Router} keeps the prefix).
   */
  public String flatToolName(String separator, String action) {
    Router router = routerType.getAnnotation(Router.class);
    return router == null || router.prefixed() ? name + separator + action : action;
  }

  /** Starts the descriptor of router {@code name}, declared by {@code routerType}. */
  public static Builder builder(String name, Class<?> routerType) {
    return new Builder(name, routerType);
  }

  /** Builds a {@link RouterDescriptor} with named calls. */
  public static final class Builder {
    private final String name;
    private final Class<?> routerType;
    private String description = "";
    private List<FieldDescriptor> commonFields = List.of();
    private List<ActionDescriptor> actions = List.of();
    private List<Class<?>> middleware = List.of();

    private Builder(String name, Class<?> routerType) {
      this.name = Objects.requireNonNull(name, "name");
      this.routerType = Objects.requireNonNull(routerType, "routerType");
    }

    /** The router description. */
    public Builder description(String description) {
      this.description = Objects.requireNonNull(description, "description");
      return this;
    }

    /** The fields of {@code @Router(common = ...)}, in component order. */
    public Builder commonFields(List<FieldDescriptor> fields) {
      this.commonFields = fields;
      return this;
    }

    /** The actions, in source order. */
    public Builder actions(List<ActionDescriptor> actions) {
      this.actions = actions;
      return this;
    }

    /** The router-level {@code @Use} classes, in order. */
    public Builder middleware(Class<?>... classes) {
      this.middleware = Arrays.asList(classes);
      return this;
    }

    /** The descriptor. */
    public RouterDescriptor build() {
      return new RouterDescriptor(name, description, routerType, commonFields, actions, middleware);
    }
  }
}
