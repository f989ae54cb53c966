package dev.mcpfusion.otel;

import dev.mcpfusion.core.trace.FusionSpan;
import dev.mcpfusion.core.trace.SpanStatus;
import dev.mcpfusion.core.trace.StackTraces;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.util.concurrent.Callable;

/** A {@link FusionSpan} over an OpenTelemetry {@link Span} and the context it is current in. */
final class OtelSpan implements FusionSpan {
  static final AttributeKey<String> EXCEPTION_TYPE = AttributeKey.stringKey("exception.type");
  static final AttributeKey<String> EXCEPTION_MESSAGE = AttributeKey.stringKey("exception.message");
  static final AttributeKey<String> EXCEPTION_STACKTRACE = AttributeKey.stringKey("exception.stacktrace");

  private final Span span;
  private final Context context;

  OtelSpan(Span span, Context context) {
    this.span = span;
    this.context = context;
  }

  static void set(SpanBuilder builder, String key, Object value) {
    if (value instanceof String s) {
      builder.setAttribute(key, s);
    } else if (value instanceof Boolean b) {
      builder.setAttribute(key, b);
    } else if (value instanceof Double || value instanceof Float) {
      builder.setAttribute(key, ((Number) value).doubleValue());
    } else if (value instanceof Number n) {
      builder.setAttribute(key, n.longValue());
    }
  }

  @Override
  public FusionSpan setAttribute(String key, String value) {
    if (value != null) {
      span.setAttribute(key, value);
    }
    return this;
  }

  @Override
  public FusionSpan setAttribute(String key, long value) {
    span.setAttribute(key, value);
    return this;
  }

  @Override
  public FusionSpan setAttribute(String key, double value) {
    span.setAttribute(key, value);
    return this;
  }

  @Override
  public FusionSpan setAttribute(String key, boolean value) {
    span.setAttribute(key, value);
    return this;
  }

  @Override
  public FusionSpan setStatus(SpanStatus status) {
    span.setStatus(switch (status) {
      case OK -> StatusCode.OK;
      case ERROR -> StatusCode.ERROR;
      case UNSET -> StatusCode.UNSET;
    });
    return this;
  }

  /**
   * An {@code exception} event in the OTel semantic-convention shape, built by hand:
   * {@link Span#recordException(Throwable)} always records the message.
   */
  @Override
  public FusionSpan recordException(Throwable exception, boolean withMessage) {
    AttributesBuilder attributes = Attributes.builder()
        .put(EXCEPTION_TYPE, exception.getClass().getName())
        .put(EXCEPTION_STACKTRACE, StackTraces.of(exception, withMessage));
    if (withMessage && exception.getMessage() != null) {
      attributes.put(EXCEPTION_MESSAGE, exception.getMessage());
    }
    span.addEvent("exception", attributes.build());
    return this;
  }

  @Override
  public <T> T withCurrent(Callable<T> body) throws Exception {
    try (Scope ignored = context.makeCurrent()) {
      return body.call();
    }
  }

  @Override
  public String traceparent() {
    SpanContext context = span.getSpanContext();
    if (!context.isValid()) {
      return null;
    }
    return "00-" + context.getTraceId() + "-" + context.getSpanId() + "-"
        + context.getTraceFlags().asHex();
  }

  @Override
  public void end() {
    span.end();
  }
}
