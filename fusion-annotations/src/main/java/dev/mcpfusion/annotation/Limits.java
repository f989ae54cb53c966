package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Bounds what calls of a class's actions, prompts, resources and completions (on the class) or of
 * one of them (on its method) may take: how many run at once and how many may wait, how long one
 * may run, and how many bytes its reply may have. The most specific declaration wins, field by
 * field: method, then class, then {@code FusionServer.Builder.limits(...)}; a field left at
 * {@code -1} inherits.
 *
 * <pre>{@code
 * @Router("billing")
 * @Limits(maxConcurrent = 8, queue = 16, timeoutMs = 5_000, maxEgressBytes = 262_144)
 * public final class BillingTools { ... }
 * }</pre>
 *
 * <p>Over capacity a call is answered {@code SERVER_BUSY} at once; past its deadline
 * {@code TIMEOUT} (the handler is interrupted and its late result discarded) — for a prompt,
 * resource or completion as a JSON-RPC error (-32003, -32004) with the same text; a collection reply
 * over the byte cap loses trailing items until it fits, and a reply that cannot fit is
 * {@code PAYLOAD_TOO_LARGE}. Read at run time, when the server is built.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Limits {
  /**
   * Calls running at once; {@code -1} inherits. Counted where it is declared: on a method for that
   * member, on a class for all its actions, prompts, resources and completions that do not declare
   * their own (one count for them all), server-wide for all.
   */
  int maxConcurrent() default -1;

  /** Calls that may wait for a free slot (0 = none wait); {@code -1} inherits. Never unbounded. */
  int queue() default -1;

  /** The deadline of one call in milliseconds, time spent waiting in the queue included; {@code -1} inherits. */
  long timeoutMs() default -1;

  /** The largest reply in bytes (content, structuredContent and _meta, as sent); {@code -1} inherits. */
  int maxEgressBytes() default -1;
}
