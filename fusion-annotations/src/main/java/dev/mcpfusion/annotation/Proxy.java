package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes an action a call to a REST API: the action's body is "call this path of this upstream
 * with these arguments, and present the JSON answer through the verb's view". The method is
 * abstract (in an abstract {@link Router} class) and the processor writes its body in
 * {@code X_Proxy}, a subclass whose constructor takes the configured upstreams
 * ({@code dev.mcpfusion.outbound.ProxyUpstreams}, module fusion-outbound): every call goes through
 * that module's guarded client, so its URL policy, allow-list, byte cap, timeouts and circuit
 * breaker apply. Where the upstream may call is declared with {@link ProxyUpstream}, on the router
 * or its package, which every upstream a {@code @Proxy} names needs.
 *
 * <pre>{@code
 * @Router("invoices")
 * @ProxyUpstream(name = "billing-api", hosts = "billing.example.com")
 * public abstract class InvoiceApi {
 *   @Query(description = "Get one invoice", presenter = InvoiceView.class)
 *   @Proxy(upstream = "billing-api", path = "/invoices/{id}")
 *   public abstract Map<String, Object> getInvoice(String id);
 * }
 * }</pre>
 *
 * <p>Each {@code {name}} of the path is the parameter of that name, percent-encoded as one path
 * segment; the other parameters are the query string of a {@code GET} or {@code DELETE}, and the
 * members of a JSON object body otherwise. Parameters are scalars (strings, numbers, booleans,
 * enums). The result is a JSON object ({@code Map<String, Object>}) or a JSON array of objects
 * ({@code List<Map<String, Object>>}), and the verb names a {@code presenter}: only the view's
 * fields reach the agent.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Proxy {
  /**
   * The upstream's name ({@code [a-z][a-z0-9-]*}), declared by a {@link ProxyUpstream} of that
   * name; its base URL and client are configuration, given to {@code ProxyUpstreams} when the
   * server starts.
   */
  String upstream();

  /** The HTTP method: {@code GET} (default), {@code POST}, {@code PUT}, {@code PATCH} or {@code DELETE}. */
  String method() default "GET";

  /** The path below the upstream's base URL, starting with {@code /}: {@code /invoices/{id}}. */
  String path();
}
