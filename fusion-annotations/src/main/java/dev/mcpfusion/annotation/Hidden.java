package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a model property that never leaves the process: no presenter may expose it, no output
 * schema names it, and its value can never be written into a response.
 *
 * <p>A presenter component with the name of a hidden property fails compilation with
 * {@code [fusion/HiddenFieldExposed]}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER})
public @interface Hidden {}
