package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The workflow states ({@link States} on the router) in which an action is listed and may be
 * called; without it, an action is allowed in every state. Naming a state the router does not
 * declare is a compile error ({@code [fusion/UnknownState]}). The capability lockfile records it:
 * allowing fewer states is a breaking change.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface AllowedIn {
  /** The states, each one of the router's {@link States#value()}. */
  String[] value();
}
