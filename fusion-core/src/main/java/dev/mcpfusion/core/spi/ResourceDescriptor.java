package dev.mcpfusion.core.spi;

import java.util.List;
import java.util.Objects;

/**
 * One {@code @Resource} method: a resource, or a resource template when {@link #variables()} is
 * not empty.
 *
 * @param uri the URI or URI template ({@code billing://invoices/{id}})
 * @param name the MCP name
 * @param methodName the Java method name
 * @param title the MCP title, or {@code ""}
 * @param description the resolved description (never empty)
 * @param mimeType the resolved MIME type
 * @param variables the template variables, in URI order; empty for a static resource
 * @param contextParameters the parameters filled from context, in order
 * @param presenter the presenter of the result, or {@code null}
 * @param binary whether the method returns bytes (sent as a base64 {@code blob})
 * @param middleware the method-level {@code @Use} classes, in order
 * @param icons the icons, in the order written; empty sends no {@code icons}
 * @param scopes the OAuth scopes a caller needs to see and read it ({@code @Scopes} of its class
 *     and its method); empty for none
 */
public record ResourceDescriptor(
    String uri,
    String name,
    String methodName,
    String title,
    String description,
    String mimeType,
    List<String> variables,
    List<ContextParameter> contextParameters,
    PresenterBinding<?, ?> presenter,
    boolean binary,
    List<Class<?>> middleware,
    List<IconDescriptor> icons,
    List<String> scopes) {

  public ResourceDescriptor {
    variables = List.copyOf(variables);
    contextParameters = List.copyOf(contextParameters);
    middleware = List.copyOf(middleware);
    icons = List.copyOf(icons);
    scopes = scopes == null ? List.of() : List.copyOf(scopes);
  }

  /** A resource that requires no scope: every component but {@code scopes}, in order. */
  public ResourceDescriptor(String uri, String name, String methodName, String title,
      String description, String mimeType, List<String> variables,
      List<ContextParameter> contextParameters, PresenterBinding<?, ?> presenter, boolean binary,
      List<Class<?>> middleware, List<IconDescriptor> icons) {
    this(uri, name, methodName, title, description, mimeType, variables, contextParameters,
        presenter, binary, middleware, icons, List.of());
  }

  /** A resource without icons. */
  public ResourceDescriptor(String uri, String name, String methodName, String title,
      String description, String mimeType, List<String> variables,
      List<ContextParameter> contextParameters, PresenterBinding<?, ?> presenter, boolean binary,
      List<Class<?>> middleware) {
    this(uri, name, methodName, title, description, mimeType, variables, contextParameters,
        presenter, binary, middleware, List.of());
  }

  /** Whether this is a resource template. */
  public boolean template() {
    return !variables.isEmpty();
  }

  /**
   * Starts the resource (or template) at {@code uri}, named {@code name}:
   * {@code ResourceDescriptor.builder("billing://invoices/{id}", "invoice").method("invoice")
   * .description("...").mimeType("application/json").variables("id").build()}. Left out, the title
   * is {@code ""}, the lists (icons among them) are empty and the resource is text.
   */
  public static Builder builder(String uri, String name) {
    return new Builder(uri, name);
  }

  /** Builds a {@link ResourceDescriptor} with named calls. */
  public static final class Builder extends MemberBuilder<Builder> {
    private final String uri;
    private final String name;
    private String mimeType;
    private List<String> variables = List.of();
    private boolean binary;

    private Builder(String uri, String name) {
      this.uri = Objects.requireNonNull(uri, "uri");
      this.name = Objects.requireNonNull(name, "name");
    }

    /** The resolved MIME type (required). */
    public Builder mimeType(String mimeType) {
      this.mimeType = mimeType;
      return this;
    }

    /** The template variables, in URI order. */
    public Builder variables(String... variables) {
      this.variables = List.of(variables);
      return this;
    }

    /** Whether the method returns bytes, sent as a base64 {@code blob}. */
    public Builder binary(boolean binary) {
      this.binary = binary;
      return this;
    }

    /** The descriptor; fails naming the URI when the method, description or MIME type is missing. */
    public ResourceDescriptor build() {
      String missing = missing() != null ? missing() : mimeType == null ? "mimeType(...)" : null;
      if (missing != null) {
        throw new IllegalStateException("ResourceDescriptor '" + uri + "' needs " + missing
            + " before build()");
      }
      return new ResourceDescriptor(uri, name, methodName, title, description, mimeType,
          variables, contextParameters, presenter, binary, middleware, icons, scopes);
    }
  }
}
