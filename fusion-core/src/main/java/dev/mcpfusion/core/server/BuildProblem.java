package dev.mcpfusion.core.server;

import java.util.Locale;

/**
 * The catalogue of what {@code FusionServer.Builder.build()} refuses: each entry has a stable code
 * (printed as {@code [fusion/Code]}), the format of what is wrong and the format of the fix.
 * Several entries may share a code when one rule is broken in different shapes.
 *
 * <p>The formats are {@link String#format} patterns; problem and fix share one argument list. The
 * {@code build()} table of {@code docs/diagnostics.md} lists every code with an example
 * ({@code BuildProblemCatalogueTest} keeps the two in step).
 */
enum BuildProblem {
  INVALID_SEPARATOR("InvalidSeparator",
      "The FLAT separator is '%s', but tool names allow only '_' or '-' between router and action.",
      "Use separator(\"_\") (the default) or separator(\"-\")."),
  DUPLICATE_ROUTER("DuplicateRouter",
      "Two routers are named '%s': %s and %s.",
      "Rename one with @Router(\"...\") or register only one of them."),
  NO_ACTIONS("NoActions",
      "Router '%s' (%s) has no actions.",
      "Add a @Query, @Mutation or @Action method, or do not register it."),
  PRESENTER_SPI_MISMATCH("SpiVersionMismatch",
      "The presenter %s of %s was generated for SPI version %s, but this fusion-core implements"
          + " version %s.",
      "Rebuild with the fusion-processor version that matches fusion-core."),
  ROUTER_SPI_MISMATCH("SpiVersionMismatch",
      "%s was generated for SPI version %s, but this fusion-core implements version %s.",
      "Rebuild with the fusion-processor version that matches fusion-core."),
  PRESENTER_FAILED("PresenterFailed",
      "The presenter of %s failed to give its static rules (%s).",
      "Fix its staticRules() method."),
  DISCRIMINATOR_CLASH("DiscriminatorClash",
      "%s.%s has an input field named 'action', which GROUPED exposition uses to select the"
          + " action.",
      "Rename the field or use FLAT exposition."),
  INPUT_SCHEMA_GROUPED("InputSchemaGrouped",
      "%s.%s describes its input with an @InputSchema document, which GROUPED exposition cannot"
          + " merge into the one schema of its router's tool.",
      "Expose this server FLAT, or describe the input with parameters."),
  INPUT_SCHEMA_INVALID("InputSchemaInvalid",
      "%s: its input schema document does not compile (%s).",
      "Fix the document; fusion-processor checks it at compile time, so rebuild the connector."),
  INVALID_TOOL_NAME("InvalidToolName",
      "The tool name '%s' of %s does not match ^[a-zA-Z0-9_-]{1,64}$ (clients drop a whole"
          + " connector for one bad name).",
      "Shorten or rename the router or action."),
  DUPLICATE_TOOL_NAME("DuplicateToolName",
      "The tool name '%s' is used by %s and by %s.",
      "Rename one of the routers or actions."),
  CONTEXT_NOT_PROVIDED("ContextNotProvided",
      "%s(%s): nothing provides @Context %s.",
      "Register a provider with FusionServer.builder(...).context(%3$s.class, request -> ...), or"
          + " a middleware on this action whose provides() includes %3$s.class."),
  NOT_A_ROUTER("NotARouter",
      "%s is not annotated @Router, so it has no tools.",
      "Annotate it with @Router(\"name\") or register a router instance."),
  GENERATED_CLASS_MISSING("GeneratedClassMissing",
      "The generated class %s of @Router %s was not found: the annotation processor did not run.",
      "Fix: " + ToolRegistry.PROCESSOR_FIX + "."),
  GENERATED_BIND_MISSING("GeneratedClassMismatch",
      "%s has no public static GeneratedRouter bind(%s).",
      "Rebuild with the fusion-processor version that matches fusion-core."),
  GENERATED_METHOD_MISSING("GeneratedClassMismatch",
      "%s with parameters %s does not exist.",
      "Rebuild with the fusion-processor version that matches fusion-core."),
  BIND_FAILED("BindFailed",
      "%s.bind(...) failed.",
      "Its exception is the cause of this one."),
  BIND_INACCESSIBLE("BindFailed",
      "%s.bind(...) is not accessible;",
      "open its package to dev.mcpfusion.core or register %1$s.bind(router)."),
  BEAN_VALIDATION_NEEDS_INSTANCE("BeanValidationNeedsInstance",
      "%s has a custom constraint or @Valid, which Hibernate Validator checks on the router"
          + " instance.",
      "Register the instance with register(new %s(...)) instead of its X_Fusion.bind(...)."),
  UNKNOWN_ACTION_REFERENCE("UnknownReference",
      "%s names '%s', but router '%s' has no action '%s'.%s",
      "Name one of its actions: %s."),
  UNKNOWN_ROUTER_REFERENCE("UnknownReference",
      "%s names '%s', but no registered router is named '%s'.%s",
      "Register that router, or name one of: %s."),
  NOT_A_MIDDLEWARE("NotAMiddleware",
      "@Use(%s.class) on %s: %s does not implement dev.mcpfusion.core.FusionMiddleware.",
      "Implement it or remove it from @Use."),
  MIDDLEWARE_ABSTRACT("MiddlewareNotConstructible",
      "@Use(%s.class) on %s: %s is abstract and no instance is registered.",
      "Register an instance: FusionServer.builder(...).provide(new %1$s(...))."),
  MIDDLEWARE_NO_CONSTRUCTOR("MiddlewareNotConstructible",
      "@Use(%s.class) on %s: %s has no registered instance and no no-arg constructor.",
      "Register an instance: FusionServer.builder(...).provide(new %1$s(...))."),
  MIDDLEWARE_CONSTRUCTOR_FAILED("MiddlewareNotConstructible",
      "@Use(%s.class) on %s: its no-arg constructor failed.",
      "Register an instance: FusionServer.builder(...).provide(new %1$s(...))."),
  MIDDLEWARE_NOT_CONSTRUCTED("MiddlewareNotConstructible",
      "@Use(%s.class) on %s: %s could not be constructed (%s).",
      "Register an instance: FusionServer.builder(...).provide(new %1$s(...))."),
  INVALID_LIMITS("InvalidLimits",
      "%s: @Limits(%s = %s) must be at least %s.",
      "Set a value of %4$s or more, or -1 to inherit."),
  DUPLICATE_PROMPT("DuplicatePrompt",
      "The prompt name '%s' is used by %s and by %s.",
      "Rename one with @Prompt(name = \"...\")."),
  DUPLICATE_RESOURCE("DuplicateResource",
      "The resource URI '%s' is served by %s and by %s.",
      "Give each resource its own URI."),
  GENERATED_FEATURES_MISSING("GeneratedClassMissing",
      "The generated class %s of %s (it has @Prompt, @Resource or @Complete methods) was not found:"
          + " the annotation processor did not run.",
      "Fix: " + ToolRegistry.PROCESSOR_FIX + "."),
  GENERATED_FEATURES_BIND_MISSING("GeneratedClassMismatch",
      "%s has no public static GeneratedFeatures bind(%s).",
      "Rebuild with the fusion-processor version that matches fusion-core."),
  TOON_MISSING("ToonMissing",
      "%s presents its result with %s, declared @Presenter(format = TOON), but dev.toonformat:jtoon"
          + " is not on the class path.",
      "Add the dependency dev.toonformat:jtoon (fusion-bom manages its version) or use"
          + " format = JSON."),
  TOON_DESCRIPTIONS_MISSING("ToonMissing",
      "toonDescriptions(true) writes GROUPED descriptions as TOON tables, but dev.toonformat:jtoon"
          + " is not on the class path.",
      "Add the dependency dev.toonformat:jtoon (fusion-bom manages its version) or drop"
          + " toonDescriptions(true)."),
  REDACT_PATH_INVALID("RedactPath",
      "%s: the redaction path \"%s\" is not valid: '%s' is not a field name.",
      "Write an exact path (\"a.b\"), a list element path (\"items[*].cardNumber\") or an"
          + " any-depth path (\"*.email\")."),
  REDACT_PATH_UNMATCHED("RedactPath",
      "@Redact path \"%s\" of %s matches no field of the view.",
      "Name a field it exposes (paths are relative to one view: \"email\", \"cards[*].number\","
          + " \"*.email\")."),
  REDACT_PATH_NOT_TEXT("RedactPath",
      "@Redact path \"%s\" of %s ends on '%s' (%s); only text can be masked without breaking the"
          + " output schema.",
      "Point it at a String field (or a list of strings), or expose the value as a String in the"
          + " view.");

  private final String code;
  private final String problem;
  private final String fix;

  BuildProblem(String code, String problem, String fix) {
    this.code = code;
    this.problem = problem;
    this.fix = fix;
  }

  /** The stable code, without the {@code fusion/} prefix: {@code ContextNotProvided}. */
  String code() {
    return code;
  }

  /** The format of what is wrong. */
  String problem() {
    return problem;
  }

  /** The format of the fix. */
  String fix() {
    return fix;
  }

  /**
   * The whole line: {@code [fusion/Code] problem fix}, formatted with {@code args}. (A problem whose
   * fix comes with its detail, as the redaction compiler's messages do, has an empty fix.)
   */
  String text(Object... args) {
    return "[fusion/" + code + "] "
        + String.format(Locale.ROOT, fix.isEmpty() ? problem : problem + " " + fix, args);
  }
}
