package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Tells the agent how long an action's result stays true: rendered as
 * {@code [Cache-Control: no-store]} or {@code [Cache-Control: immutable]} on the tool description
 * (FLAT) or the action's Workflow line (GROUPED).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface CacheControl {
  /** The cache policy. */
  CachePolicy value();
}
