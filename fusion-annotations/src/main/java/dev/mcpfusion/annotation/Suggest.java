package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@code static} method of a {@link Presenter} that suggests the agent's next actions for
 * one view: it takes the view and returns {@code List<Suggestion>}.
 *
 * <p>For a collection the method runs per shown item; the suggestions are deduplicated in
 * first-seen order and rendered in {@code <action_suggestions>} as the agent can call them.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Suggest {}
