package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an action parameter filled from the per-request context rather than from tool arguments:
 * a value of that type given by a context provider on the server builder or added by middleware.
 *
 * <p>Context parameters never appear in the input schema. {@code build()} fails, naming the method
 * and the parameter, when nothing provides the type. A parameter of type
 * {@code dev.mcpfusion.core.RequestContext} is always injected, with or without this annotation.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface Context {}
