package dev.mcpfusion.core.trace.internal;

import dev.mcpfusion.core.trace.FusionMeter;
import dev.mcpfusion.core.trace.McpMetrics;
import dev.mcpfusion.core.trace.McpOperation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metrics side of one request, beside its span ({@link RequestTrace}): the labels known when it
 * started, the target's label once the server knows whether the target exists, and what the meter
 * is told — the guard counts on the way and the operation's duration at the end. A meter that
 * throws never changes the answer.
 */
final class RequestMeter {
  private static final Logger LOG = LoggerFactory.getLogger(RequestMeter.class);

  /** For a span that no meter hears (tool spans started without one, {@link RequestTrace#OFF}). */
  static final RequestMeter NONE = new RequestMeter(FusionMeter.NOOP, null, null, null, null, null);

  private final FusionMeter meter;
  /** The labels known at the start (each {@code null} when it does not apply). */
  private final String method;
  private final String toolName;
  private final String promptName;
  private final String transport;
  private final String version;
  /** The request named a tool or prompt the server does not have: its label is {@code _OTHER}. */
  private volatile boolean unknownTarget;
  /** The version known only once answered ({@code initialize}), when none was known at the start. */
  private volatile String negotiated;

  RequestMeter(FusionMeter meter, String method, String toolName, String promptName,
      String transport, String version) {
    this.meter = meter;
    this.method = method;
    this.toolName = toolName;
    this.promptName = promptName;
    this.transport = transport;
    this.version = version;
  }

  void unknownTarget() {
    unknownTarget = true;
  }

  void negotiated(String protocolVersion) {
    negotiated = protocolVersion;
  }

  /** The version the answer negotiated when none was known at the start; else {@code null}. */
  String lateVersion() {
    return version == null ? negotiated : null;
  }

  void count(FusionMeter.GuardEvent event, long amount) {
    if (meter == FusionMeter.NOOP) {
      return;
    }
    try {
      String target = unknownTarget ? McpMetrics.OTHER : toolName != null ? toolName : promptName;
      meter.guard(event, method, target, amount);
    } catch (RuntimeException e) {
      LOG.warn("meter failed to count {}; the answer is unaffected", event, e);
    }
  }

  /** Records the duration of the request, which ended with this outcome. */
  void ended(long nanos, boolean answered, boolean failed, String errorType, int rpcCode) {
    if (meter == FusionMeter.NOOP || method == null) {
      return;
    }
    try {
      meter.operation(operation(answered, failed, errorType, rpcCode), nanos / 1_000_000_000.0);
    } catch (RuntimeException e) {
      LOG.warn("meter failed to record an operation; the answer is unaffected", e);
    }
  }

  /** The labels of the request's duration, as it ended. */
  McpOperation operation(boolean answered, boolean failed, String errorType, int rpcCode) {
    String error = !answered ? McpMetrics.OTHER : failed ? errorType : null;
    String late = negotiated;
    return new McpOperation(method,
        toolName == null ? null : unknownTarget ? McpMetrics.OTHER : toolName,
        promptName == null ? null : unknownTarget ? McpMetrics.OTHER : promptName,
        error, answered && rpcCode != 0 ? Integer.toString(rpcCode) : null, transport,
        version != null ? version : late);
  }
}
