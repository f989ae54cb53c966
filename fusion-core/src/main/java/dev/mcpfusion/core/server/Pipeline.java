package dev.mcpfusion.core.server;

import dev.mcpfusion.core.Content;
import dev.mcpfusion.core.FusionMiddleware;
import dev.mcpfusion.core.Invocation;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.egress.Egress;
import dev.mcpfusion.core.error.ErrorReplies;
import dev.mcpfusion.core.guard.ActionLimits;
import dev.mcpfusion.core.guard.ConcurrencyGate;
import dev.mcpfusion.core.guard.Deadlines;
import dev.mcpfusion.core.guard.EgressCap;
import dev.mcpfusion.core.guard.Guard;
import dev.mcpfusion.core.guard.KeyedGate;
import dev.mcpfusion.core.presenter.PerCall;
import dev.mcpfusion.core.presenter.ResultPresenter;
import dev.mcpfusion.core.redact.EgressRedaction;
import dev.mcpfusion.redact.Redactor;
import dev.mcpfusion.redact.Tally;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.Args;
import dev.mcpfusion.core.spi.Problems;
import dev.mcpfusion.core.spi.ResultShape;
import dev.mcpfusion.core.spi.Verb;
import dev.mcpfusion.core.sync.StateSync;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.core.trace.internal.RequestTrace;
import dev.mcpfusion.core.trace.internal.SpanStart;
import dev.mcpfusion.wire.References;
import dev.mcpfusion.wire.Reply;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The call pipeline, one order for every call: resolve the action, decode and
 * validate, context and middleware, handler, presenter, state sync. Every failure on the way
 * becomes a {@link Reply}; nothing thrown escapes, and no exception text reaches the agent.
 *
 * <p>An action's limits ({@code @Limits}, {@code Builder.limits}) add the concurrency gate (step 2,
 * between resolving and decoding), the deadline (step 5: it runs from the gate to the finished
 * reply, so time in the queue counts) and the byte cap (step 7, between presenting and state
 * sync); an action without limits pays for none of them. The gate and the deadline are
 * {@link Guard}'s, shared with prompts, resources and completions. The trace span (step 9) wraps
 * all of {@link #call} — the edge's, which also ends after the reply is written — and is the
 * current span while the middleware chain and the handler run; with {@link FusionTracer#NOOP} no
 * span work is done at all. A {@code @SerializeOn} action's calls take turns per key after step 3;
 * an async action's call runs to its handler's return on the calling thread and the rest when its
 * stage completes ({@link AsyncCall}).
 */
public final class Pipeline {
  private static final Logger LOG = LoggerFactory.getLogger(Pipeline.class);

  private final ToolRegistry registry;
  private final References references;
  private final BeanValidation beanValidation = new BeanValidation();
  private final FusionTracer tracer;
  private final Egress egress;
  private final Deadlines deadlines = new Deadlines();
  private final AsyncCall.Timer timers = new AsyncCall.Timer();
  private final CallFailures failures;

  /** A pipeline over a built registry, without tracing or egress filters. */
  public Pipeline(ToolRegistry registry) {
    this(registry, FusionTracer.NOOP);
  }

  /** A pipeline over a built registry that traces every call with {@code tracer}. */
  public Pipeline(ToolRegistry registry, FusionTracer tracer) {
    this(registry, tracer, new Egress(List.of(), registry.defaultRedaction()));
  }

  /**
   * A pipeline over a built registry that traces every call with {@code tracer}; what its handlers
   * attach and say to the client passes {@code egress}.
   */
  public Pipeline(ToolRegistry registry, FusionTracer tracer, Egress egress) {
    this.registry = registry;
    this.references = registry.references();
    this.tracer = tracer == null ? FusionTracer.NOOP : tracer;
    this.egress = egress;
    this.failures = new CallFailures(registry, references);
  }

  /** The egress chain of the server this pipeline serves. */
  public Egress egress() {
    return egress;
  }

  /**
   * Runs one {@code tools/call} of {@code tool} and answers it. Never throws. A call past its
   * deadline returns {@code TIMEOUT} once its handler comes back (the handler is interrupted at the
   * deadline; what it produces is discarded).
   */
  public Reply call(ExposedTool tool, Map<String, ?> arguments, RequestContext request) {
    return call(tool, arguments, request, null);
  }

  /**
   * Runs one {@code tools/call} of {@code tool} and answers it, in a span of its own (when the
   * pipeline has a tracer) that ends with the call: nothing is written, so the span has no response
   * size. Never throws.
   *
   * @param early where the {@code TIMEOUT} reply goes when the call's deadline passes: it is sent
   *     at the deadline, on the timer's thread, even if the handler ignores its interrupt; with
   *     {@code null} it is returned once the handler comes back
   * @return the reply, or {@code null} when it went to {@code early} (whatever the handler produced
   *     after the deadline is discarded)
   */
  public Reply call(ExposedTool tool, Map<String, ?> arguments, RequestContext request,
      Consumer<Reply> early) {
    // 9. one span around all of it (RequestTrace.OFF when the server does not trace)
    RequestTrace trace = SpanStart.tool(tracer, tool.name(), registry.exposition(),
        tool.router().name(), tool.grouped() ? null : tool.single().name(), request, null, arguments);
    try {
      return call(tool, arguments, request, early, trace);
    } finally {
      trace.end();
    }
  }

  /**
   * As {@link #call(ExposedTool, Map, RequestContext, Consumer)}, in the span {@code trace} of the
   * caller, which started it and ends it once the reply is written ({@link RequestTrace#OFF}: not
   * traced). The
   * span is told the outcome and is current while the middleware chain and the handler run.
   */
  public Reply call(ExposedTool tool, Map<String, ?> arguments, RequestContext request,
      Consumer<Reply> early, RequestTrace trace) {
    Early sent = early == null ? null : new Early(early);
    Reply reply = null;
    try {
      reply = execute(tool, arguments, request, trace, sent, null);
    } finally {
      trace.replied(reply);
    }
    return sent != null && sent.expired ? null : reply;
  }

  /**
   * Runs one {@code tools/call} of an action whose handler answers with a {@code CompletionStage},
   * in the span {@code trace} of the caller: the reply goes to {@code later} exactly once — before
   * this returns when the call fails early, else when the stage completes, the deadline passes or
   * the call is cancelled — and no thread waits for the stage meanwhile. Never throws.
   */
  public void call(ExposedTool tool, Map<String, ?> arguments, RequestContext request,
      RequestTrace trace, AsyncCall later) {
    Reply reply = execute(tool, arguments, request, trace, null, later);
    later.answer(reply);
  }

  /** The timer behind the server's deadlines, shared with prompts, resources and completions. */
  public Deadlines deadlines() {
    return deadlines;
  }

  /** Where a call's reply goes when its deadline passes first. */
  private static final class Early {
    final Consumer<Reply> sink;
    /** Set by the call's thread once it knows the deadline expired first (so the sink has the reply). */
    volatile boolean expired;

    Early(Consumer<Reply> sink) {
      this.sink = sink;
    }
  }

  /** The pipeline proper; {@code trace} is {@link RequestTrace#OFF} when not tracing. */
  private Reply execute(ExposedTool tool, Map<String, ?> arguments, RequestContext request,
      RequestTrace trace, Early early, AsyncCall later) {
    String router = tool.router().name();
    String origin = tool.grouped() ? tool.name() : tool.single().name();
    try {
      // 1. resolve tool -> action
      BoundAction action;
      Map<String, ?> args;
      if (tool.grouped()) {
        // The discriminator selects the action and is not one of its fields: drop it from a copy.
        Map<String, Object> rest = arguments == null
            ? new LinkedHashMap<>()
            : new LinkedHashMap<>(arguments);
        args = rest;
        Object discriminator = rest.remove(Exposer.DISCRIMINATOR);
        if (discriminator == null) {
          trace.missingAction();
          return ErrorReplies.missingDiscriminator(router, tool.renderedActions());
        }
        if (!(discriminator instanceof String name)) {
          String type = Args.jsonType(discriminator);
          trace.actionNotText(type);
          return ErrorReplies.invalidDiscriminator(router, type, tool.renderedActions());
        }
        action = tool.actions().get(name);
        if (action == null) {
          trace.unknownAction(name, router);
          return ErrorReplies.unknownAction(router, name, tool.renderedActions());
        }
        trace.action(action.name());
      } else {
        // FLAT: the arguments are only read (decoders and middleware get a read-only view).
        args = arguments == null ? Map.of() : arguments;
        action = tool.single();
      }
      origin = action.name();
      // 1b. scopes: a caller without them learns nothing more (not even whether its input is valid)
      List<String> missing = request.caller().missing(action.descriptor().scopes());
      if (!missing.isEmpty()) {
        trace.forbidden(missing);
        return ErrorReplies.forbidden(router, action.name(), missing);
      }
      if (later != null && action.mode().async()) {
        return staged(tool, action, args, request, trace, later);
      }
      return action.limits().any()
          ? limited(tool, action, args, request, trace, early)
          : run(tool, action, args, request, trace, null);
    } catch (Throwable failure) {
      return failures.failed(router, origin, tool.name(), failure, trace);
    }
  }

  /**
   * Steps 2 and 5 around the rest ({@link Guard}): the concurrency gate, and the deadline from the
   * gate to the finished reply. After an expiry the call's own outcome, reply or failure, is
   * discarded.
   */
  private Reply limited(ExposedTool tool, BoundAction action, Map<String, ?> args,
      RequestContext request, RequestTrace trace, Early early) throws Throwable {
    ActionLimits limits = action.limits();
    String router = action.router().name();
    Runnable atDeadline = early == null || limits.timeoutMs() <= 0 ? null
        : () -> early.sink.accept(ErrorReplies.timeout(router, action.name(), limits.timeoutMs()));
    Reply reply = Guard.run(limits, action.gate(), deadlines, atDeadline, new Guard.Refusal<>() {
      @Override
      public Reply busy(ConcurrencyGate gate) {
        trace.busy();
        return ErrorReplies.serverBusy(router, action.name(), gate.maxConcurrent(), gate.queue());
      }

      @Override
      public Reply timedOut(Throwable discarded) {
        if (early != null) {
          early.expired = true;
        }
        if (discarded != null) {
          LOG.debug("[{}/{}] failed after its deadline; the failure is discarded", router,
              action.name(), discarded);
        }
        trace.timedOut(limits.timeoutMs());
        return ErrorReplies.timeout(router, action.name(), limits.timeoutMs());
      }
    }, () -> run(tool, action, args, request, trace, null));
    return capError(action, reply, trace);
  }

  /** Step 7 for an error reply: the byte cap holds for it too (a success was fitted before state sync). */
  private static Reply capError(BoundAction action, Reply reply, RequestTrace trace) {
    int cap = action.limits().maxEgressBytes();
    if (reply == null || !reply.isError() || cap <= 0) {
      return reply;
    }
    Reply fitted = EgressCap.fit(reply, cap, action.router().name(), action.name(),
        UnaryOperator.identity());
    if (fitted != reply) {
      trace.capped();
    }
    return fitted;
  }

  /**
   * An async action's call ({@link AsyncCall}): steps 2 to 5 on this thread, the rest when its stage
   * completes; the deadline runs from here to the answer. Returns the reply to send now, or
   * {@code null} when {@code later} answers.
   */
  private Reply staged(ExposedTool tool, BoundAction action, Map<String, ?> args,
      RequestContext request, RequestTrace trace, AsyncCall later) throws Throwable {
    ActionLimits limits = action.limits();
    String router = action.router().name();
    Reply now = later.start(action.gate(), limits.timeoutMs(), timers, () -> {
      trace.busy();
      return ErrorReplies.serverBusy(router, action.name(), action.gate().maxConcurrent(),
          action.gate().queue());
    }, () -> {
      trace.timedOut(limits.timeoutMs());
      return capError(action, ErrorReplies.timeout(router, action.name(), limits.timeoutMs()), trace);
    }, () -> run(tool, action, args, request, trace, later));
    return capError(action, now, trace);
  }

  /**
   * Steps 3 to 8. With {@code later} (an async action's call), a stage the handler returns is
   * attached to it and {@code null} returned: its value is presented when it completes.
   */
  private Reply run(ExposedTool tool, BoundAction action, Map<String, ?> args,
      RequestContext request, RequestTrace trace, AsyncCall later) throws Throwable {
    ActionDescriptor descriptor = action.descriptor();
    String router = action.router().name();
    KeyedGate keys = action.mode().keys();
    Object key = null;
    try {
      // 3. decode + validate (_select and the wire cursor are consumed first: no handler sees them)
      Problems problems = new Problems();
      PerCall perCall = PerCall.NONE;
      Map<String, ?> input = args;
      // A page always needs its per-call state (the next-page advice names the tool); a selectable
      // view only when the agent sent _select, so an ordinary call copies nothing.
      if (PerCall.applies(descriptor) && (descriptor.resultShape() == ResultShape.PAGE
          || args.containsKey(PerCall.SELECT))) {
        Map<String, Object> own = new LinkedHashMap<>(args);
        perCall = PerCall.read(descriptor, own, problems, references.render(action.reference()));
        input = own;
      }
      if (action.document() != null) {
        action.document().validate(input, problems);
        if (!problems.isEmpty()) {
          trace.validation(problems.list());
          return ErrorReplies.validation(router, action.name(), problems.list());
        }
      }
      Object[] decoded = action.router().router().decode(action.index(), input, problems);
      if (problems.isEmpty() && action.executable() != null) {
        beanValidation.validate(action.executable(), decoded, problems);
      }
      if (!problems.isEmpty()) {
        trace.validation(problems.list());
        return ErrorReplies.validation(router, action.name(), problems.list());
      }

      // 3b. @SerializeOn: calls naming the same entity take turns (the wait counts toward the deadline)
      Object entity = keys == null ? null : KeyedGate.key(input.get(keys.argument()));
      if (entity != null) {
        if (!keys.enter(entity)) {
          trace.busy();
          return ErrorReplies.keyBusy(router, action.name(), keys.argument(), keys.queue());
        }
        if (later == null) {
          key = entity; // given back when this thread leaves
        } else {
          later.hold(() -> keys.leave(entity)); // given back when the call is over
        }
      }

      // 4. context providers (lazily, from here on) and the middleware chain; 5. the handler
      CallInvocation invocation = new CallInvocation(action, tool.name(), input, request,
          registry.providers());
      // Whether the handler itself ran: a middleware that answers without calling it changed nothing.
      boolean[] handled = new boolean[1];
      // Asked, not left to OFF.withCurrent: the lambda would be an allocation per untraced call.
      Object result = trace.recording()
          ? trace.withCurrent(() -> proceed(action, decoded, 0, invocation, handled))
          : proceed(action, decoded, 0, invocation, handled);
      if (action.mode().async() && result instanceof CompletionStage<?> stage) {
        if (later == null) {
          result = AsyncCall.await(stage); // a caller that answers on this thread (tasks, in memory)
        } else {
          PerCall shown = perCall;
          later.attach(stage, value -> completed(tool, action, value, shown, handled[0], request,
              args, trace), failure -> failedLate(tool, action, failure, args, trace));
          return null;
        }
      }

      // 6. presenter
      Reply reply = ResultPresenter.present(action.presentation(), result, references, perCall);

      return egress(action, reply, perCall, handled[0], request, trace);
    } catch (Throwable failure) {
      return failures.mapped(action, failure, args, trace);
    } finally {
      if (key != null) {
        keys.leave(key);
      }
    }
  }

  /** Steps 6 to 8 on an async handler's value, or its failure's answer; never throws. */
  private Reply completed(ExposedTool tool, BoundAction action, Object value, PerCall perCall,
      boolean handled, RequestContext request, Map<String, ?> args, RequestTrace trace) {
    try {
      Reply reply = ResultPresenter.present(action.presentation(), value, references, perCall);
      return egress(action, reply, perCall, handled, request, trace);
    } catch (Throwable failure) {
      return failedLate(tool, action, failure, args, trace);
    }
  }

  /** The answer to an async handler's failure, exactly as to a thrown one; never throws. */
  private Reply failedLate(ExposedTool tool, BoundAction action, Throwable failure,
      Map<String, ?> args, RequestTrace trace) {
    Reply reply;
    try {
      reply = failures.mapped(action, failure, args, trace);
    } catch (Throwable unexpected) {
      reply = failures.failed(action.router().name(), action.name(), tool.name(), unexpected,
          trace);
    }
    return capError(action, reply, trace);
  }

  /**
   * Steps 7 and 8 on a presented success: redaction, the byte cap, then the state-sync mark. Kept
   * out of {@link #run}, so that its compiled size does not depend on which guards are on.
   */
  private Reply egress(BoundAction action, Reply presented, PerCall perCall, boolean handled,
      RequestContext request, RequestTrace trace) {
    ActionDescriptor descriptor = action.descriptor();
    String router = action.router().name();
    Reply reply = presented;
    // 7. egress guard: redaction first. It fails closed: whatever it throws is answered as
    // INTERNAL_ERROR (run passes it on), never with the reply it could not mask.
    Redactor redactor = action.redactor();
    if (redactor != null && EgressRedaction.knownClean(redactor, reply, descriptor.resultShape())) {
      // The usual answer, vouched for without a walk: nothing to count, nothing allocated.
      trace.redactions(0);
    } else if (redactor != null) {
      Tally tally = new Tally();
      reply = EgressRedaction.success(redactor, reply, descriptor.resultShape(), references, tally);
      trace.redactions(tally.count());
    }

    // What the handler attached leaves with the reply: its text redacted like every text no view
    // shaped, and counted by the byte cap below.
    List<Content> attached = request.attachments();
    if (!attached.isEmpty()) {
      reply = reply.withAttachments(
          Egress.attachments(attached, egress.content(redactor), new Tally()));
    }

    // 7. then the byte cap, measured on the reply as sent (step 8's mark included)
    boolean mark = handled && descriptor.verb() != Verb.QUERY && !descriptor.invalidates().isEmpty();
    int cap = action.limits().maxEgressBytes();
    if (cap > 0) {
      Reply uncapped = reply;
      reply = EgressCap.fit(reply, cap, router, action.name(), mark
          ? r -> StateSync.withInvalidation(r, action.reference(), descriptor.invalidates())
          : UnaryOperator.identity(), descriptor.resultShape() == ResultShape.PAGE ? perCall : null);
      if (reply != uncapped) {
        trace.capped();
      }
    }

    // 8. state sync: marks on successful mutations only, and only when the handler ran
    if (mark) {
      reply = StateSync.withInvalidation(reply, action.reference(), descriptor.invalidates());
    }
    return reply;
  }

  private static Object proceed(BoundAction action, Object[] decoded, int position,
      Invocation call, boolean[] handled) throws Exception {
    List<FusionMiddleware> chain = action.chain();
    if (position == chain.size()) {
      handled[0] = true;
      return action.router().router().invoke(action.index(), decoded, new Lookup(call));
    }
    return chain.get(position).invoke(call,
        next -> proceed(action, decoded, position + 1, next, handled));
  }

  /** The exception the handler or middleware threw, without reflective or async wrappers. */
  static Throwable unwrap(Throwable failure) {
    Throwable current = failure;
    for (int i = 0; i < 16; i++) {
      Throwable cause = current.getCause();
      boolean wrapper = current instanceof InvocationTargetException
          || current instanceof UndeclaredThrowableException
          || current instanceof CompletionException
          || current instanceof ExecutionException;
      if (!wrapper || cause == null) {
        return current;
      }
      current = cause;
    }
    return current;
  }

  /** Resolves {@code @Context} parameters for the generated dispatcher from the invocation. */
  private record Lookup(Invocation call) implements dev.mcpfusion.core.spi.ContextLookup {
    @Override
    public <T> T get(Class<T> type) {
      return call.get(type).orElse(null);
    }
  }
}
