package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares which cached domains a successful mutation makes stale, as logical patterns such as
 * {@code billing.*} or {@code billing.get_invoice}.
 *
 * <p>A successful call's result starts with
 * {@code <cache_invalidation cause="billing.void_invoice" domains="billing.*" />}; failures and
 * warnings never carry the mark. Not allowed on a {@link Query}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Invalidates {
  /** The invalidated domain patterns. */
  String[] value();
}
