package dev.mcpfusion.core.spi;

import dev.mcpfusion.annotation.CachePolicy;
import java.util.List;

/**
 * One action of a router, as the processor resolved it.
 *
 * @param name the action name, {@code [a-z][a-z0-9_]*}
 * @param methodName the Java method name
 * @param description the resolved description (explicit, else the Javadoc's first sentence; never empty)
 * @param verb query, mutation or neutral action
 * @param readOnlyHint resolved MCP hint
 * @param destructiveHint resolved MCP hint
 * @param idempotentHint resolved MCP hint
 * @param openWorldHint resolved MCP hint
 * @param fields the JSON input fields, router-wide (common) fields first, then parameters in order
 * @param contextParameters the parameters filled from context, in order
 * @param presenter the presenter of the result, or {@code null} when the result needs none
 * @param resultShape how the method returns its data
 * @param elementKind what one item of the result is
 * @param resultSchemaJson for a result without presenter ({@link ResultShape#VALUE}): the JSON
 *     Schema of the value, used for a {@code {"result": ...}} output branch; otherwise {@code null}
 * @param cachePolicy the {@code @CacheControl} policy ({@link CachePolicy#DEFAULT} if none)
 * @param invalidates the {@code @Invalidates} patterns (logical, e.g. {@code billing.*})
 * @param middleware the method-level {@code @Use} classes, in order
 * @param parameterTypes the erased Java parameter types, for executable validation
 * @param beanValidation whether a parameter carries a constraint the generated code cannot check
 *     (a custom {@code @Constraint} or {@code @Valid}) so the runtime must run Bean Validation
 * @param title the MCP title ({@code title =} on the verb), or {@code ""} for none
 */
public record ActionDescriptor(
    String name,
    String methodName,
    String description,
    Verb verb,
    boolean readOnlyHint,
    boolean destructiveHint,
    boolean idempotentHint,
    boolean openWorldHint,
    List<FieldDescriptor> fields,
    List<ContextParameter> contextParameters,
    PresenterBinding<?, ?> presenter,
    ResultShape resultShape,
    ElementKind elementKind,
    String resultSchemaJson,
    CachePolicy cachePolicy,
    List<String> invalidates,
    List<Class<?>> middleware,
    List<Class<?>> parameterTypes,
    boolean beanValidation,
    String title) {

  public ActionDescriptor {
    title = title == null ? "" : title;
    fields = List.copyOf(fields);
    contextParameters = List.copyOf(contextParameters);
    invalidates = List.copyOf(invalidates);
    middleware = List.copyOf(middleware);
    parameterTypes = List.copyOf(parameterTypes);
  }

  /** An action without a title: every component but {@code title}, in order. */
  public ActionDescriptor(String name, String methodName, String description, Verb verb,
      boolean readOnlyHint, boolean destructiveHint, boolean idempotentHint, boolean openWorldHint,
      List<FieldDescriptor> fields, List<ContextParameter> contextParameters,
      PresenterBinding<?, ?> presenter, ResultShape resultShape, ElementKind elementKind,
      String resultSchemaJson, CachePolicy cachePolicy, List<String> invalidates,
      List<Class<?>> middleware, List<Class<?>> parameterTypes, boolean beanValidation) {
    this(name, methodName, description, verb, readOnlyHint, destructiveHint, idempotentHint,
        openWorldHint, fields, contextParameters, presenter, resultShape, elementKind,
        resultSchemaJson, cachePolicy, invalidates, middleware, parameterTypes, beanValidation, "");
  }

  /** The names of the required input fields, in field order. */
  public List<String> requiredFields() {
    return fields.stream().filter(FieldDescriptor::required).map(FieldDescriptor::name).toList();
  }
}
