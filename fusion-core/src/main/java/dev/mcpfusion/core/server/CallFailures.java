package dev.mcpfusion.core.server;

import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.Page;
import dev.mcpfusion.core.error.ErrorReplies;
import dev.mcpfusion.core.presenter.PerCall;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.PresenterBinding;
import dev.mcpfusion.core.spi.Problem;
import dev.mcpfusion.core.spi.Problems;
import dev.mcpfusion.core.spi.ResultShape;
import dev.mcpfusion.core.trace.internal.RequestTrace;
import dev.mcpfusion.redact.Redactor;
import dev.mcpfusion.redact.Tally;
import dev.mcpfusion.wire.References;
import dev.mcpfusion.wire.Reply;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the pipeline answers a failure, the same whether the handler threw it or its
 * {@code CompletionStage} completed with it: a {@link FusionError} keeps its code, recovery and
 * severity (its details presented, its text redacted); anything else is {@code INTERNAL_ERROR}
 * with an incident id, its text and stack only in the server log.
 */
final class CallFailures {
  // The pipeline's: the log names the pipeline that answered the call.
  private static final Logger LOG = LoggerFactory.getLogger(Pipeline.class);

  private final ToolRegistry registry;
  private final References references;

  CallFailures(ToolRegistry registry, References references) {
    this.registry = registry;
    this.references = references;
  }

  /** The answer to a handler's (or middleware's) failure that has one; rethrows any other. */
  Reply mapped(BoundAction action, Throwable failure, Map<String, ?> args,
      RequestTrace trace) throws Throwable {
    ActionDescriptor descriptor = action.descriptor();
    Throwable cause = Pipeline.unwrap(failure);
    if (cause instanceof FusionError error) {
      return errorReply(error, action.redactor(), descriptor.presenter(), trace);
    }
    if (cause instanceof Page.InvalidCursor invalid && descriptor.resultShape() == ResultShape.PAGE) {
      Object sent = args.get(PerCall.CURSOR);
      List<Problem> problems = List.of(new Problem(PerCall.CURSOR, invalid.getMessage(),
          sent == null ? Problems.MISSING : sent,
          "Omit cursor to start again from the first page."));
      trace.validation(problems);
      return ErrorReplies.validation(action.router().name(), action.name(), problems);
    }
    throw cause;
  }

  Reply failed(String router, String action, String toolName, Throwable failure,
      RequestTrace trace) {
    Throwable cause = Pipeline.unwrap(failure);
    if (cause instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    if (cause instanceof FusionError error) {
      try {
        return errorReply(error, registry.defaultRedactor(), null, trace);
      } catch (RuntimeException renderFailure) {
        cause = renderFailure;
      }
    }
    String incident = ErrorReplies.newIncidentId();
    LOG.error("[{}/{}] tool {} failed unexpectedly (incident {})", router, action, toolName,
        incident, cause);
    trace.unexpected(cause, incident);
    return ErrorReplies.internal(router, action, incident);
  }

  /**
   * The envelope of a thrown {@link FusionError}: views and models in its details go through their
   * presenters, and its text through {@code redactor}. Throws if either cannot run (the caller
   * answers {@code INTERNAL_ERROR}); the span gets the masked message, never the raw one.
   */
  Reply errorReply(FusionError error, Redactor redactor, PresenterBinding<?, ?> presenter,
      RequestTrace trace) {
    Tally tally = redactor == null ? null : new Tally();
    Reply reply = ErrorReplies.fusionError(error, references,
        value -> registry.detailPresenter().present(value, presenter), redactor, tally);
    // Asked: masking the message for the span is work an untraced call must not do.
    if (trace.recording()) {
      trace.agentError(redactor == null ? error.getMessage()
          : redactor.text(error.getMessage(), new Tally()));
      if (redactor != null) {
        trace.redactions(tally.count());
      }
    }
    return reply;
  }

}
