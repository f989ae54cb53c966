package dev.mcpfusion.core.spi;

import dev.mcpfusion.annotation.CachePolicy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One action of a router, as the processor resolved it.
 *
 * <p>Generated code builds it with named calls, starting from the verb:
 *
 * <pre>{@code
 * ActionDescriptor.query("get_invoice")
 *     .method("getInvoice")
 *     .description("Get one invoice")
 *     .readOnly(true)
 *     .fields(...)
 *     .presenter(InvoiceView_Presenter.INSTANCE)
 *     .result(ResultShape.SINGLE, ElementKind.MODEL)
 *     .build()
 * }</pre>
 *
 * Every setting left out keeps its default: hints {@code false}, no fields, context parameters,
 * presenter, result schema, invalidations, middleware or parameter types, result {@link
 * ResultShape#VOID}/{@link ElementKind#NONE}, cache {@link CachePolicy#DEFAULT}.
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
 * @param inputSchemaJson the action's whole input schema, compact JSON, when an
 *     {@code @InputSchema} document describes it (then {@code fields} is empty and the tool lists
 *     this document unchanged); {@code null} when its fields describe it
 * @param scopes the OAuth scopes a caller needs to see and call it (its router's {@code @Scopes}
 *     and its own), empty for none
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
    String title,
    String inputSchemaJson,
    List<String> scopes) {

  public ActionDescriptor {
    title = title == null ? "" : title;
    scopes = scopes == null ? List.of() : List.copyOf(scopes);
    fields = List.copyOf(fields);
    contextParameters = List.copyOf(contextParameters);
    invalidates = List.copyOf(invalidates);
    middleware = List.copyOf(middleware);
    parameterTypes = List.copyOf(parameterTypes);
  }

  /**
   * An action that requires no scope: every component but {@code scopes}, in order (as generated
   * before scopes were recorded).
   */
  public ActionDescriptor(String name, String methodName, String description, Verb verb,
      boolean readOnlyHint, boolean destructiveHint, boolean idempotentHint, boolean openWorldHint,
      List<FieldDescriptor> fields, List<ContextParameter> contextParameters,
      PresenterBinding<?, ?> presenter, ResultShape resultShape, ElementKind elementKind,
      String resultSchemaJson, CachePolicy cachePolicy, List<String> invalidates,
      List<Class<?>> middleware, List<Class<?>> parameterTypes, boolean beanValidation,
      String title, String inputSchemaJson) {
    this(name, methodName, description, verb, readOnlyHint, destructiveHint, idempotentHint,
        openWorldHint, fields, contextParameters, presenter, resultShape, elementKind,
        resultSchemaJson, cachePolicy, invalidates, middleware, parameterTypes, beanValidation, title,
        inputSchemaJson, List.of());
  }

  /**
   * An action whose fields describe its input and that requires no scope: every component but
   * {@code inputSchemaJson} and {@code scopes}, in order.
   */
  public ActionDescriptor(String name, String methodName, String description, Verb verb,
      boolean readOnlyHint, boolean destructiveHint, boolean idempotentHint, boolean openWorldHint,
      List<FieldDescriptor> fields, List<ContextParameter> contextParameters,
      PresenterBinding<?, ?> presenter, ResultShape resultShape, ElementKind elementKind,
      String resultSchemaJson, CachePolicy cachePolicy, List<String> invalidates,
      List<Class<?>> middleware, List<Class<?>> parameterTypes, boolean beanValidation,
      String title) {
    this(name, methodName, description, verb, readOnlyHint, destructiveHint, idempotentHint,
        openWorldHint, fields, contextParameters, presenter, resultShape, elementKind,
        resultSchemaJson, cachePolicy, invalidates, middleware, parameterTypes, beanValidation, title,
        null, List.of());
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

  /** Starts a {@link Verb#QUERY} action named {@code name}. */
  public static Builder query(String name) {
    return new Builder(name, Verb.QUERY);
  }

  /** Starts a {@link Verb#MUTATION} action named {@code name}. */
  public static Builder mutation(String name) {
    return new Builder(name, Verb.MUTATION);
  }

  /** Starts a {@link Verb#ACTION} (neutral) action named {@code name}. */
  public static Builder action(String name) {
    return new Builder(name, Verb.ACTION);
  }

  /** A builder holding every value of this descriptor, to derive a changed copy. */
  public Builder toBuilder() {
    Builder b = new Builder(name, verb);
    b.methodName = methodName;
    b.description = description;
    b.readOnly = readOnlyHint;
    b.destructive = destructiveHint;
    b.idempotent = idempotentHint;
    b.openWorld = openWorldHint;
    b.fields = fields;
    b.contextParameters = new ArrayList<>(contextParameters);
    b.presenter = presenter;
    b.resultShape = resultShape;
    b.elementKind = elementKind;
    b.resultSchemaJson = resultSchemaJson;
    b.cachePolicy = cachePolicy;
    b.invalidates = invalidates;
    b.middleware = middleware;
    b.parameterTypes = parameterTypes;
    b.beanValidation = beanValidation;
    b.title = title;
    b.inputSchemaJson = inputSchemaJson;
    b.scopes = scopes;
    return b;
  }

  /** The names of the required input fields, in field order. */
  public List<String> requiredFields() {
    return fields.stream().filter(FieldDescriptor::required).map(FieldDescriptor::name).toList();
  }

  /** Builds an {@link ActionDescriptor} with named calls; see the type's Javadoc for the defaults. */
  public static final class Builder {
    private final String name;
    private Verb verb;
    private String methodName;
    private String description;
    private boolean readOnly;
    private boolean destructive;
    private boolean idempotent;
    private boolean openWorld;
    private List<FieldDescriptor> fields = List.of();
    private List<ContextParameter> contextParameters = new ArrayList<>();
    private PresenterBinding<?, ?> presenter;
    private ResultShape resultShape = ResultShape.VOID;
    private ElementKind elementKind = ElementKind.NONE;
    private String resultSchemaJson;
    private CachePolicy cachePolicy = CachePolicy.DEFAULT;
    private List<String> invalidates = List.of();
    private List<Class<?>> middleware = List.of();
    private List<Class<?>> parameterTypes = List.of();
    private boolean beanValidation;
    private String title = "";
    private String inputSchemaJson;
    private List<String> scopes = List.of();

    private Builder(String name, Verb verb) {
      this.name = Objects.requireNonNull(name, "name");
      this.verb = Objects.requireNonNull(verb, "verb");
    }

    /** The verb, replacing the one this builder started with. */
    public Builder verb(Verb verb) {
      this.verb = Objects.requireNonNull(verb, "verb");
      return this;
    }

    /** The Java method name (required). */
    public Builder method(String methodName) {
      this.methodName = methodName;
      return this;
    }

    /** The resolved description (required, never empty). */
    public Builder description(String description) {
      this.description = description;
      return this;
    }

    /** The MCP {@code readOnlyHint}. */
    public Builder readOnly(boolean hint) {
      this.readOnly = hint;
      return this;
    }

    /** The MCP {@code destructiveHint}. */
    public Builder destructive(boolean hint) {
      this.destructive = hint;
      return this;
    }

    /** The MCP {@code idempotentHint}. */
    public Builder idempotent(boolean hint) {
      this.idempotent = hint;
      return this;
    }

    /** The MCP {@code openWorldHint}. */
    public Builder openWorld(boolean hint) {
      this.openWorld = hint;
      return this;
    }

    /** The JSON input fields, common fields first. */
    public Builder fields(List<FieldDescriptor> fields) {
      this.fields = fields;
      return this;
    }

    /** Adds a parameter filled from context, after those added before. */
    public Builder context(String parameter, Class<?> type) {
      this.contextParameters.add(new ContextParameter(parameter, type));
      return this;
    }

    /** The presenter of the result ({@code null}: the result needs none). */
    public Builder presenter(PresenterBinding<?, ?> presenter) {
      this.presenter = presenter;
      return this;
    }

    /** How the method returns its data, and what one item of it is. */
    public Builder result(ResultShape shape, ElementKind elementKind) {
      this.resultShape = Objects.requireNonNull(shape, "shape");
      this.elementKind = Objects.requireNonNull(elementKind, "elementKind");
      return this;
    }

    /** The JSON Schema of a result without presenter ({@link ResultShape#VALUE}), or {@code null}. */
    public Builder resultSchema(String json) {
      this.resultSchemaJson = json;
      return this;
    }

    /** The {@code @CacheControl} policy. */
    public Builder cache(CachePolicy policy) {
      this.cachePolicy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** The {@code @Invalidates} patterns. */
    public Builder invalidates(String... patterns) {
      this.invalidates = List.of(patterns);
      return this;
    }

    /** The {@code @Invalidates} patterns. */
    public Builder invalidates(List<String> patterns) {
      this.invalidates = patterns;
      return this;
    }

    /** The method-level {@code @Use} classes, in order. */
    public Builder middleware(Class<?>... classes) {
      this.middleware = Arrays.asList(classes);
      return this;
    }

    /** The erased Java parameter types, in order. */
    public Builder parameterTypes(Class<?>... types) {
      this.parameterTypes = Arrays.asList(types);
      return this;
    }

    /**
     * Whether a parameter carries a constraint only Bean Validation can check (a custom
     * {@code @Constraint} or {@code @Valid}).
     */
    public Builder beanValidation(boolean needed) {
      this.beanValidation = needed;
      return this;
    }

    /** The OAuth scopes a caller needs to see and call the action ({@code @Scopes}). */
    public Builder scopes(String... scopes) {
      this.scopes = List.of(scopes);
      return this;
    }

    /** The MCP title ({@code title =} on the verb); {@code ""} or {@code null} for none. */
    public Builder title(String title) {
      this.title = title == null ? "" : title;
      return this;
    }

    /**
     * The action's whole input schema, compact JSON, from an {@code @InputSchema} document; the
     * action then has no fields.
     */
    public Builder inputSchema(String json) {
      this.inputSchemaJson = json;
      return this;
    }

    /** The descriptor; fails naming the action when the method name or description is missing. */
    public ActionDescriptor build() {
      if (methodName == null || description == null) {
        throw new IllegalStateException("ActionDescriptor '" + name + "' needs "
            + (methodName == null ? "method(...)" : "description(...)") + " before build()");
      }
      return new ActionDescriptor(name, methodName, description, verb, readOnly, destructive,
          idempotent, openWorld, fields, contextParameters, presenter, resultShape, elementKind,
          resultSchemaJson, cachePolicy, invalidates, middleware, parameterTypes, beanValidation,
          title, inputSchemaJson, scopes);
    }
  }
}
