package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The OAuth scopes a caller must hold to see and call an action, or to see and get a
 * {@link Prompt} or read a {@link Resource}: on a class every action, prompt and resource of it
 * needs them, on a method that member needs them too (the requirements add up).
 *
 * <pre>{@code
 * @Router("billing")
 * @Scopes("invoices:read")
 * public class BillingTools {
 *   @Mutation(description = "Void an invoice")
 *   @Scopes("invoices:write")            // needs invoices:read and invoices:write
 *   public Invoice voidInvoice(@NotBlank String id) { ... }
 * }
 * }</pre>
 *
 * <p>{@code tools/list}, {@code prompts/list}, {@code resources/list} and
 * {@code resources/templates/list} show a caller only what its scopes allow; a call, a
 * {@code prompts/get} or a {@code resources/read} without them is refused before any input is
 * decoded: over HTTP with {@code 403} and
 * {@code WWW-Authenticate: Bearer error="insufficient_scope", scope="…"}, elsewhere with a
 * {@code FORBIDDEN} error envelope naming the scopes (for a prompt or resource, a JSON-RPC error
 * whose {@code data} has {@code code: FORBIDDEN} and {@code requiredScopes}). A caller no authenticator vouched for (stdio,
 * HTTP without authentication) is not restricted. Each name is an RFC 6749 scope token: printable
 * ASCII without spaces, {@code "} or {@code \}. The capability lockfile records them: adding a
 * requirement is a breaking change, removing one a risky one.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Scopes {
  /** The scopes required, each a scope token such as {@code invoices:write}. */
  String[] value();
}
