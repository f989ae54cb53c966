package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Groups a class's {@link Query}, {@link Mutation} and {@link Action} methods under one prefix.
 *
 * <p>In FLAT exposition each action is a tool named {@code <router>_<action>} (or {@code <action>}
 * alone with {@link #prefixed() prefixed = false}); in GROUPED exposition the router is one tool
 * with an {@code action} discriminator. The processor generates
 * {@code <Router>_Fusion} (nested classes: {@code Outer_Inner_Fusion}) with the descriptors and a
 * reflection-free dispatcher.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Router {
  /** The router name: {@code [a-z][a-z0-9_]*}. */
  String value();

  /** What the router's tools do, one sentence; the start of the GROUPED tool description. */
  String description() default "";

  /**
   * A record whose components are inputs of every action (a tenant or workspace id): flattened
   * into every action's input schema, required unless nullable. An action receives it by declaring
   * a parameter of this type. {@code void.class} means none.
   */
  Class<?> common() default void.class;

  /**
   * Whether a FLAT tool name starts with the router name. {@code true} (the default) names the
   * tool {@code billing_list_invoices}; {@code false} names it by the action alone,
   * {@code list_invoices}, for a tool that must carry a fixed one-word name (a client that calls
   * {@code search} and {@code fetch}, say). Logical references ({@code billing.list_invoices}),
   * {@code @Invalidates} patterns and GROUPED exposition keep the router name either way. A FLAT
   * name that another action already has is a compile error ({@code [fusion/DuplicateToolName]})
   * within one compilation, and fails {@code FusionServer.build()} across jars.
   */
  boolean prefixed() default true;

  /**
   * Tags of every action of the router ({@link Tags} on a method adds more): a server or a session
   * that filters by tags shows only the actions carrying one of the tags it asks for, and answers a
   * call of any other as it answers an unknown tool. Each tag is {@code [a-z][a-z0-9_-]*}.
   */
  String[] tags() default {};
}
