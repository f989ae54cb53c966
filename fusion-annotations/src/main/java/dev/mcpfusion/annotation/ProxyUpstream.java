package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares, in the code, where the {@link Proxy} actions calling one upstream may call and how
 * much they may read: the hosts and schemes its base URL may have, a response byte cap and
 * timeouts. Every upstream a {@code @Proxy} action calls needs one (the processor reports
 * {@code [fusion/UndeclaredProxyUpstream]} otherwise). It sits on the router class or on its
 * package ({@code package-info.java}); a router's declaration of a name replaces its package's.
 *
 * <pre>{@code
 * @Router("invoices")
 * @ProxyUpstream(name = "billing-api", hosts = {"billing.example.com", "*.billing.example.com"},
 *     maxResponseBytes = 262_144)
 * public abstract class InvoiceApi { ... }
 * }</pre>
 *
 * <p>The processor checks the declaration and the lockfile records it next to each proxy action,
 * so a widening (a new host, {@code http} allowed, a larger cap or timeout) shows as drift. At
 * run time the generated {@code X_Proxy} refuses a configured base URL outside the declared hosts
 * and schemes, checks every redirect against them, and applies the cap and timeouts; the server's
 * configuration may only narrow them.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.PACKAGE})
@Repeatable(ProxyUpstream.List.class)
public @interface ProxyUpstream {
  /** The upstream's name, as {@link Proxy#upstream()} names it. */
  String name();

  /**
   * The hosts its base URL and redirects may name, lower-case ASCII: an exact name
   * ({@code billing.example.com}), an IPv4 address, or {@code *.example.com} for every name under
   * {@code example.com} (not {@code example.com} itself).
   */
  String[] hosts();

  /** The schemes it may be called with: {@code https} (default) and, when listed, {@code http}. */
  String[] schemes() default {"https"};

  /** The most bytes of an answer read (default 1 MiB); past it, {@code UPSTREAM_TOO_LARGE}. */
  long maxResponseBytes() default 1024 * 1024;

  /** The connect timeout in milliseconds (default 5 s). */
  long connectTimeoutMs() default 5_000;

  /** The deadline of a whole call in milliseconds, the answer's body included (default 30 s). */
  long timeoutMs() default 30_000;

  /** Holds several {@link ProxyUpstream} declarations of one class or package. */
  @Documented
  @Retention(RetentionPolicy.RUNTIME)
  @Target({ElementType.TYPE, ElementType.PACKAGE})
  @interface List {
    /** The declarations. */
    ProxyUpstream[] value();
  }
}
