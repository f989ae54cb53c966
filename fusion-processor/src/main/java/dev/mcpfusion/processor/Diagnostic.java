package dev.mcpfusion.processor;

import java.util.Locale;

/**
 * The catalogue of everything the processor reports: each entry has a stable code (printed as
 * {@code [fusion/Code]}), a kind, the format of what is wrong and the format of the fix. Several
 * entries may share a code when one rule is broken in different shapes (the code is the contract
 * a build or a {@code @SuppressWarnings} names; the wording can differ).
 *
 * <p>The formats are {@link String#format} patterns; problem and fix share one argument list, so
 * a fix may repeat an argument with {@code %1$s}. The compile-time table of
 * {@code docs/diagnostics.md} lists every code with an example ({@code DiagnosticCatalogueTest}
 * keeps the two in step).
 */
enum Diagnostic {
  // ------------------------------------------------------------------ @Model
  INVALID_MODEL("InvalidModel", Kind.ERROR,
      "%s is annotated @Model but is %s.",
      "Declare the model as a record (or a class with getters)."),
  EMPTY_MODEL("EmptyModel", Kind.WARNING,
      "%s is annotated @Model but has no properties (record components or public getters).",
      "Add the properties a presenter may expose."),

  // ------------------------------------------------------------------ @Presenter
  PRESENTER_NOT_RECORD("PresenterNotRecord", Kind.ERROR,
      "%s is annotated @Presenter but is not a record.",
      "Declare the view as a record whose components are the exposed fields."),
  INVALID_AGENT_LIMIT("InvalidAgentLimit", Kind.ERROR,
      "%s sets agentLimit = %s, but at least one item must reach the agent.",
      "Use a limit of 1 or more."),
  PRESENTER_MODEL_NOT_A_TYPE("PresenterModelMismatch", Kind.ERROR,
      "%s names %s as its model.",
      "Name a record or class: @Presenter(model = Invoice.class)."),
  UNKNOWN_VIEW_COMPONENT("UnknownViewComponent", Kind.ERROR,
      "%s declares '%s', which is not a property of %s.%s",
      "Rename it to a property of %3$s or remove it."),
  UNKNOWN_IGNORED_PROPERTY("UnknownViewComponent", Kind.ERROR,
      "%s ignores '%s', which is not a property of %s.%s",
      "Remove it from @Presenter(ignore)."),
  HIDDEN_FIELD_EXPOSED("HiddenFieldExposed", Kind.ERROR,
      "%s exposes '%s', which %s marks %s.",
      "Remove it from the view or drop %4$s."),
  NULLNESS_INVISIBLE("NullnessInvisible", Kind.WARNING,
      "%s.%s is read from a class file, and this javac does not show its type-use @Nullable to"
          + " annotation processors; the processor read it from the class file and treats '%s' as"
          + " nullable.",
      "Build with JDK 22+ or compile %1$s in the same module to make it visible."),
  UNMAPPED_PROPERTY("UnmappedProperty", Kind.WARNING,
      "%s neither exposes nor hides '%s' of %s.",
      "Add it to the view, list it in @Presenter(ignore = \"%2$s\"), or mark it @Hidden on %3$s."),
  RECURSIVE_VIEW("UnsupportedViewType", Kind.ERROR,
      "%s contains itself through nested views, so its output schema would be infinite.",
      "Break the cycle with a smaller view."),
  UNSUPPORTED_VIEW_TYPE("UnsupportedViewType", Kind.ERROR,
      "%s has type %s, which a view cannot expose.",
      Views.SUPPORTED),
  VIEW_NESTED_IN_CONTAINER("UnsupportedViewType", Kind.ERROR,
      "%s nests %s inside a collection or Optional, which a view cannot expose.",
      Views.SUPPORTED),
  RAW_VIEW_TYPE("UnsupportedViewType", Kind.ERROR,
      "%s has the raw type %s.",
      "Give it a type argument."),
  MODEL_EXPOSED_WHOLE("UnsupportedViewType", Kind.ERROR,
      "%s has type %s, which a view cannot expose field by field.",
      Views.SUPPORTED),
  VIEW_OF_ANOTHER_MODEL("ViewTypeMismatch", Kind.ERROR,
      "%s is the view %s, which presents %s, but the model property is %s.",
      "Use a view whose model is %4$s."),
  VIEW_TYPE_MISMATCH("ViewTypeMismatch", Kind.ERROR,
      "%s has type %s, but the model property is %s.",
      "Declare it as %3$s (or present it through a nested view)."),
  NESTED_MODEL_NEEDS_PRESENTER("NestedModelNeedsPresenter", Kind.ERROR,
      "%s exposes the model type %s directly, which would send every one of its properties.",
      "Declare a @Presenter(model = %s.class) view and use it here."),
  INVALID_SUGGEST_METHOD("InvalidSuggestMethod", Kind.ERROR,
      "%s.%s %s.",
      "Declare it as: static List<Suggestion> %2$s(%4$s v) (or take List<%4$s> shown)."),
  INVALID_RULES_METHOD("InvalidRulesMethod", Kind.ERROR,
      "%s.%s %s.",
      "Declare it as: static List<String> %2$s(%4$s v) (or return String, or take List<%4$s> shown)."),
  TASK_SUPPORT_WITHOUT_VERB("TaskSupportWithoutVerb", Kind.ERROR,
      "%s.%s is annotated @TaskSupport, but it is not a @Query, @Mutation or @Action of a @Router,"
          + " so no call of it could run as a task.",
      "Annotate the method with its verb inside a @Router class, or remove @TaskSupport."),
  MISPLACED_VIEW_METHOD("MisplacedViewMethod", Kind.ERROR,
      "%s.%s is annotated %s, but %s is not a @Presenter view, so nothing would call it.",
      "Move the method into the @Presenter record whose views it reads, or remove %3$s."),
  INVALID_UI_METHOD("InvalidUiMethod", Kind.ERROR,
      "%s.%s %s.",
      "Declare it as: static UiBlock %2$s(List<%4$s> shown) (or take one %4$s v), returning"
          + " UiBlock.chart, mermaid, table or markdown."),
  INVALID_OPTION("InvalidOption", Kind.WARNING,
      "-A%s=%s is not one of ERROR, WARN or IGNORE;",
      "using WARN."),

  // ------------------------------------------------------------------ @Router
  ROUTER_NOT_A_CLASS("InvalidRouter", Kind.ERROR,
      "%s is annotated @Router but is not a class.",
      "Put @Router on the class whose methods are the actions."),
  INVALID_ROUTER("InvalidRouter", Kind.ERROR,
      "%s is private or generic, so the generated %s cannot bind it.",
      "Make it a non-private, non-generic class."),
  INVALID_ROUTER_NAME("InvalidRouterName", Kind.ERROR,
      "%s is named '%s', but router names must match [a-z][a-z0-9_]*%s.",
      "Use '%s'."),
  INVALID_COMMON_TYPE("InvalidCommonType", Kind.ERROR,
      "%s names %s as its common fields, but it is not a (non-generic) record.",
      "Declare a record whose components are the router-wide inputs."),
  GUARDED_COMMON_FIELD("GuardedInput", Kind.ERROR,
      "'%s' of the common record %s is @Guarded, so the agent must not send it.",
      "Take the value from a @Context parameter and remove it from the record."),
  HIDDEN_COMMON_FIELD("HiddenInput", Kind.ERROR,
      "'%s' of the common record %s is @Hidden, so the agent must never see it, but every"
          + " action's input schema would show it.",
      "Take the value from a @Context parameter and remove it from the record."),
  NULLNESS_INVISIBLE_COMMON("NullnessInvisible", Kind.WARNING,
      "The common field %s.%s is read from a class file, and this javac does not show its"
          + " type-use @Nullable to annotation processors; the processor read it from the class"
          + " file and treats it as optional.",
      "Build with JDK 22+ or compile %1$s in the same module to make it visible."),
  UNSUPPORTED_COMMON_FIELD_TYPE("UnsupportedParameterType", Kind.ERROR,
      "The common field '%s' of %s has type %s, but %s",
      Inputs.SUPPORTED),
  EMPTY_ROUTER("EmptyRouter", Kind.WARNING,
      "%s has no @Query, @Mutation or @Action method, so it exposes no tool.",
      "Annotate the methods the agent may call."),
  MULTIPLE_VERBS("MultipleVerbs", Kind.ERROR,
      "%s is annotated %s.",
      "Keep exactly one verb: @Query (reads), @Mutation (destroys or overwrites) or @Action"
          + " (neither)."),
  DUPLICATE_ACTION("DuplicateAction", Kind.ERROR,
      "%s is the action '%s', but %s.%s already has that name.",
      "Rename one with name = \"...\" on its verb annotation."),
  INVALID_TOOL_NAME("InvalidToolName", Kind.ERROR,
      "%s becomes the MCP tool '%s' (%s characters), which does not match ^[a-zA-Z0-9_-]{1,64}$;"
          + " some clients drop the whole connector for one bad name.",
      "Shorten the action name with name = \"...\" (or the router name)."),
  DUPLICATE_TOOL_NAME("DuplicateToolName", Kind.ERROR,
      "%s becomes the MCP tool '%s', which %s already is.",
      "Rename the action or the router."),
  INACCESSIBLE_ACTION("InaccessibleAction", Kind.ERROR,
      "%s is private or generic, so the generated dispatcher cannot call it.",
      "Make it a non-private, non-generic method."),
  INVALID_ACTION_NAME("InvalidActionName", Kind.ERROR,
      "%s is named '%s', which %s.",
      "Use '%s'."),
  MISSING_DESCRIPTION("MissingDescription", Kind.ERROR,
      "%s has no description, so the agent cannot know when to call it.",
      "Add @%s(description = \"...\") or a Javadoc sentence."),
  INVALID_SCOPE("InvalidScope", Kind.ERROR,
      "%s requires the scope '%s', which is not an OAuth scope token: %s.",
      "Use printable ASCII without spaces, quotes or backslashes, such as 'invoices:write'."),
  INVALIDATES_ON_QUERY("InvalidatesOnQuery", Kind.ERROR,
      "%s is a @Query but declares @Invalidates; a read makes nothing stale.",
      "Remove @Invalidates or make it a @Mutation."),
  GUARDED_PARAMETER("GuardedInput", Kind.ERROR,
      "%s takes '%s' from the agent, but it is @Guarded.",
      "Take it from a @Context parameter (provided by the server or a middleware) instead."),
  GUARDED_RECORD_COMPONENT("GuardedInput", Kind.ERROR,
      "'%s' of %s is @Guarded, so the agent must not send it, but %s takes %2$s from the agent as"
          + " '%s'.",
      "Take the value from a @Context parameter and remove it from the record."),
  HIDDEN_PARAMETER("HiddenInput", Kind.ERROR,
      "%s takes '%s' from the agent, but it is @Hidden, so the agent must never see it: its input"
          + " schema would show the agent '%2$s'.",
      "Remove @Hidden if the agent may send it, or take the value from a @Context parameter."),
  HIDDEN_INPUT("HiddenInput", Kind.ERROR,
      "'%s' of %s is @Hidden, so the agent must never see it, but %s takes %2$s from the agent as"
          + " '%s': its input schema would show the agent '%1$s'.",
      "Remove @Hidden if the agent may send it, or take the value from a @Context parameter and"
          + " remove it from the record."),
  // ------------------------------------------------------------------ @Proxy
  PROXY_WITHOUT_VERB("ProxyWithoutVerb", Kind.ERROR,
      "%s is annotated @Proxy but not @Query, @Mutation or @Action, so it is no action.",
      "Add the verb and the view that presents the answer: @Query(presenter = InvoiceView.class)."),
  PROXY_NOT_ABSTRACT("ProxyNotAbstract", Kind.ERROR,
      "%s is a @Proxy action but has a body; the processor writes a proxy's body.",
      "Declare it abstract, in an abstract @Router class, without a body."),
  PROXY_ROUTER("ProxyRouter", Kind.ERROR,
      "%s has @Proxy actions, which the processor implements in a subclass, but it is %s.",
      "Make it a non-final, top-level or static nested abstract class with a constructor that takes no arguments."),
  PROXY_NEEDS_OUTBOUND("ProxyNeedsOutbound", Kind.ERROR,
      "%s is a @Proxy action, but fusion-outbound (dev.mcpfusion.outbound.ProxyUpstreams), whose guarded"
          + " client makes its calls, is not on the class path.",
      "Add the dependency dev.mcpfusion:fusion-outbound."),
  INVALID_PROXY_UPSTREAM("InvalidProxy", Kind.ERROR,
      "%s names the upstream '%s', but an upstream name matches [a-z][a-z0-9-]*.",
      "Use a name such as \"billing-api\", the one ProxyUpstreams configures."),
  INVALID_PROXY_METHOD("InvalidProxy", Kind.ERROR,
      "%s uses the HTTP method '%s'.",
      "Use GET, POST, PUT, PATCH or DELETE (upper case)."),
  INVALID_PROXY_PATH("InvalidProxy", Kind.ERROR,
      "%s has the path '%s', but %s.",
      "Write a path below the base URL, such as /invoices/{id}: each {name} a whole segment named after a parameter."),
  PROXY_PATH_VARIABLE("ProxyPathVariable", Kind.ERROR,
      "%s has the path '%s', whose {%s} is no input parameter of the method.%s",
      "Name the variable after a parameter, or add the parameter."),
  PROXY_PARAMETER("ProxyParameter", Kind.ERROR,
      "%s has the parameter '%s' of type %s, but a @Proxy action's parameters are its scalar inputs.",
      "Use text, a number, a boolean or an enum; a @Proxy action takes no @Context, common record or @InputSchema."),
  PROXY_RESULT("ProxyResult", Kind.ERROR,
      "%s returns %s, but a @Proxy action answers the upstream's JSON through a view.",
      "Return Map<String, Object> (or List<Map<String, Object>>) and name the view: @Query(presenter = InvoiceView.class)."),
  INVALID_PROXY_UPSTREAM_POLICY("InvalidProxyUpstream", Kind.ERROR,
      "%s declares @ProxyUpstream(name = \"%s\") with %s.",
      "Declare lower-case hosts (billing.example.com, *.example.com), the schemes \"https\" or \"http\", and a"
          + " positive maxResponseBytes, connectTimeoutMs and timeoutMs."),
  DUPLICATE_PROXY_UPSTREAM("DuplicateProxyUpstream", Kind.ERROR,
      "%s declares @ProxyUpstream(name = \"%s\") more than once.",
      "Declare each upstream once, with all its hosts in one declaration."),
  UNDECLARED_PROXY_UPSTREAM("UndeclaredProxyUpstream", Kind.ERROR,
      "%s calls the upstream \"%s\"%s, but neither %s nor its package declares where that upstream may"
          + " call, so the lockfile would record no policy and only the server's configuration would bound it.",
      "Declare it on %4$s, or in package-info.java for routers that share it, with the hosts its base URL may"
          + " be on: @ProxyUpstream(name = \"%2$s\", hosts = \"api.example.com\")."),
  UNUSED_PROXY_UPSTREAM("UnusedProxyUpstream", Kind.ERROR,
      "%s declares @ProxyUpstream(name = \"%s\"), but none of its @Proxy actions calls that upstream.%s",
      "Name the upstream its @Proxy actions call, or move a declaration several routers share to package-info.java."),

  // ------------------------------------------------------------------ @States / @Tags
  INVALID_STATES("InvalidStates", Kind.ERROR,
      "%s declares @States %s.",
      "List each state once, each a name such as 'draft' ([a-z][a-z0-9_-]*)."),
  UNKNOWN_INITIAL_STATE("UnknownState", Kind.ERROR,
      "%s starts in the state '%s', which its @States does not declare (it declares %s).%s",
      "Make initial one of the declared states."),
  UNKNOWN_STATE("UnknownState", Kind.ERROR,
      "%s names the state '%s' in @%s, but %s declares only %s.%s",
      "Use one of those states, or add '%2$s' to @States."),
  NO_ALLOWED_STATE("UnknownState", Kind.ERROR,
      "%s declares @AllowedIn with no state, so no session of %s could ever call it.",
      "Name the states it is allowed in, or remove the action."),
  STATES_UNDECLARED("StatesUndeclared", Kind.ERROR,
      "%s declares @%s, but its router %s declares no @States.",
      "Add @States(initial = \"...\", value = {...}) to %3$s, or remove @%2$s."),
  INVALID_TAG("InvalidTag", Kind.ERROR,
      "%s declares the tag '%s', which is not a tag name.",
      "Use a lowercase name such as 'read' or 'admin' ([a-z][a-z0-9_-]*)."),
  // ------------------------------------------------------------------ @Fillable / @Input
  FILLABLE_NOT_ACCEPTED("FillableNotAccepted", Kind.ERROR,
      "%s.%s is %s, so the agent may never send it, but it is @Fillable(%s).",
      "Remove @Fillable from '%2$s', or drop %3$s if the agent may fill it."),
  INPUT_NOT_A_MODEL("InputNotAModel", Kind.ERROR,
      "%s takes '%s' with @Input(profile = \"%s\"), but its type %s is not a @Model.",
      "Declare the parameter as a @Model type whose properties are @Fillable(\"%3$s\"), or remove"
          + " @Input."),
  UNKNOWN_PROFILE("UnknownProfile", Kind.ERROR,
      "%s takes '%s' through the profile \"%s\", but no property of %s the agent may send is"
          + " @Fillable(\"%3$s\") (its profiles: %s).",
      "Use one of its profiles, or mark the properties the agent may send @Fillable(\"%3$s\")."),
  UNSUPPORTED_FILLABLE_TYPE("UnsupportedParameterType", Kind.ERROR,
      "%s takes '%s' through the profile \"%s\", but the fillable property %s has type %s: %s",
      Inputs.SUPPORTED + " Or remove it from the profile."),
  MODEL_NOT_BUILDABLE("ModelNotBuildable", Kind.ERROR,
      "%s takes '%s' through the profile \"%s\", but the generated code cannot build %s: %s.",
      "Declare %4$s as a record, or give it a public no-argument constructor and a public setter"
          + " for each fillable property."),
  UNSUPPORTED_PARAMETER_TYPE("UnsupportedParameterType", Kind.ERROR,
      "%s parameter '%s' has type %s, but %s",
      Inputs.SUPPORTED + " Or mark it @Context."),
  COMMON_FIELD_CLASH("CommonFieldClash", Kind.ERROR,
      "%s parameter '%s' has the name of a field of the common record %s, so both would be the"
          + " input field '%2$s'.",
      "Rename the parameter, or take the %s parameter instead."),
  INPUT_SCHEMA_NOT_FOUND("InputSchemaNotFound", Kind.ERROR,
      "%s parameter '%s' names the schema resource \"%s\", which is not on the class path.",
      "Put the document at src/main/resources/%3$s (resources are copied to the class path"
          + " before the processor runs), or correct the path."),
  INPUT_SCHEMA_INVALID("InputSchemaInvalid", Kind.ERROR,
      "%s parameter '%s' names the schema resource \"%s\", which %s.",
      "Fix the document: an input schema is a JSON Schema object with \"type\": \"object\"."),
  INPUT_SCHEMA_PARAMETER("InputSchemaParameter", Kind.ERROR,
      "%s parameter '%s' is @InputSchema, but %s.",
      "Take the whole input as one Map<String, Object> parameter with @InputSchema; other"
          + " parameters may only be @Context values or RequestContext."),
  NOT_A_PRESENTER("NotAPresenter", Kind.ERROR,
      "%s names presenter %s, which is not annotated @Presenter.",
      "Name a @Presenter view record (for example a view of %2$s)."),
  PRESENTER_NOT_A_VIEW("NotAPresenter", Kind.ERROR,
      "%s names presenter %s, which is not a @Presenter view.",
      "Name a @Presenter view record."),
  SELECT_ONE_FIELD("SelectMisuse", Kind.ERROR,
      "%s sets select = true but has %s field(s): there is nothing to choose from.",
      "Remove select = true, or give the view the fields an agent may choose between."),
  SELECT_INPUT_CLASH("SelectMisuse", Kind.ERROR,
      "%s has an input named '_select', but its result view %s selects fields (select = true)"
          + " and '_select' is the framework's field-selection input.",
      "Rename the input, or remove select = true from the view."),
  SELECT_WITHOUT_SELECTABLE_VIEW("SelectMisuse", Kind.ERROR,
      "%s sets select = true, but %s, so there are no fields to select.",
      "Present a view with @Presenter(select = true), or remove select = true from @%s."),
  PAGE_WITHOUT_CURSOR("PageWithoutCursor", Kind.ERROR,
      "%s returns a Page but declares no 'cursor' parameter, so an agent cannot ask for the next page.",
      "Add a parameter 'String cursor': it is null for the first page, then the cursor your"
          + " previous Page.of(items, next) returned."),
  PAGE_CURSOR_NOT_OPTIONAL_STRING("PageWithoutCursor", Kind.ERROR,
      "%s returns a Page, so its 'cursor' parameter must be an optional String, not %s%s.",
      "Declare it as 'String cursor' without @NotNull/@NotBlank: the first page is asked for"
          + " without one."),
  PRESENTER_ON_VOID("PresenterModelMismatch", Kind.ERROR,
      "%s returns void, so presenter %s has nothing to present.",
      "Remove presenter = ... or return the model."),
  RESULT_ELEMENT_UNREADABLE("ResultNeedsPresenter", Kind.ERROR,
      "%s returns %s, whose element type cannot be read.",
      "Return a List<Model>, Optional<Model>, array or Stream<Model> with one type argument."),
  PRESENTED_ELEMENT_UNREADABLE("PresenterModelMismatch", Kind.ERROR,
      "%s returns %s, whose element type cannot be read.",
      "Return a List<Model>, Optional<Model>, array or Stream<Model> with one type argument."),
  ASYNC_RESULT_UNREADABLE("AsyncResultUnreadable", Kind.ERROR,
      "%s returns %s, whose value type cannot be read.",
      "Return CompletionStage<T> or CompletableFuture<T> with T a type you could return directly"
          + " (CompletionStage<Void> for no value)."),
  MCP_HEADER_NAME("InvalidMcpHeader", Kind.ERROR,
      "%s mirrors '%s' in @McpHeader(\"%s\"), which is not a header name: %s.",
      "Use an RFC 9110 token (letters, digits, -), such as @McpHeader(\"Region\"): the client"
          + " then sends Mcp-Param-Region."),
  MCP_HEADER_TYPE("InvalidMcpHeader", Kind.ERROR,
      "%s mirrors '%s' in @McpHeader(\"%s\"), but it is %s: a header carries only a string,"
          + " integer, number or boolean.",
      "Mark an argument of one of those types, or remove @McpHeader."),
  MCP_HEADER_DUPLICATE("InvalidMcpHeader", Kind.ERROR,
      "%s mirrors both '%s' and '%s' in Mcp-Param-%s (header names are case-insensitive).",
      "Give each argument a header name of its own."),
  MCP_HEADER_NESTED("InvalidMcpHeader", Kind.ERROR,
      "'%s' of %s is marked @McpHeader, but %s takes %2$s from the agent as '%s': only a"
          + " top-level argument is mirrored in a header.",
      "Mark an action parameter or a component of the router's common record instead."),
  UNKNOWN_SERIALIZE_KEY("UnknownSerializeKey", Kind.ERROR,
      "%s is annotated @SerializeOn(\"%s\"), which is not an argument of the action.%s",
      "Name one of its arguments: %s."),
  INVALID_SERIALIZE_QUEUE("UnknownSerializeKey", Kind.ERROR,
      "%s sets @SerializeOn(queue = %s), but a queue cannot be negative.",
      "Use 0 (no call waits) or more."),
  RESULT_NEEDS_PRESENTER("ResultNeedsPresenter", Kind.ERROR,
      "%s returns %s, which needs a presenter to decide what may leave the process.",
      "Add presenter = SomeView.class (a @Presenter view of %s) to @%s."),
  PRESENTER_MODEL_MISMATCH("PresenterModelMismatch", Kind.ERROR,
      "%s returns %s, but presenter %s presents %s.",
      "Use a presenter whose model is %s, or return %4$s."),

  // ------------------------------------------------------------------ @Prompt / @Resource / @Complete
  MULTIPLE_ROLES("MultipleRoles", Kind.ERROR,
      "%s is annotated with more than one of @Prompt, @Resource, @Complete, @Query, @Mutation and"
          + " @Action.",
      "Give each method one role; call a shared private method from both if they share code."),
  INACCESSIBLE_FEATURE_TYPE("InaccessibleFeature", Kind.ERROR,
      "%s declares prompts, resources or completions but is private, generic or not a class, so the"
          + " generated %s cannot bind it.",
      "Make it a non-private, non-generic class."),
  INACCESSIBLE_FEATURE("InaccessibleFeature", Kind.ERROR,
      "%s is private or generic, so the generated %s cannot call it.",
      "Make it a non-private, non-generic method."),
  INVALID_PROMPT_NAME("InvalidPromptName", Kind.ERROR,
      "%s is the prompt '%s', but prompt names must match [a-zA-Z0-9_-]{1,64} so every client can"
          + " show and send them.",
      "Use name = \"%s\"."),
  DUPLICATE_PROMPT("DuplicatePrompt", Kind.ERROR,
      "%s is the prompt '%s', but %s already is.",
      "Rename one with @Prompt(name = \"...\")."),
  FEATURE_MISSING_DESCRIPTION("MissingDescription", Kind.ERROR,
      "%s has no description, so the client cannot tell its user what it is.",
      "Add @%s(description = \"...\") or a Javadoc sentence."),
  PROMPT_RESULT_TYPE("PromptResultType", Kind.ERROR,
      "%s returns %s, but a prompt returns %s.",
      "Return PromptResult.user(\"...\")%s."),
  PROMPT_ARGUMENT_TYPE("PromptArgumentType", Kind.ERROR,
      "%s argument '%s' has type %s, but prompt arguments are strings on the wire.",
      "Use String, Optional<String> or an enum (sent by constant name), or mark it @Context."),
  GUARDED_PROMPT_ARGUMENT("GuardedInput", Kind.ERROR,
      "%s takes '%s' from the client, but it is @Guarded.",
      "Take it from a @Context parameter instead."),
  INVALID_ICON("InvalidIcon", Kind.ERROR,
      "%s has @Icon(%s = \"%s\"), but %s",
      "%s"),
  INVALID_RESOURCE_URI("InvalidResourceUri", Kind.ERROR,
      "%s declares the URI '%s', which %s",
      "Write an absolute URI such as \"billing://invoices/{id}\", with {name} for each value read"
          + " from it."),
  TEMPLATE_PARAMETER_NOT_A_VARIABLE("ResourceTemplateMismatch", Kind.ERROR,
      "%s parameter '%s' is not a variable of '%s'%s.",
      "Add {%2$s} to the URI, or mark the parameter @Context."),
  TEMPLATE_VARIABLE_NOT_TEXT("ResourceTemplateMismatch", Kind.ERROR,
      "%s parameter '%s' has type %s, but a URI variable is text.",
      "Declare it as String and convert it in the method."),
  TEMPLATE_VARIABLE_UNBOUND("ResourceTemplateMismatch", Kind.ERROR,
      "%s declares the variable {%s} in '%s', but has no String parameter named '%2$s'.",
      "Add the parameter, or remove the variable from the URI."),
  RESOURCE_NEEDS_TEXT("ResourceResultType", Kind.ERROR,
      "%s returns %s, but a resource without a presenter returns a String (text) or a byte[]"
          + " (binary).",
      "Add presenter = SomeView.class to @Resource to send a model as its stripped JSON view, or"
          + " return its text."),
  RESOURCE_NOT_PRESENTABLE("ResourceResultType", Kind.ERROR,
      "%s returns %s, which presenter %s cannot present.",
      "Return the model (or a collection or Optional of it), or drop presenter = ... to send text"
          + " or bytes."),
  DUPLICATE_RESOURCE("DuplicateResource", Kind.ERROR,
      "%s serves '%s', which %s already serves.",
      "Give each resource its own URI."),
  COMPLETION_TARGET_COUNT("InvalidCompletion", Kind.ERROR,
      "%s sets %s.",
      "Set exactly one: @Complete(prompt = \"name\", argument = \"arg\") or @Complete(resource ="
          + " \"scheme://path/{var}\", argument = \"var\")."),
  COMPLETION_SIGNATURE("InvalidCompletion", Kind.ERROR,
      "%s must take the text typed so far as one String parameter (plus @Context parameters) and"
          + " return List<String>.",
      "Declare it as List<String> %s(String prefix)."),
  UNKNOWN_COMPLETION_TARGET("UnknownCompletionTarget", Kind.ERROR,
      "%s completes the %s '%s', which %s does not declare.%s",
      "Its %2$ss: %s."),
  UNKNOWN_COMPLETION_ARGUMENT("UnknownCompletionTarget", Kind.ERROR,
      "%s completes '%s', which is not an argument of the %s '%s'.%s",
      "Its arguments: %s."),
  DUPLICATE_COMPLETION("DuplicateCompletion", Kind.ERROR,
      "%s completes '%s' of %s, which another @Complete method of %s already completes.",
      "Keep one."),

  // ------------------------------------------------------------------ input constraints
  INVALID_CONSTRAINT("InvalidConstraint", Kind.ERROR,
      "@%s on '%s' has the value \"%s\", which is not a decimal number.",
      "Write a number such as \"0.5\"."),
  INVALID_PATTERN("InvalidPattern", Kind.ERROR,
      "@Pattern on '%s' does not compile: %s.",
      "Fix the regular expression."),
  PATTERN_NOT_PORTABLE("PatternNotPortable", Kind.WARNING,
      "@Pattern on '%s' uses %s, which JSON Schema (ECMA-262) regular expressions do not have; the"
          + " input schema omits \"pattern\" and the server still checks it.",
      "Rewrite it in the portable subset to publish it to the agent."),
  CONSTRAINT_GROUPS("ConstraintGroups", Kind.ERROR,
      "@%s on '%s' sets groups, but the generated checks run every constraint on every call (no"
          + " call selects a validation group).",
      "Remove groups, or check the rule inside the action and throw a FusionError."),
  CONSTRAINT_NOT_APPLICABLE("ConstraintNotApplicable", Kind.ERROR,
      "@%s on '%s' (%s) has no meaning for that type.",
      "Remove it or change the type."),

  // ------------------------------------------------------------------ references
  UNKNOWN_ACTION_REFERENCE("UnknownReference", Kind.ERROR,
      "%s names '%s', but router '%s' has no action '%s'.%s",
      "Name one of its actions: %s."),
  UNKNOWN_ROUTER_REFERENCE("UnknownReference", Kind.ERROR,
      "%s names '%s', but no router of this compilation is named '%s'.%s",
      "Name a router of this compilation (%s); a router of another module is checked at build()."),
  MALFORMED_REFERENCE("InvalidReference", Kind.ERROR,
      "%s names '%s', which is not a logical action reference.",
      "Write router.action, for example billing.void_invoice."),
  UNPRESENTED_DETAIL("UnpresentedDetail", Kind.ERROR,
      "%s passes %s, %s, to FusionError.detail(%s, ...), but no @Presenter of this compilation"
          + " presents it, so the call would fail at run time instead of answering.",
      "Pass a view, a scalar (such as the one field you mean), or declare a"
          + " @Presenter(model = %s.class)."),

  // ------------------------------------------------------------------ every step
  UNRESOLVED_TYPE("UnresolvedType", Kind.ERROR,
      "%s was not processed: %s still does not exist after the last round, so %s was not"
          + " generated.",
      "Fix the compile error that names the missing type, or make the processor that generates it"
          + " run in this compilation."),
  GENERATION_FAILED("GenerationFailed", Kind.ERROR,
      "%s could not be written: %s.",
      "Check that no other source or processor declares that class and the output directory is"
          + " writable."),
  PROCESSOR_FAILURE("ProcessorFailure", Kind.ERROR,
      "The processor failed on %s (%s).",
      "Please report this with the declaration; other types are still processed.");

  /** Whether a diagnostic fails the build. */
  enum Kind {
    ERROR(javax.tools.Diagnostic.Kind.ERROR),
    WARNING(javax.tools.Diagnostic.Kind.WARNING);

    final javax.tools.Diagnostic.Kind javac;

    Kind(javax.tools.Diagnostic.Kind javac) {
      this.javac = javac;
    }
  }

  private final String code;
  private final Kind kind;
  private final String problem;
  private final String fix;

  Diagnostic(String code, Kind kind, String problem, String fix) {
    this.code = code;
    this.kind = kind;
    this.problem = problem;
    this.fix = fix;
  }

  /** The stable code, without the {@code fusion/} prefix: {@code HiddenFieldExposed}. */
  String code() {
    return code;
  }

  /** The kind it is reported at unless a user option says otherwise. */
  Kind kind() {
    return kind;
  }

  /** The format of what is wrong. */
  String problem() {
    return problem;
  }

  /** The format of the fix. */
  String fix() {
    return fix;
  }

  /** The message without the code: the problem, then the fix, formatted with {@code args}. */
  String message(Object... args) {
    return String.format(Locale.ROOT, problem + " " + fix, args);
  }

  /** The whole text: {@code [fusion/Code] problem fix}. */
  String text(Object... args) {
    return "[fusion/" + code + "] " + message(args);
  }
}
