package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An icon a client may show beside a {@link Prompt} or a {@link Resource} (MCP {@code icons}):
 * {@code @Icon(src = "https://billing.example.com/overdue-48.png", mimeType = "image/png",
 * sizes = "48x48")}. Repeat it to offer sizes or themes; the icons are listed in the order
 * written, and a member without one sends no {@code icons} key.
 *
 * <p>The processor refuses, naming the attribute: a {@link #src()} that is not an absolute
 * {@code https:} URL or a {@code data:image/…} URI (a host fetches it, so plain {@code http:},
 * {@code file:} and relative paths are errors), a data URI over 32 KiB (it is sent in every list
 * answer), a {@link #mimeType()} that is not {@code image/…}, and a size that is not
 * {@code WIDTHxHEIGHT} or {@code any}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@Repeatable(Icons.class)
public @interface Icon {
  /** The image: an absolute {@code https:} URL or a {@code data:image/…} URI. */
  String src();

  /** The MIME type ({@code image/png}, {@code image/svg+xml}); empty means not sent. */
  String mimeType() default "";

  /** The sizes the image suits ({@code "48x48"}, {@code "any"}); empty means any size. */
  String[] sizes() default {};

  /** The UI theme the image is drawn for; {@link Theme#ANY} sends no {@code theme}. */
  Theme theme() default Theme.ANY;

  /** The UI theme an icon is drawn for. */
  enum Theme {
    /** Any theme: no {@code theme} key is sent. */
    ANY,
    /** Drawn for a light background ({@code "light"}). */
    LIGHT,
    /** Drawn for a dark background ({@code "dark"}). */
    DARK
  }
}
