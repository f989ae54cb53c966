package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@code static} method of a {@link Presenter} that suggests the agent's next actions: it
 * returns {@code List<Suggestion>} and takes the view (run once per distinct shown view) or
 * {@code List} of the view (run once on all shown items). A view may have one of each.
 *
 * <p>The suggestions are deduplicated in first-seen order (the per-view ones, then the
 * collection's) and rendered in {@code <action_suggestions>} as the agent can call them.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Suggest {}
