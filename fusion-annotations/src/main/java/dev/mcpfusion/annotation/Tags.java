package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Tags of one action, added to its router's {@link Router#tags()}: a server or a session that
 * filters by tags shows only the actions carrying at least one of the tags it asks for. Each tag
 * is {@code [a-z][a-z0-9_-]*} ({@code [fusion/InvalidTag]}).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Tags {
  /** The tags, such as {@code read} or {@code admin}. */
  String[] value();
}
