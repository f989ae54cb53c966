package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An MCP resource ({@code resources/list}, {@code resources/read}) or, when {@link #uri()} holds
 * {@code {variables}}, a resource template ({@code resources/templates/list}): each variable binds
 * the {@code String} parameter of the same name, so {@code billing://invoices/{id}} calls
 * {@code invoice(String id)} with the {@code id} read from the URI. {@link Context} parameters are
 * filled as for tools.
 *
 * <p>The method returns a {@code String} (text), a {@code byte[]} (binary, sent base64) or, with a
 * {@link #presenter()}, what the presenter presents (a model, a collection, an {@code Optional}):
 * its stripped view is sent as JSON, through the same strip and limit step as a tool result.
 *
 * <p>A resource belongs to its class's router: a successful mutation whose {@link Invalidates}
 * pattern matches that router sends {@code notifications/resources/updated} to the sessions
 * subscribed to it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Resource {
  /** The URI, or a URI template (RFC 6570 level 1: {@code {name}} variables). */
  String uri();

  /** The resource name (MCP {@code name}); empty means the method name in snake_case. */
  String name() default "";

  /** A human-readable title (MCP {@code title}); empty means none. */
  String title() default "";

  /** What the resource holds; empty falls back to the first sentence of the method's Javadoc. */
  String description() default "";

  /**
   * The MIME type; empty means {@code application/json} with a presenter, {@code text/plain} for
   * text and {@code application/octet-stream} for binary.
   */
  String mimeType() default "";

  /** The view that presents the resource; {@code void.class} means none. */
  Class<?> presenter() default void.class;
}
