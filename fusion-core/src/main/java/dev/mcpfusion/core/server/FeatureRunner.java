package dev.mcpfusion.core.server;

import dev.mcpfusion.core.CompletionContext;
import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.FusionMiddleware;
import dev.mcpfusion.core.Invocation;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.error.ErrorReplies;
import dev.mcpfusion.core.guard.ActionLimits;
import dev.mcpfusion.core.guard.ConcurrencyGate;
import dev.mcpfusion.core.guard.Deadlines;
import dev.mcpfusion.core.guard.Guard;
import dev.mcpfusion.core.spi.ContextLookup;
import dev.mcpfusion.core.trace.internal.RequestTrace;
import dev.mcpfusion.wire.Codes;
import dev.mcpfusion.wire.Echo;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.Meta;
import dev.mcpfusion.wire.References;
import dev.mcpfusion.wire.Reply;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one call of a prompt, resource or completion into user code: through the middleware of its
 * class, under its limits (the concurrency gate and the deadline, {@link Guard}, as for a tool),
 * with the request's span current, and turns every failure into a {@link FeatureError}.
 */
final class FeatureRunner {
  private static final Logger LOG = LoggerFactory.getLogger(FeatureRunner.class);

  private final Map<Class<?>, Function<RequestContext, ?>> providers;
  private final References references;
  private final Deadlines deadlines;

  FeatureRunner(Map<Class<?>, Function<RequestContext, ?>> providers, References references,
      Deadlines deadlines) {
    this.providers = providers;
    this.references = references;
    this.deadlines = deadlines;
  }

  /** One call into user code, through the middleware of its class. */
  @FunctionalInterface
  interface Handler {
    Object call(ContextLookup context) throws Exception;
  }

  /**
   * What turns the handler's result into the answer (presenting, redacting): it runs under the
   * same deadline and gate slot as the handler, as a tool's presenter does.
   */
  @FunctionalInterface
  interface Shape {
    Object answer(Object result) throws Exception;
  }

  /**
   * Runs one call into user code, through the middleware of its class, under its limits: the
   * concurrency gate and the deadline ({@link Guard}, as for a tool: over capacity
   * {@code SERVER_BUSY}, past the deadline {@code TIMEOUT}, answered as JSON-RPC errors), with the
   * request's span current; a completion's middleware and method also get its
   * {@link CompletionContext}. {@code shape} makes the answer of the handler's result inside the
   * deadline. Throws {@link FeatureError} for every failure.
   */
  Object run(String router, String action, String target, Map<String, ?> arguments,
      RequestContext request, List<FusionMiddleware> chain, ActionLimits limits,
      ConcurrencyGate gate, FeatureRequest call, int userErrorCode, String kind,
      CompletionContext completion, Handler handler, Shape shape) {
    FeatureInvocation invocation = new FeatureInvocation(router, action, target, arguments,
        request == null ? RequestContext.empty() : request, providers);
    if (completion != null) {
      invocation.with(CompletionContext.class, completion);
    }
    RequestTrace trace = call.trace();
    Object result;
    try {
      if (!limits.any()) {
        return shape.answer(invoke(chain, invocation, handler, trace));
      }
      Runnable atDeadline = !call.answersAtDeadline() || limits.timeoutMs() <= 0 ? null
          : () -> call.answerAtDeadline(featureError(
              ErrorReplies.timeout(router, action, limits.timeoutMs()), userErrorCode));
      result = Guard.run(limits, gate, deadlines, atDeadline, new Guard.Refusal<>() {
        @Override
        public Object busy(ConcurrencyGate full) {
          trace.busy();
          return new Refused(featureError(ErrorReplies.serverBusy(router, action,
              full.maxConcurrent(), full.queue()), userErrorCode));
        }

        @Override
        public Object timedOut(Throwable discarded) {
          call.answeredAtDeadline(call.answersAtDeadline());
          if (discarded != null) {
            LOG.debug("[{}/{}] the {} failed after its deadline; the failure is discarded", router,
                target, kind, discarded);
          }
          trace.timedOut(limits.timeoutMs());
          return new Refused(featureError(ErrorReplies.timeout(router, action,
              limits.timeoutMs()), userErrorCode));
        }
      }, () -> shape.answer(invoke(chain, invocation, handler, trace)));
    } catch (Throwable failure) {
      Throwable cause = Pipeline.unwrap(failure);
      if (cause instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      if (cause instanceof FusionError error) {
        throw fusionError(error, userErrorCode);
      }
      throw internal(router, target, kind, cause);
    }
    if (result instanceof Refused refused) {
      throw refused.error();
    }
    return result;
  }

  /** A request the guard turned away: no handler can return one. */
  private record Refused(FeatureError error) {}

  /** The middleware chain and the handler, with the request's span current when there is one. */
  private static Object invoke(List<FusionMiddleware> chain, FeatureInvocation invocation,
      Handler handler, RequestTrace trace) throws Exception {
    // Asked, not left to OFF.withCurrent: the lambda would be an allocation per untraced call.
    return trace.recording()
        ? trace.withCurrent(() -> proceed(chain, 0, invocation, handler))
        : proceed(chain, 0, invocation, handler);
  }

  private static Object proceed(List<FusionMiddleware> chain, int position, Invocation call,
      Handler handler) throws Exception {
    if (position == chain.size()) {
      return handler.call(new ContextLookup() {
        @Override
        public <T> T get(Class<T> type) {
          return call.get(type).orElse(null);
        }
      });
    }
    return chain.get(position).invoke(call, next -> proceed(chain, position + 1, next, handler));
  }

  private FeatureError fusionError(FusionError error, int userErrorCode) {
    return featureError(ErrorReplies.fusionError(error, references), userErrorCode);
  }

  /**
   * An error envelope answered as a JSON-RPC error: its {@code <tool_error>} text as the message,
   * its {@code mcpfusion/error} entry as {@code data}, and a code by the envelope's code:
   * {@code NOT_FOUND} the method's own ({@code userErrorCode}), {@code SERVER_BUSY} and
   * {@code TIMEOUT} {@link JsonRpc#SERVER_BUSY} and {@link JsonRpc#REQUEST_TIMEOUT} (neither is the
   * client's mistake), anything else invalid params.
   */
  private static FeatureError featureError(Reply reply, int userErrorCode) {
    String type = reply.errorCode();
    int code = type == null ? JsonRpc.INVALID_PARAMS : switch (type) {
      case Codes.NOT_FOUND -> userErrorCode;
      case Codes.SERVER_BUSY -> JsonRpc.SERVER_BUSY;
      case Codes.TIMEOUT -> JsonRpc.REQUEST_TIMEOUT;
      default -> JsonRpc.INVALID_PARAMS;
    };
    return new FeatureError(code, reply.text(), reply.meta().get(Meta.ERROR));
  }

  private static FeatureError internal(String router, String sentTarget, String kind,
      Throwable cause) {
    // The target may be a URI the client sent (a template's variable can be any length).
    String target = Echo.cut(sentTarget);
    String incident = ErrorReplies.newIncidentId();
    LOG.error("[{}/{}] the {} failed unexpectedly (incident {})", router, target, kind, incident,
        cause);
    return new FeatureError(JsonRpc.INTERNAL_ERROR, "Internal error: [" + router + "/"
        + target + "] the " + kind + " failed unexpectedly (incident " + incident + ").",
        Map.of("code", Codes.INTERNAL_ERROR, "incident", incident)).unexpected(cause, incident);
  }

  static String routerOf(String router, dev.mcpfusion.core.spi.GeneratedFeatures features) {
    return router.isEmpty() ? features.descriptor().type().getSimpleName() : router;
  }

  static String list(List<String> names) {
    return names.isEmpty() ? "none" : String.join(", ", names);
  }
}
