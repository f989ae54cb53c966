package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the calls of an action that name the same entity one at a time: {@code value} names the
 * argument whose value keys the entity. Calls with the same key wait for each other in arrival
 * order; calls with different keys run in parallel.
 *
 * <pre>{@code
 * @Mutation(description = "Void an invoice")
 * @SerializeOn("invoiceId")
 * public Invoice voidInvoice(String invoiceId, String reason) { ... }
 * }</pre>
 *
 * <p>At most {@link #queue()} calls wait for one key; one more is answered {@code SERVER_BUSY}
 * with a retry hint at once. A call without the argument is not serialised. The key is held until
 * the handler returns — for a {@code CompletionStage} result, until the stage completes — and a
 * key no call holds or waits for is forgotten. The wait counts toward the call's
 * {@code @Limits(timeoutMs)}. Read at run time, when the server is built.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface SerializeOn {
  /** The input argument (its JSON name) whose value identifies the entity. */
  String value();

  /** Calls that may wait for the same key (0: none wait). */
  int queue() default 16;
}
