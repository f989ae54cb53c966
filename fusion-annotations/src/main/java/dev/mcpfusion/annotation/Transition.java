package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The workflow state ({@link States} on the router) a session moves to when this action succeeds
 * (an error reply moves nothing). When the state changes, the server sends the session
 * {@code notifications/tools/list_changed}, so the client reads the actions the new state allows.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Transition {
  /** The state, one of the router's {@link States#value()}. */
  String to();
}
