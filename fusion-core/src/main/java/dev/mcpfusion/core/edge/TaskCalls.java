package dev.mcpfusion.core.edge;

import dev.mcpfusion.annotation.TaskMode;
import dev.mcpfusion.annotation.TaskSupport;
import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.error.ErrorReplies;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.server.BoundAction;
import dev.mcpfusion.core.server.ExposedTool;
import dev.mcpfusion.core.task.InMemoryTaskStore;
import dev.mcpfusion.core.task.TaskOptions;
import dev.mcpfusion.core.task.TaskRecord;
import dev.mcpfusion.core.task.TaskStatus;
import dev.mcpfusion.core.task.TaskStore;
import dev.mcpfusion.core.trace.internal.RequestTrace;
import dev.mcpfusion.wire.Codes;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.Meta;
import dev.mcpfusion.wire.ProtocolVersions;
import dev.mcpfusion.wire.Reply;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tasks extension of the 2026-07-28 era ({@code io.modelcontextprotocol/tasks}): a
 * {@code tools/call} of a {@code @TaskSupport} action from a client that declares the extension
 * becomes a task, answered at once with its handle ({@code resultType: "task"}), and
 * {@code tasks/get}, {@code tasks/update} and {@code tasks/cancel} serve it.
 *
 * <p>A task runs the same pipeline call as a direct call, on a thread of its own: the action's
 * concurrency gate, deadline and byte cap and the egress chain apply unchanged, and the result
 * kept is the tool result the call would have returned. Its state lives in the {@link TaskStore}
 * as plain values and JSON; only the running handler (its thread and the questions it waits on)
 * stays in this process, and {@link TaskControl} sends another instance's updates and cancels
 * of it here.
 */
final class TaskCalls {
  private static final Logger LOG = LoggerFactory.getLogger(TaskCalls.class);
  private static final Pattern MESSAGE = Pattern.compile("<message>(.*?)</message>", Pattern.DOTALL);
  private static final AtomicInteger THREADS = new AtomicInteger();

  private final ToolCalls tools;
  private final FeatureRequests features;
  private final String serverInfo;
  private final TaskOptions options;
  private final TaskShapes shapes;
  private final TaskStore store;
  /** The {@code @TaskSupport} of each action that declares one (read once). */
  private final Map<BoundAction, TaskSupport> modes = new IdentityHashMap<>();
  /** The tasks whose handler runs in this process, by task id. */
  private final Map<String, Running> running = new ConcurrentHashMap<>();
  private volatile ExecutorService executor;
  /** Hands updates and cancels to the handlers, here or on the instance running them. */
  private final TaskControl control;
  /** Hears the updates and cancels other instances send here; {@code null} with no task action. */
  private final AutoCloseable listening;

  TaskCalls(ToolCalls tools, FeatureRequests features, String serverInfo, TaskOptions options) {
    this.tools = tools;
    this.features = features;
    this.serverInfo = serverInfo;
    this.options = options == null ? TaskOptions.defaults() : options;
    this.shapes = new TaskShapes(this.options, serverInfo);
    this.store = this.options.store() == null ? new InMemoryTaskStore() : this.options.store();
    for (ExposedTool tool : tools.registry().tools()) {
      for (BoundAction action : tool.actions().values()) {
        TaskSupport support = annotation(action);
        if (support != null) {
          modes.put(action, support);
        }
      }
    }
    this.control = new TaskControl(this, running, store.relay(), shapes);
    this.listening = modes.isEmpty() ? null : control.listen();
  }

  private static TaskSupport annotation(BoundAction action) {
    try {
      Class<?> type = action.router().descriptor().routerType();
      if (type == null) {
        return null;
      }
      Method method = type.getDeclaredMethod(action.descriptor().methodName(),
          action.descriptor().parameterTypes().toArray(new Class<?>[0]));
      return method.getAnnotation(TaskSupport.class);
    } catch (NoSuchMethodException | SecurityException | LinkageError e) {
      return null;
    }
  }

  /** Whether some action may run as a task (then the server advertises the extension). */
  boolean enabled() {
    return !modes.isEmpty();
  }

  /** Whether the edge answers {@code method} here: the extension's methods, when it is enabled. */
  boolean handles(String method) {
    return enabled() && (JsonRpc.TASKS_GET.equals(method) || JsonRpc.TASKS_UPDATE.equals(method)
        || JsonRpc.TASKS_CANCEL.equals(method));
  }

  /** How the action a call of {@code tool} with {@code arguments} runs may be a task, or {@code null}. */
  TaskMode mode(ExposedTool tool, Map<String, ?> arguments) {
    TaskSupport support = support(tool, arguments);
    return support == null ? null : support.value();
  }

  /** Whether a task call of {@code tool} gathers its answers first ({@code inputFirst}). */
  boolean inputFirst(ExposedTool tool, Map<String, ?> arguments) {
    TaskSupport support = support(tool, arguments);
    return support != null && support.inputFirst();
  }

  private TaskSupport support(ExposedTool tool, Map<String, ?> arguments) {
    BoundAction action = ToolCalls.action(tool, arguments);
    return action == null ? null : modes.get(action);
  }

  // ---- starting a task -------------------------------------------------------------------------

  /**
   * Starts a task for a call of {@code tool} and answers the request with its handle, once the
   * store holds it (a {@code tasks/get} right after the answer finds it). Over the bound on tasks
   * the call is answered {@code SERVER_BUSY} and nothing runs.
   */
  void start(Message message, Inbound inbound, ExposedTool tool, Map<String, ?> arguments,
      Map<String, Object> meta, Sink out) {
    Object id = message.id();
    RequestContext creating = RequestContext.of(inbound.headers(), meta, null,
        ProtocolVersions.MODERN);
    String owner;
    try {
      owner = owner(creating);
    } catch (RuntimeException e) {
      String incident = ErrorReplies.newIncidentId();
      LOG.error("The task scope failed for a call of {} (incident {})", tool.name(), incident, e);
      out.reply(id, JsonRpc.INTERNAL_ERROR, Bodies.error(id, JsonRpc.INTERNAL_ERROR,
          "Internal error: the task could not be scoped (incident " + incident + ")."));
      return;
    }
    long now = System.currentTimeMillis();
    TaskRecord task = create(owner, tool.name(), now);
    if (task == null) {
      out.reply(id, 0, Bodies.modernToolResult(id, ErrorReplies.fusionError(busy(),
          tools.registry().references()), serverInfo));
      return;
    }
    String taskId = task.taskId();
    Running run = new Running(taskId);
    running.put(taskId, run);
    try {
      executor().execute(() -> run(run, message, inbound, tool, arguments, meta));
      // The task's run is the call's span; its handle, written next, is no refusal to trace.
      message.targetTraced();
    } catch (RuntimeException e) {
      running.remove(taskId);
      String incident = ErrorReplies.newIncidentId();
      LOG.error("Task {} of {} could not be started (incident {})", taskId, tool.name(), incident, e);
      finish(taskId, TaskStatus.FAILED, "The task could not be started.", null,
          internalError("The task could not be started (incident " + incident + ")."));
    }
    // The seed state: the task may have moved on already, which tasks/get then tells.
    out.reply(id, 0, Bodies.result(id, shapes.handle(task, now)));
  }

  /** A new working task of {@code tool} in the store, or {@code null} when it holds maxTasks. */
  private TaskRecord create(String owner, String tool, long now) {
    TaskRecord task = new TaskRecord(UUID.randomUUID().toString(), owner, tool, TaskStatus.WORKING,
        "The call is running.", now, now, 0, null, null, null);
    return store.create(task, options.maxTasks(), now) ? task : null;
  }

  private FusionError busy() {
    return FusionError.of(Codes.SERVER_BUSY, "The server keeps " + options.maxTasks() + " tasks at "
            + "most, running or finished and not yet expired, and holds that many now; no task was "
            + "started.")
        .recovery("Fetch or cancel the tasks you started, or call again later.")
        .retryAfter(options.pollInterval().compareTo(Duration.ofSeconds(1)) > 0
            ? options.pollInterval() : Duration.ofSeconds(1));
  }

  /**
   * Turns a running {@code inputFirst} call into a task on this (its) thread: the task is stored,
   * the request is answered with its handle now, and its id returned ({@link #escalated} ends it).
   *
   * @throws FusionError {@code SERVER_BUSY} when the store holds as many tasks as it keeps
   */
  String escalate(Object id, RequestContext request, String tool, Sink out) {
    long now = System.currentTimeMillis();
    TaskRecord task = create(owner(request), tool, now);
    if (task == null) {
      throw busy();
    }
    Running run = new Running(task.taskId());
    run.thread = Thread.currentThread();
    running.put(task.taskId(), run);
    out.replyWhileHeld(id, 0, Bodies.result(id, shapes.handle(task, now)));
    return task.taskId();
  }

  /** Whether the client cancelled the task {@code taskId}. */
  boolean cancelled(String taskId) {
    Running run = running.get(taskId);
    return run != null && run.cancelled;
  }

  /** Ends an escalated call's task with {@code reply}, the call's tool result. */
  void escalated(String taskId, Reply reply, String missingCapability, RequestTrace trace) {
    try {
      complete(taskId, reply, missingCapability, trace);
    } finally {
      running.remove(taskId);
      Thread.interrupted(); // a cancellation's interrupt must not outlive the task
    }
  }

  private String owner(RequestContext request) {
    return options.scope() == null ? "" : String.valueOf(options.scope().apply(request));
  }

  private ExecutorService executor() {
    ExecutorService e = executor;
    if (e == null) {
      synchronized (this) {
        e = executor;
        if (e == null) {
          // Bounded by maxTasks: a task holds a thread only while it runs, and no more tasks than
          // that exist at once.
          e = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "fusion-task-" + THREADS.incrementAndGet());
            t.setDaemon(true);
            return t;
          });
          executor = e;
        }
      }
    }
    return e;
  }

  /** Runs the task's call on this (a task) thread: the same pipeline call a direct call makes. */
  private void run(Running run, Message message, Inbound inbound, ExposedTool tool,
      Map<String, ?> arguments, Map<String, Object> meta) {
    run.thread = Thread.currentThread();
    BoundAction action = ToolCalls.action(tool, arguments);
    TaskLink link = new TaskLink(this, run, meta, tools.egress(),
        action == null ? tools.registry().defaultRedactor() : action.redactor(),
        action == null ? -1 : action.limits().maxEgressBytes(), tool.name());
    RequestContext request = RequestContext.of(inbound.headers(), meta, null,
        ProtocolVersions.MODERN, link);
    link.request(request);
    RequestTrace trace = tools.trace(tool, request, message.id(), arguments);
    AtomicReference<Reply> early = new AtomicReference<>();
    try {
      if (run.cancelled) {
        return;
      }
      Reply reply = tools.call(tool, arguments == null ? Map.of() : arguments, request, r -> {
        // A deadline passed: the task finishes now with TIMEOUT, while the handler is stopped.
        early.set(r);
        complete(run.taskId, r, null, trace);
      }, trace);
      if (reply == null) {
        return;
      }
      complete(run.taskId, reply, link.missingCapability(), trace);
      features.afterToolCall(reply, request);
    } catch (RuntimeException | Error e) {
      String incident = ErrorReplies.newIncidentId();
      LOG.error("Task {} of {} failed outside the pipeline (incident {})", run.taskId, tool.name(),
          incident, e);
      finish(run.taskId, TaskStatus.FAILED, "The server failed.", null,
          internalError("Internal error (incident " + incident + ")."));
    } finally {
      trace.end();
      running.remove(run.taskId);
      run.thread = null;
      Thread.interrupted(); // a cancellation's interrupt must not outlive the task
    }
  }

  /**
   * Finishes a task with the tool result {@code reply}: {@code completed}, tool errors included,
   * except where the call produced no tool result — a capability the client did not declare
   * (-32021) or a failure of the server itself ({@code INTERNAL_ERROR}, -32603) — which is
   * {@code failed} with that JSON-RPC error, as the extension reserves that status for.
   */
  private void complete(String taskId, Reply reply, String missingCapability, RequestTrace trace) {
    if (missingCapability != null) {
      Map<String, Object> error = new LinkedHashMap<>();
      error.put("code", JsonRpc.MISSING_REQUIRED_CLIENT_CAPABILITY);
      error.put("message", "Missing required client capability: " + missingCapability
          + " (declare it in io.modelcontextprotocol/clientCapabilities).");
      error.put("data", Map.of("requiredCapabilities", Map.of(missingCapability, Map.of())));
      trace.rpcError(JsonRpc.MISSING_REQUIRED_CLIENT_CAPABILITY, null, (String) error.get("message"));
      finish(taskId, TaskStatus.FAILED, "The client did not declare the " + missingCapability
          + " capability the call needed.", null, error);
      return;
    }
    if (Codes.INTERNAL_ERROR.equals(reply.errorCode())) {
      Matcher m = MESSAGE.matcher(reply.text());
      String text = m.find() ? m.group(1) : "The tool failed unexpectedly.";
      finish(taskId, TaskStatus.FAILED, text, null, internalError("Internal error: " + text));
      return;
    }
    byte[] body = Bodies.modernToolResult(0, reply, serverInfo);
    trace.written(body, 0);
    Object result = ((Map<?, ?>) Json.parse(new String(body, StandardCharsets.UTF_8))).get("result");
    finish(taskId, TaskStatus.COMPLETED, reply.isError()
        ? "The call finished with a tool error (" + reply.errorCode() + ")." : "The call finished.",
        Json.write(result), null);
  }

  private static Map<String, Object> internalError(String message) {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", JsonRpc.INTERNAL_ERROR);
    error.put("message", message);
    return error;
  }

  /** Moves a task that has not finished to {@code status}; a finished one stays as it is. */
  void finish(String taskId, TaskStatus status, String message, String resultJson,
      Map<String, Object> error) {
    long now = System.currentTimeMillis();
    long expires = now + options.ttl().toMillis();
    String errorJson = error == null ? null : Json.write(error);
    store.update(taskId, t -> t.status().terminal() ? t
        : t.finished(status, message, resultJson, errorJson, now, expires));
  }

  // ---- tasks/get, tasks/update, tasks/cancel ---------------------------------------------------

  /** Answers {@code tasks/get}, {@code tasks/update} or {@code tasks/cancel}. */
  void answer(Message message, Inbound inbound, Sink out) {
    Object id = message.id();
    Map<?, ?> params = message.params();
    Map<?, ?> meta = params != null && params.get("_meta") instanceof Map<?, ?> m ? m : null;
    if (!TaskShapes.declared(meta)) {
      out.reply(id, JsonRpc.MISSING_REQUIRED_CLIENT_CAPABILITY, TaskShapes.missingExtension(id, message.method()));
      return;
    }
    if (params == null || !(params.get("taskId") instanceof String taskId)) {
      out.reply(id, JsonRpc.INVALID_PARAMS, Bodies.error(id, JsonRpc.INVALID_PARAMS,
          "Invalid params: " + message.method() + " needs the task id as the string \"taskId\"."));
      return;
    }
    @SuppressWarnings("unchecked")
    RequestContext request = RequestContext.of(inbound.headers(), (Map<String, Object>) meta, null,
        ProtocolVersions.MODERN);
    String owner;
    try {
      owner = owner(request);
    } catch (RuntimeException e) {
      String incident = ErrorReplies.newIncidentId();
      LOG.error("The task scope failed for {} (incident {})", message.method(), incident, e);
      out.reply(id, JsonRpc.INTERNAL_ERROR, Bodies.error(id, JsonRpc.INTERNAL_ERROR,
          "Internal error: the task could not be scoped (incident " + incident + ")."));
      return;
    }
    long now = System.currentTimeMillis();
    TaskRecord task = store.get(taskId);
    // Another scope's task is answered as one that does not exist: its existence is not told.
    if (task == null || !task.owner().equals(owner)) {
      out.reply(id, JsonRpc.INVALID_PARAMS, Bodies.error(id, JsonRpc.INVALID_PARAMS,
          "Failed to retrieve task: Task not found. There is no task " + dev.mcpfusion.wire.Echo.quoted(taskId)
              + " for this caller; start the call again to get a new task id."));
      return;
    }
    if (task.expired(now)) {
      // Its result is dropped at once; the record says "expired" until the store purges it.
      store.update(taskId, t -> t.finished(t.status(), t.statusMessage(), null, null, t.lastUpdatedAtMs(),
          t.expiresAtMs()));
      out.reply(id, JsonRpc.INVALID_PARAMS, Bodies.error(id, JsonRpc.INVALID_PARAMS,
          "Failed to retrieve task: Task has expired. Its result was kept for "
              + options.ttl().toMillis() + " ms after it finished; start the call again."));
      return;
    }
    switch (message.method()) {
      case JsonRpc.TASKS_GET -> out.reply(id, 0, Bodies.result(id, shapes.detailed(task, now)));
      case JsonRpc.TASKS_UPDATE -> control.update(message, task, params.get("inputResponses"), out);
      default -> control.cancel(message, task, out);
    }
  }

  // ---- what the handler asks the client ---------------------------------------------------------

  /** Adds a question the handler waits on to the task: it is {@code input_required} until answered. */
  void asking(String taskId, String key, String method, Map<String, Object> params) {
    long now = System.currentTimeMillis();
    store.update(taskId, t -> {
      if (t.status().terminal()) {
        return t;
      }
      Map<String, Object> questions = TaskShapes.questions(t);
      Map<String, Object> request = new LinkedHashMap<>();
      request.put("method", method);
      request.put("params", params);
      questions.put(key, request);
      return t.withInputRequests(Json.write(questions)).withStatus(TaskStatus.INPUT_REQUIRED,
          "Waiting for the client's answer to " + method + " (tasks/update).", now);
    });
  }

  /** Removes an answered (or withdrawn) question; with none left the task is working again. */
  void answered(String taskId, String key) {
    long now = System.currentTimeMillis();
    store.update(taskId, t -> {
      Map<String, Object> questions = TaskShapes.questions(t);
      if (t.status().terminal() || questions.remove(key) == null) {
        return t;
      }
      TaskRecord changed = t.withInputRequests(questions.isEmpty() ? null : Json.write(questions));
      return questions.isEmpty()
          ? changed.withStatus(TaskStatus.WORKING, "The call is running.", now) : changed;
    });
  }

  /** Stops the task threads (the server is closing); running tasks are left as they are. */
  void close() {
    if (listening != null) {
      try {
        listening.close();
      } catch (Exception e) {
        LOG.debug("Stopping hearing other instances' task messages failed", e);
      }
    }
    ExecutorService e = executor;
    if (e != null) {
      e.shutdownNow();
    }
  }

  /** The tasks store (tests). */
  TaskStore store() {
    return store;
  }

  /** A task whose handler runs in this process: its thread and the questions it waits on. */
  static final class Running {
    final String taskId;
    final Map<String, java.util.concurrent.CompletableFuture<Map<String, Object>>> questions =
        new ConcurrentHashMap<>();
    final AtomicInteger asked = new AtomicInteger();
    volatile Thread thread;
    volatile boolean cancelled;

    Running(String taskId) {
      this.taskId = taskId;
    }
  }
}
