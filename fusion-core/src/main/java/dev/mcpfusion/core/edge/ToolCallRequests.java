package dev.mcpfusion.core.edge;

import dev.mcpfusion.annotation.TaskMode;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.error.ErrorReplies;
import dev.mcpfusion.wire.input.InputRound;
import dev.mcpfusion.wire.input.RequestStates;
import dev.mcpfusion.core.server.AsyncCall;
import dev.mcpfusion.core.server.BoundAction;
import dev.mcpfusion.core.server.ExposedTool;
import dev.mcpfusion.core.server.Exposer;
import dev.mcpfusion.core.spi.Args;
import dev.mcpfusion.core.surface.Surfaces;
import dev.mcpfusion.core.trace.internal.RequestTrace;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.ProtocolVersions;
import dev.mcpfusion.wire.Reply;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers {@code tools/call} of both eras: checks the params, looks the tool up once, runs the
 * pipeline once ({@link ToolCalls}) and writes the era's result straight from the {@code Reply},
 * with the call's span told what was written.
 */
final class ToolCallRequests {
  private static final Logger LOG = LoggerFactory.getLogger(ToolCallRequests.class);

  private final ToolCalls tools;
  private final FeatureRequests features;
  private final InputRequired input;
  /** Writes a tool's result in an era; replaceable only by tests, to prove an unwritable result is answered. */
  private volatile Edge.ResultWriter resultWriter;
  private final TaskCalls tasks;
  private final ScopedTools views;

  ToolCallRequests(ToolCalls tools, FeatureRequests features, InputRequired input,
      Edge.ResultWriter resultWriter, TaskCalls tasks, ScopedTools views) {
    this.views = views;
    this.tools = tools;
    this.features = features;
    this.input = input;
    this.resultWriter = resultWriter;
    this.tasks = tasks;
  }

  /** Replaces the result writer (tests of the unwritable-result rule only). */
  void resultWriter(Edge.ResultWriter writer) {
    this.resultWriter = writer;
  }

  @SuppressWarnings("unchecked")
  void toolCall(Message message, Inbound inbound, EdgeSession session, Sink out,
      boolean modernEra) {
    Object id = message.id();
    String invalid = ToolCalls.invalidParams(message.rawParams());
    if (invalid != null) {
      out.reply(id, JsonRpc.INVALID_PARAMS, Bodies.error(id, JsonRpc.INVALID_PARAMS, invalid));
      return;
    }
    Map<?, ?> params = message.params();
    String name = (String) params.get("name");
    Map<String, Object> meta = (Map<String, Object>) params.get("_meta");
    String sessionId = session == null ? null : session.id();
    String version = modernEra ? ProtocolVersions.MODERN : Edge.protocolVersion(inbound, session);
    ExposedTool tool = tools.find(name);
    Map<String, ?> arguments = (Map<String, ?>) params.get("arguments");
    ScopedTools.View view = views.view(inbound, session, modernEra);
    if (tool == null || !views.tagged(tool, view.wanted())) {
      // A tool its tags hide is answered as one that does not exist: nothing tells it is there.
      message.targetTraced();
      out.reply(id, JsonRpc.INVALID_PARAMS, tools.unknownTool(id, name,
          RequestContext.of(inbound.headers(), meta, sessionId, version, null, inbound.caller(),
              inbound.networkTransport()), arguments, taggedNames(view)));
      return;
    }
    Reply refusal = refusal(tool, arguments, view);
    TaskMode taskMode = modernEra ? tasks.mode(tool, arguments) : null;
    boolean asTask = taskMode != null && TaskShapes.declared(meta);
    if (asTask && refusal == null && !tasks.inputFirst(tool, arguments)) {
      RequestRunner.run(message, session,
          (sink, call) -> tasks.start(message, inbound, tool, arguments, meta, sink), out);
      return;
    }
    if (taskMode == TaskMode.REQUIRED && !asTask) {
      out.reply(id, JsonRpc.MISSING_REQUIRED_CLIENT_CAPABILITY,
          TaskShapes.missingExtension(id, "the tool " + name));
      return;
    }
    // A 2026-07-28 call may ask the client: its answers so far come with it (SEP-2322).
    String binding = modernEra ? InputRequired.binding(JsonRpc.TOOLS_CALL, name, arguments) : null;
    InputRound round = modernEra ? input.round(message, binding, out) : null;
    if (modernEra && round == null) {
      return;
    }
    RequestRunner.run(message, session, (sink, call) -> {
      CallLink link = tools.link(tool, arguments, session, sink, call, modernEra, meta);
      link.input(round);
      RequestContext request = RequestContext.of(inbound.headers(), meta, sessionId, version, link,
          inbound.caller(), inbound.networkTransport());
      link.request(request);
      if (asTask) {
        // @TaskSupport(inputFirst = true): a direct call (asking with input-required results)
        // until the handler calls startTask(), which answers with the task's handle.
        link.escalation(new CallLink.Escalation() {
          @Override
          public String start() {
            return tasks.escalate(id, request, name, sink);
          }

          @Override
          public boolean cancelled(String taskId) {
            return tasks.cancelled(taskId);
          }
        });
      }
      // The span ends once the reply is written (it records the bytes written); null: no tracing.
      RequestTrace trace = tools.trace(tool, request, id, arguments);
      message.targetTraced();
      if (refusal != null) {
        try {
          writeResult(id, name, tools.refused(tool, arguments, request, refusal, trace), modernEra,
              sink, false, trace);
        } finally {
          trace.end();
        }
        return;
      }
      Map<String, ?> args = arguments == null ? Map.of() : arguments;
      if (ToolCalls.async(tool, arguments)) {
        // No thread waits for the stage: the call stays tracked (cancellable) until it answers.
        if (call != null) {
          call.hold();
        }
        AsyncCall later = tools.callLater(tool, args, request, trace, (reply, held) -> {
          boolean wrote = false;
          try {
            wrote = reply != null
                && answered(id, name, reply, held, modernEra, link, round, binding, request, sink, trace,
                    session, r -> advance(tool, arguments, r, view));
          } finally {
            trace.end();
            if (call != null) {
              session.done(call);
            }
          }
          if (wrote) {
            features.afterToolCall(reply, request);
          }
        });
        if (call != null) {
          call.onCancel(later::cancel);
        }
        tools.start(later, tool, args, request, trace);
        return;
      }
      Reply reply;
      boolean wrote;
      try {
        // A deadline's TIMEOUT reply is written at the deadline, from the timer's thread (without
        // what the handler attached); the pipeline then returns null and whatever the handler
        // produced is never written.
        reply = tools.call(tool, args, request, early -> {
          if (link.taskId() != null) {
            tasks.escalated(link.taskId(), early, null, trace);
          } else {
            writeResult(id, name, early, modernEra, sink, true, trace);
          }
        }, trace);
        if (reply == null) {
          return;
        }
        wrote = answered(id, name, reply, false, modernEra, link, round, binding, request, sink, trace,
            session, r -> advance(tool, arguments, r, view));
      } finally {
        trace.end();
      }
      if (wrote) {
        features.afterToolCall(reply, request);
      }
    }, out);
  }

  /** The names of the tools a request asking for {@code view}'s tags sees. */
  private java.util.List<String> taggedNames(ScopedTools.View view) {
    java.util.List<String> names = new java.util.ArrayList<>();
    for (ExposedTool t : tools.registry().tools()) {
      if (views.tagged(t, view.wanted())) {
        names.add(t.name());
      }
    }
    return names;
  }

  /**
   * The reply to a call the edge refuses before the pipeline, or {@code null}: an action of a
   * GROUPED tool that its tags hide is answered as an unknown action (offering only the actions
   * shown), one its session's workflow state does not allow with the {@code WRONG_STATE} envelope.
   */
  private Reply refusal(ExposedTool tool, Map<String, ?> arguments, ScopedTools.View view) {
    Surfaces surfaces = views.surfaces();
    BoundAction action = ToolCalls.action(tool, arguments);
    if (tool.grouped() && view.wanted() != null
        && (action == null || !surfaces.tagged(action, view.wanted()))) {
      // As the pipeline answers a wrong discriminator, offering only the actions shown.
      java.util.List<String> all = new java.util.ArrayList<>(tool.actions().keySet());
      java.util.List<String> shown = new java.util.ArrayList<>();
      for (BoundAction a : surfaces.shown(tool, view.wanted(), null)) {
        shown.add(tool.renderedActions().get(all.indexOf(a.name())));
      }
      Object chosen = arguments == null ? null : arguments.get(Exposer.DISCRIMINATOR);
      if (chosen == null) {
        return ErrorReplies.missingDiscriminator(tool.name(), shown);
      }
      return chosen instanceof String name ? ErrorReplies.unknownAction(tool.name(), name, shown)
          : ErrorReplies.invalidDiscriminator(tool.name(), Args.jsonType(chosen), shown);
    }
    return action == null ? null : surfaces.refusal(action, view.states());
  }

  /**
   * Writes the answer to a call its pipeline gave: the task's result when the call became one, an
   * error when the 2026-07-28 call needs a capability the client lacks, an input-required result
   * when the handler asked, else the tool's result ({@code held}: see {@link #writeResult}).
   *
   * @return whether the tool's result was written (the caller then runs what follows a call)
   */
  private boolean answered(Object id, String name, Reply reply, boolean held, boolean modernEra,
      CallLink link, InputRound round, String binding, RequestContext request, Sink sink,
      RequestTrace trace, EdgeSession session, java.util.function.Predicate<Reply> advance) {
    if (link.taskId() != null) {
      // The request was answered with the task's handle: the result is the task's.
      tasks.escalated(link.taskId(), reply, link.missingCapability(), trace);
      features.afterToolCall(reply, request);
      return false;
    }
    String missing = link.missingCapability();
    if (modernEra && missing != null) {
      String text = "Missing required client capability: " + missing
          + " (declare it in io.modelcontextprotocol/clientCapabilities).";
      byte[] body = Bodies.error(id, JsonRpc.MISSING_REQUIRED_CLIENT_CAPABILITY, text,
          Map.of("requiredCapabilities", Map.of(missing, Map.of())));
      sink.reply(id, JsonRpc.MISSING_REQUIRED_CLIENT_CAPABILITY, body);
      trace.rpcError(JsonRpc.MISSING_REQUIRED_CLIENT_CAPABILITY, null, text);
      trace.written(body, JsonRpc.MISSING_REQUIRED_CLIENT_CAPABILITY);
      return false;
    }
    if (round != null && round.waiting()) {
      // The handler asked: whatever it returned or threw while unwinding is not its result.
      int code = 0;
      byte[] body;
      try {
        body = input.result(id, round, binding);
      } catch (RequestStates.TooLarge e) {
        code = JsonRpc.INVALID_PARAMS;
        body = InputRequired.tooLarge(id, e);
      }
      sink.reply(id, code, body);
      trace.written(body, code);
      return false;
    }
    // The state moves before the result is written, so a tools/list the client sends on reading
    // it sees the new state; the notification follows the result.
    boolean moved = advance.test(reply);
    writeResult(id, name, reply, modernEra, sink, held, trace);
    if (moved) {
      session.notify(JsonRpc.TOOLS_LIST_CHANGED, null);
    }
    return true;
  }

  /** Moves the session's workflow state when {@code reply} ends a transition; true when it moved. */
  private boolean advance(ExposedTool tool, Map<String, ?> arguments, Reply reply,
      ScopedTools.View view) {
    return views.surfaces().advance(ToolCalls.action(tool, arguments), reply, view.states());
  }

  /**
   * Writes the result of a call; {@code held} when the call's thread is still held by its handler
   * (a deadline's reply, {@link Sink#replyWhileHeld}). The call's span, when there is one, is told
   * the bytes written.
   */
  private void writeResult(Object id, String name, Reply reply, boolean modernEra, Sink sink,
      boolean held, RequestTrace trace) {
    byte[] body;
    int code = 0;
    try {
      body = resultWriter.write(id, reply, modernEra);
    } catch (RuntimeException | StackOverflowError unwritable) {
      String incident = ErrorReplies.newIncidentId();
      LOG.error("Could not write the result of {} for request {} (incident {})", name, id, incident,
          unwritable);
      code = JsonRpc.INTERNAL_ERROR;
      body = Bodies.error(id, JsonRpc.INTERNAL_ERROR,
          "Internal error: the result could not be written (incident " + incident + ").");
    }
    if (held) {
      sink.replyWhileHeld(id, code, body);
    } else {
      sink.reply(id, code, body);
    }
    trace.written(body, code);
  }
}
