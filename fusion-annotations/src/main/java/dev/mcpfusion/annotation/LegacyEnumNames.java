package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On an enum component of an elicitation form: send the constants' titles (their
 * {@link Describe}) as the deprecated {@code enumNames} array beside {@code enum}, for clients
 * older than MCP 2025-11-25, instead of the {@code oneOf} of {@code const}/{@code title} pairs.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER})
public @interface LegacyEnumNames {}
