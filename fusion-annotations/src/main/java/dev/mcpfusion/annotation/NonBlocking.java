package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares that an action's handler never blocks — no I/O that waits, no lock held by another
 * call, no question to the client that waits for its answer, no sleep — so a transport may run it on the thread that read its request instead of
 * handing it to a pool thread. A handler that answers with a {@code CompletionStage} is taken to
 * be non-blocking up to its return already; this annotation says the same of a plain one.
 *
 * <pre>{@code
 * @Query(description = "Get one invoice", presenter = InvoiceView.class)
 * @NonBlocking                                   // an in-memory look-up
 * public Invoice getInvoice(String id) { return invoices.get(id); }
 * }</pre>
 *
 * <p>Only the Streamable HTTP server with {@code HttpOptions.answerOnIoThread(true)} acts on it;
 * everywhere else the action runs as it would without it. The promise covers the whole call up to
 * the handler's return: the middleware and {@code @Context} resolvers it runs too. A call that may
 * wait anyway — a {@code @Limits(queue)} or {@code @SerializeOn} queue, a
 * {@code @Limits(timeoutMs)} deadline on a plain handler — is still handed to a pool thread. A
 * handler that does block while so declared stalls every connection its I/O thread serves. Read at
 * run time, when the server is built.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface NonBlocking {}
