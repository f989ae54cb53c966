package dev.mcpfusion.core.spi;

import java.util.List;

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
    List<Class<?>> middleware) {

  public ResourceDescriptor {
    variables = List.copyOf(variables);
    contextParameters = List.copyOf(contextParameters);
    middleware = List.copyOf(middleware);
  }

  /** Whether this is a resource template. */
  public boolean template() {
    return !variables.isEmpty();
  }
}
