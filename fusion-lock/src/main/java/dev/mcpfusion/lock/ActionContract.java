package dev.mcpfusion.lock;

import dev.mcpfusion.core.guard.ActionLimits;
import dev.mcpfusion.annotation.CachePolicy;
import dev.mcpfusion.annotation.Proxy;
import dev.mcpfusion.annotation.SerializeOn;
import dev.mcpfusion.annotation.TaskSupport;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.redact.Redactions;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.FieldDescriptor;
import dev.mcpfusion.core.spi.ResultShape;
import dev.mcpfusion.core.spi.RouterDescriptor;
import dev.mcpfusion.core.spi.Verb;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletionStage;

/**
 * One action as the lockfile records it: its surface (name, description, verb, hints, inputs) and
 * its behaviour (result, presenter, limits, middleware, cache semantics).
 *
 * @param name the action name
 * @param description the action description as the agent reads it
 * @param verb the verb annotation
 * @param readOnly the MCP {@code readOnlyHint}
 * @param destructive the MCP {@code destructiveHint}
 * @param idempotent the MCP {@code idempotentHint}
 * @param openWorld the MCP {@code openWorldHint}
 * @param inputSchema {@code sha256:} of the canonical field schemas (descriptions included) and the
 *     required list
 * @param inputs the input fields by name
 * @param result how the method returns its data ({@link ResultShape} name)
 * @param resultSchema for a result without presenter that has a schema ({@code VALUE}), that JSON
 *     Schema (keys sorted); else {@code null}
 * @param presenter the presenter, or {@code null} when the result needs none
 * @param limits named numeric limits where a lower value is tighter: {@code agentLimit} (from the
 *     presenter) and, when set, {@code maxConcurrent}, {@code queue}, {@code timeoutMs} and
 *     {@code maxEgressBytes} (resolved from {@code @Limits} and the profile's server-wide limits)
 * @param middleware the middleware chain in run order: server-wide (profile), router {@code @Use},
 *     method {@code @Use} (class names)
 * @param cache the {@code @CacheControl} policy
 * @param invalidates the {@code @Invalidates} patterns
 * @param customValidation whether a parameter carries a custom {@code @Constraint} or {@code @Valid},
 *     checked by Bean Validation at run time (its rules are not in the input schema)
 * @param redaction the resolved redaction policy, or {@code null} for none
 * @param title the MCP title ({@code title =} on the verb), {@code ""} for none (then not written)
 * @param scopes the OAuth scopes a caller needs ({@code @Scopes} of the router and the action),
 *     sorted; written only when there are some
 * @param task how the action may run as a task ({@code @TaskSupport}: {@code OPTIONAL} or
 *     {@code REQUIRED}), {@code ""} for never (then not written)
 * @param async whether the handler answers with a {@code CompletionStage} (written only when it does)
 * @param serializeOn the argument whose value keys {@code @SerializeOn}'s one-at-a-time calls,
 *     {@code ""} for none (then not written); its queue is the limit {@value #SERIALIZE_QUEUE}
 * @param taskInputFirst whether a task call gathers its answers with input-required results before
 *     it becomes a task ({@code @TaskSupport(inputFirst = true)}; written only when it does)
 * @param proxy the REST call of a {@code @Proxy} action, {@code "GET billing-api /invoices/{id}"}
 *     (method, upstream, path), {@code ""} for a handler (then not written); the upstream's base
 *     URL is the server's configuration, named by the upstream
 * @param proxyPolicy where that upstream may be called, as its {@code @ProxyUpstream} declares it
 *     (written inside {@code proxy}); {@code null} for a handler, and for a proxy entry of a lockfile
 *     written before every {@code @Proxy} upstream had to be declared
 */
public record ActionContract(
    String name,
    String description,
    Verb verb,
    boolean readOnly,
    boolean destructive,
    boolean idempotent,
    boolean openWorld,
    String inputSchema,
    Map<String, InputField> inputs,
    ResultShape result,
    Object resultSchema,
    PresenterContract presenter,
    Map<String, Long> limits,
    List<String> middleware,
    CachePolicy cache,
    List<String> invalidates,
    boolean customValidation,
    RedactionContract redaction,
    String title,
    List<String> scopes,
    String task,
    boolean async,
    String serializeOn,
    boolean taskInputFirst,
    String proxy,
    ProxyPolicy proxyPolicy) {

  /** The name of the limit a {@code @SerializeOn} queue is recorded under. */
  public static final String SERIALIZE_QUEUE = "serializeQueue";

  /** An action whose upstream, if it is a {@code @Proxy}, declares no policy: every component but the last. */
  public ActionContract(String name, String description, Verb verb, boolean readOnly,
      boolean destructive, boolean idempotent, boolean openWorld, String inputSchema,
      Map<String, InputField> inputs, ResultShape result, Object resultSchema,
      PresenterContract presenter, Map<String, Long> limits, List<String> middleware,
      CachePolicy cache, List<String> invalidates, boolean customValidation,
      RedactionContract redaction, String title, List<String> scopes, String task, boolean async,
      String serializeOn, boolean taskInputFirst, String proxy) {
    this(name, description, verb, readOnly, destructive, idempotent, openWorld, inputSchema, inputs,
        result, resultSchema, presenter, limits, middleware, cache, invalidates, customValidation,
        redaction, title, scopes, task, async, serializeOn, taskInputFirst, proxy, null);
  }

  /** An action that asks before it becomes a task and has a handler of its own (no {@code @Proxy}): every component but the last two. */
  public ActionContract(String name, String description, Verb verb, boolean readOnly,
      boolean destructive, boolean idempotent, boolean openWorld, String inputSchema,
      Map<String, InputField> inputs, ResultShape result, Object resultSchema,
      PresenterContract presenter, Map<String, Long> limits, List<String> middleware,
      CachePolicy cache, List<String> invalidates, boolean customValidation,
      RedactionContract redaction, String title, List<String> scopes, String task, boolean async,
      String serializeOn) {
    this(name, description, verb, readOnly, destructive, idempotent, openWorld, inputSchema, inputs,
        result, resultSchema, presenter, limits, middleware, cache, invalidates, customValidation,
        redaction, title, scopes, task, async, serializeOn, false, "");
  }

  /** An action with a blocking handler whose calls are not serialised: every component but the last three. */
  public ActionContract(String name, String description, Verb verb, boolean readOnly,
      boolean destructive, boolean idempotent, boolean openWorld, String inputSchema,
      Map<String, InputField> inputs, ResultShape result, Object resultSchema,
      PresenterContract presenter, Map<String, Long> limits, List<String> middleware,
      CachePolicy cache, List<String> invalidates, boolean customValidation,
      RedactionContract redaction, String title, List<String> scopes, String task) {
    this(name, description, verb, readOnly, destructive, idempotent, openWorld, inputSchema, inputs,
        result, resultSchema, presenter, limits, middleware, cache, invalidates, customValidation,
        redaction, title, scopes, task, false, "");
  }

  /** An action that requires no scope and never runs as a task: every component but {@code scopes} and {@code task}. */
  public ActionContract(String name, String description, Verb verb, boolean readOnly,
      boolean destructive, boolean idempotent, boolean openWorld, String inputSchema,
      Map<String, InputField> inputs, ResultShape result, Object resultSchema,
      PresenterContract presenter, Map<String, Long> limits, List<String> middleware,
      CachePolicy cache, List<String> invalidates, boolean customValidation,
      RedactionContract redaction, String title) {
    this(name, description, verb, readOnly, destructive, idempotent, openWorld, inputSchema, inputs,
        result, resultSchema, presenter, limits, middleware, cache, invalidates, customValidation,
        redaction, title, List.of(), "");
  }

  /** An action that never runs as a task: every component but {@code task}, in order. */
  public ActionContract(String name, String description, Verb verb, boolean readOnly,
      boolean destructive, boolean idempotent, boolean openWorld, String inputSchema,
      Map<String, InputField> inputs, ResultShape result, Object resultSchema,
      PresenterContract presenter, Map<String, Long> limits, List<String> middleware,
      CachePolicy cache, List<String> invalidates, boolean customValidation,
      RedactionContract redaction, String title, List<String> scopes) {
    this(name, description, verb, readOnly, destructive, idempotent, openWorld, inputSchema, inputs,
        result, resultSchema, presenter, limits, middleware, cache, invalidates, customValidation,
        redaction, title, scopes, "");
  }

  /** The name of the limit a presenter's {@code agentLimit} is recorded under. */
  public static final String AGENT_LIMIT = "agentLimit";

  public ActionContract {
    title = title == null ? "" : title;
    scopes = scopes == null ? List.of() : List.copyOf(new TreeSet<>(scopes));
    task = task == null ? "" : task;
    serializeOn = serializeOn == null ? "" : serializeOn;
    proxy = proxy == null ? "" : proxy;
    proxyPolicy = proxy.isEmpty() ? null : proxyPolicy;
    inputs = Collections.unmodifiableMap(new TreeMap<>(inputs));
    limits = Collections.unmodifiableMap(new TreeMap<>(limits));
    middleware = List.copyOf(middleware);
    invalidates = List.copyOf(invalidates);
    resultSchema = resultSchema == null ? null : Canonical.sorted(resultSchema);
  }

  /** The required input field names, sorted. */
  public List<String> requiredFields() {
    return inputs.entrySet().stream().filter(e -> e.getValue().required()).map(Map.Entry::getKey).toList();
  }

  static ActionContract of(RouterDescriptor router, ActionDescriptor action, LockProfile profile) {
    Map<String, Object> properties = new LinkedHashMap<>();
    List<String> required = new ArrayList<>();
    Map<String, InputField> inputs = new TreeMap<>();
    for (FieldDescriptor field : action.fields()) {
      Object schema = Json.parse(field.schemaJson());
      properties.put(field.name(), schema);
      if (field.required()) {
        required.add(field.name());
      }
      inputs.put(field.name(), InputField.of(field.name(), schema, field.required(), field.profile()));
    }
    Map<String, Object> inputTree = new LinkedHashMap<>();
    inputTree.put("properties", properties);
    inputTree.put("required", required);
    if (action.inputSchemaJson() != null) {
      // An @InputSchema action: its document is its whole input, so it is what the digest covers.
      inputTree.put("document", Json.parse(action.inputSchemaJson()));
    }

    PresenterContract presenter = action.presenter() == null ? null : PresenterContract.of(action.presenter());
    Map<String, Long> limits = new TreeMap<>();
    if (action.presenter() != null) {
      limits.put(AGENT_LIMIT, (long) action.presenter().agentLimit());
    }
    // The call limits as the server resolves them at build(): method, router, then profile. An
    // out-of-range value is the server's to report; the lockfile records what would be resolved.
    limits.putAll(ActionLimits.resolve(profile.limits(), router.routerType(),
        method(router, action), router.name() + "." + action.name(), new ArrayList<>()).named());
    java.lang.reflect.Method method = method(router, action);
    SerializeOn serialize = method == null ? null : method.getAnnotation(SerializeOn.class);
    // @TaskSupport as the server reads it when it is built.
    TaskSupport support = method == null ? null : method.getAnnotation(TaskSupport.class);
    if (serialize != null) {
      limits.put(SERIALIZE_QUEUE, (long) serialize.queue());
    }
    RedactionContract redaction =
        RedactionContract.of(Redactions.policy(action, profile.redaction()));
    List<String> chain = new ArrayList<>(profile.middleware());
    router.middleware().forEach(c -> chain.add(c.getName()));
    action.middleware().forEach(c -> chain.add(c.getName()));
    Object resultSchema = action.resultSchemaJson() == null ? null : Json.parse(action.resultSchemaJson());
    return new ActionContract(
        action.name(),
        action.description(),
        action.verb(),
        action.readOnlyHint(),
        action.destructiveHint(),
        action.idempotentHint(),
        action.openWorldHint(),
        Canonical.digest(inputTree),
        inputs,
        action.resultShape(),
        resultSchema,
        presenter,
        limits,
        chain,
        action.cachePolicy(),
        action.invalidates(),
        action.beanValidation(),
        redaction,
        action.title(),
        action.scopes(), support == null ? "" : support.value().name(),
        method != null && CompletionStage.class.isAssignableFrom(method.getReturnType()),
        serialize == null ? "" : serialize.value(), support != null && support.inputFirst(),
        proxy(method), proxyPolicy(router, method));
  }

  /**
   * The {@code @ProxyUpstream} of the method's {@code @Proxy} upstream; the processor refuses a
   * proxy whose upstream no declaration covers, so {@code null} only for a handler or a
   * descriptor built by hand.
   */
  private static ProxyPolicy proxyPolicy(RouterDescriptor router, java.lang.reflect.Method method) {
    Proxy proxy = method == null ? null : method.getAnnotation(Proxy.class);
    return proxy == null ? null : ProxyPolicy.of(router.routerType(), proxy.upstream());
  }

  /** The method's {@code @Proxy} as {@code "GET billing-api /invoices/{id}"}, or {@code ""}. */
  private static String proxy(java.lang.reflect.Method method) {
    Proxy proxy = method == null ? null : method.getAnnotation(Proxy.class);
    return proxy == null ? "" : proxy.method() + " " + proxy.upstream() + " " + proxy.path();
  }

  private static java.lang.reflect.Method method(RouterDescriptor router, ActionDescriptor action) {
    try {
      return router.routerType().getDeclaredMethod(action.methodName(),
          action.parameterTypes().toArray(new Class<?>[0]));
    } catch (NoSuchMethodException | SecurityException | LinkageError e) {
      return null;
    }
  }

  Map<String, Object> toTree() {
    Map<String, Object> tree = new TreeMap<>();
    tree.put("cache", cache.name());
    tree.put("customValidation", customValidation);
    tree.put("description", description);
    tree.put("destructive", destructive);
    tree.put("idempotent", idempotent);
    Map<String, Object> in = new TreeMap<>();
    inputs.forEach((k, v) -> in.put(k, v.toTree()));
    tree.put("inputs", in);
    tree.put("inputSchema", inputSchema);
    tree.put("invalidates", invalidates);
    tree.put("limits", limits);
    tree.put("middleware", middleware);
    tree.put("openWorld", openWorld);
    if (presenter != null) {
      tree.put("presenter", presenter.toTree());
    }
    tree.put("readOnly", readOnly);
    if (redaction != null) {
      tree.put("redaction", redaction.toTree());
    }
    tree.put("required", requiredFields());
    tree.put("result", result.name());
    // Only when required: an entry without scopes reads as it did before scopes existed.
    if (!scopes.isEmpty()) {
      tree.put("scopes", scopes);
    }
    if (resultSchema != null) {
      tree.put("resultSchema", resultSchema);
    }
    // Only when set: an untitled action's entry reads as it did before titles existed.
    if (!title.isEmpty()) {
      tree.put("title", title);
    }
    // Only when set: an action that never runs as a task reads as it did before tasks existed.
    if (!task.isEmpty()) {
      tree.put("task", task);
    }
    if (taskInputFirst) {
      tree.put("taskInputFirst", true);
    }
    tree.put("verb", verb.name());
    // Only when set, as above: entries from before async handlers and @SerializeOn read the same.
    if (async) {
      tree.put("async", true);
    }
    if (!serializeOn.isEmpty()) {
      tree.put("serializeOn", serializeOn);
    }
    if (!proxy.isEmpty()) {
      String[] call = proxy.split(" ", 3);
      Map<String, Object> proxyTree = new TreeMap<>(Map.of("method", call[0], "upstream", call[1], "path", call[2]));
      // Absent only in an entry read from a lockfile written before @ProxyUpstream was required.
      if (proxyPolicy != null) {
        proxyTree.put("policy", proxyPolicy.toTree());
      }
      tree.put("proxy", proxyTree);
    }
    return tree;
  }

  static ActionContract fromTree(String name, TreeReader r) {
    Map<String, InputField> inputs = new TreeMap<>();
    r.objects("inputs").forEach((k, v) -> inputs.put(k, InputField.fromTree(v)));
    ActionContract a = new ActionContract(
        name,
        r.string("description"),
        r.enumValue("verb", Verb.class),
        r.bool("readOnly"),
        r.bool("destructive"),
        r.bool("idempotent"),
        r.bool("openWorld"),
        r.string("inputSchema"),
        inputs,
        r.enumValue("result", ResultShape.class),
        r.has("resultSchema") ? r.raw("resultSchema") : null,
        r.has("presenter") ? PresenterContract.fromTree(r.object("presenter")) : null,
        r.longMap("limits"),
        r.strings("middleware"),
        r.enumValue("cache", CachePolicy.class),
        r.strings("invalidates"),
        r.bool("customValidation"),
        r.has("redaction") ? RedactionContract.fromTree(r.object("redaction")) : null,
        r.has("title") ? r.string("title") : "",
        r.has("scopes") ? r.strings("scopes") : List.of(),
        r.has("task") ? r.string("task") : "",
        r.has("async") && r.bool("async"),
        r.has("serializeOn") ? r.string("serializeOn") : "",
        r.has("taskInputFirst") && r.bool("taskInputFirst"),
        r.has("proxy") ? proxyFromTree(r.object("proxy")) : "",
        r.has("proxy") && r.object("proxy").has("policy") ? ProxyPolicy.fromTree(r.object("proxy").object("policy"))
            : null);
    if (!a.requiredFields().equals(r.strings("required"))) {
      throw new IllegalArgumentException("mcpfusion.lock: \"required\" at " + r.where()
          + " does not match the required flags of its inputs (edited by hand?); run the lock goal again");
    }
    return a;
  }

  private static String proxyFromTree(TreeReader proxy) {
    return proxy.string("method") + " " + proxy.string("upstream") + " " + proxy.string("path");
  }
}
