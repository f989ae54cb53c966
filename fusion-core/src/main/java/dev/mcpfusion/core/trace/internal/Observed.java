package dev.mcpfusion.core.trace.internal;

import dev.mcpfusion.core.trace.FusionMeter;
import dev.mcpfusion.core.trace.FusionSpan;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.core.trace.TraceContext;
import dev.mcpfusion.core.trace.TraceOptions;
import java.util.Map;

/**
 * The server's tracer and meter as the one observer the pipeline and the edge are handed, so that
 * a request is observed on one path ({@link RequestTrace}) whichever of the two is configured. With
 * neither, {@link #of} returns {@link FusionTracer#NOOP} and every factory of {@link RequestTrace}
 * returns {@link RequestTrace#OFF}; with a tracer alone it returns the tracer itself.
 */
public final class Observed implements FusionTracer {
  private final FusionTracer tracer;
  private final FusionMeter meter;

  private Observed(FusionTracer tracer, FusionMeter meter) {
    this.tracer = tracer;
    this.meter = meter;
  }

  /** The observer of a server with {@code tracer} and {@code meter} (either may be a NOOP or null). */
  public static FusionTracer of(FusionTracer tracer, FusionMeter meter) {
    FusionTracer t = tracer == null ? FusionTracer.NOOP : tracer;
    if (meter == null || meter == FusionMeter.NOOP) {
      return t;
    }
    return new Observed(t, meter);
  }

  /** The tracer behind {@code observer} ({@link FusionTracer#NOOP} when it only meters). */
  static FusionTracer tracerOf(FusionTracer observer) {
    return observer instanceof Observed o ? o.tracer : observer;
  }

  /** The meter behind {@code observer} ({@link FusionMeter#NOOP} when it only traces). */
  public static FusionMeter meterOf(FusionTracer observer) {
    return observer instanceof Observed o ? o.meter : FusionMeter.NOOP;
  }

  @Override
  public FusionSpan startSpan(String name, TraceContext parent, Map<String, Object> attributes) {
    return tracer.startSpan(name, parent, attributes);
  }

  @Override
  public FusionSpan startClientSpan(String name, Map<String, Object> attributes) {
    return tracer.startClientSpan(name, attributes);
  }

  @Override
  public TraceOptions options() {
    return tracer.options();
  }

  @Override
  public String toString() {
    return "Observed[" + tracer + ", " + meter + "]";
  }
}
