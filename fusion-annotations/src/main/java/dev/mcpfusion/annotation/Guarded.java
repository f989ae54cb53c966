package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a value that is neither shown to nor accepted from an agent, such as a tenant id that must
 * come from the authenticated request and never from tool arguments.
 *
 * <p>A tool input (a method parameter or a component of an input record) that is {@code @Guarded}
 * fails compilation with {@code [fusion/GuardedInput]}; take the value from a {@link Context}
 * parameter instead. Combine with {@link Hidden} on a model to also keep it out of every response.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER})
public @interface Guarded {}
