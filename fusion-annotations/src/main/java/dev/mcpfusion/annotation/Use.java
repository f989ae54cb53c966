package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the middleware that runs around a router's actions (on the class) or one action (on the
 * method). Each class must implement {@code dev.mcpfusion.core.FusionMiddleware}.
 *
 * <p>Instances registered on the server builder are used; a class with no registered instance is
 * constructed once with its no-arg constructor, and {@code build()} fails naming it if it has none.
 * Order: server-wide, then router, then method.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Use {
  /** The middleware classes, in the order they run. */
  Class<?>[] value();
}
