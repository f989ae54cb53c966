package dev.mcpfusion.core.trace;

import java.util.concurrent.Callable;

/** The span of {@link FusionTracer#NOOP}: records nothing, runs bodies as they are. */
final class NoopSpan implements FusionSpan {
  static final NoopSpan INSTANCE = new NoopSpan();

  private NoopSpan() {}

  @Override
  public FusionSpan setAttribute(String key, String value) {
    return this;
  }

  @Override
  public FusionSpan setAttribute(String key, long value) {
    return this;
  }

  @Override
  public FusionSpan setAttribute(String key, double value) {
    return this;
  }

  @Override
  public FusionSpan setAttribute(String key, boolean value) {
    return this;
  }

  @Override
  public FusionSpan setStatus(SpanStatus status) {
    return this;
  }

  @Override
  public FusionSpan recordException(Throwable exception, boolean withMessage) {
    return this;
  }

  @Override
  public <T> T withCurrent(Callable<T> body) throws Exception {
    return body.call();
  }

  @Override
  public void end() {}
}
