package dev.mcpfusion.core.spi;

import java.util.List;
import java.util.Objects;

/**
 * One {@code @Prompt} method.
 *
 * @param name the prompt name, unique across the server
 * @param methodName the Java method name
 * @param title the MCP title, or {@code ""}
 * @param description the resolved description (never empty)
 * @param arguments the arguments, in parameter order
 * @param contextParameters the parameters filled from context, in order
 * @param presenter the presenter of the prompt's data, or {@code null}
 * @param middleware the method-level {@code @Use} classes, in order
 * @param icons the icons, in the order written; empty sends no {@code icons}
 * @param scopes the OAuth scopes a caller needs to see and get it ({@code @Scopes} of its class
 *     and its method); empty for none
 */
public record PromptDescriptor(
    String name,
    String methodName,
    String title,
    String description,
    List<PromptArgument> arguments,
    List<ContextParameter> contextParameters,
    PresenterBinding<?, ?> presenter,
    List<Class<?>> middleware,
    List<IconDescriptor> icons,
    List<String> scopes) {

  public PromptDescriptor {
    arguments = List.copyOf(arguments);
    contextParameters = List.copyOf(contextParameters);
    middleware = List.copyOf(middleware);
    icons = List.copyOf(icons);
    scopes = scopes == null ? List.of() : List.copyOf(scopes);
  }

  /** A prompt that requires no scope: every component but {@code scopes}, in order. */
  public PromptDescriptor(String name, String methodName, String title, String description,
      List<PromptArgument> arguments, List<ContextParameter> contextParameters,
      PresenterBinding<?, ?> presenter, List<Class<?>> middleware, List<IconDescriptor> icons) {
    this(name, methodName, title, description, arguments, contextParameters, presenter,
        middleware, icons, List.of());
  }

  /** A prompt without icons. */
  public PromptDescriptor(String name, String methodName, String title, String description,
      List<PromptArgument> arguments, List<ContextParameter> contextParameters,
      PresenterBinding<?, ?> presenter, List<Class<?>> middleware) {
    this(name, methodName, title, description, arguments, contextParameters, presenter,
        middleware, List.of());
  }

  /**
   * Starts prompt {@code name}: {@code PromptDescriptor.builder("overdue").method("overdue")
   * .description("...").arguments(PromptArgument.required("audience", "")).build()}. Left out,
   * the title is {@code ""} and the lists (icons among them) are empty.
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** Builds a {@link PromptDescriptor} with named calls. */
  public static final class Builder extends MemberBuilder<Builder> {
    private final String name;
    private List<PromptArgument> arguments = List.of();

    private Builder(String name) {
      this.name = Objects.requireNonNull(name, "name");
    }

    /** The arguments, in parameter order. */
    public Builder arguments(PromptArgument... arguments) {
      this.arguments = List.of(arguments);
      return this;
    }

    /** The descriptor; fails naming the prompt when the method name or description is missing. */
    public PromptDescriptor build() {
      String missing = missing();
      if (missing != null) {
        throw new IllegalStateException("PromptDescriptor '" + name + "' needs " + missing
            + " before build()");
      }
      return new PromptDescriptor(name, methodName, title, description, arguments,
          contextParameters, presenter, middleware, icons, scopes);
    }
  }
}
