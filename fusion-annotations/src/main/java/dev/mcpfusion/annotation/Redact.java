package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Masks sensitive text in everything an agent reads from the actions that use this
 * {@code @Presenter} view: its data and {@code structuredContent}, rules, suggestions, UI blocks
 * and the errors those actions throw.
 *
 * <pre>{@code
 * @Presenter(model = Customer.class)
 * @Redact(paths = {"*.email", "cards[*].number"}, detect = {Detector.CARD, Detector.IBAN})
 * public record CustomerView(String id, String email, List<CardView> cards) {}
 * }</pre>
 *
 * <p>Paths are relative to one view (one item of a collection): {@code a.b} is exact,
 * {@code a[*].b} reads every element of the list {@code a}, and a leading {@code *.} matches at any
 * depth ({@code *.email} is every {@code email} key, top level included). A path must end on text
 * (a string, or a list of strings): a masked number would break the output schema, so
 * {@code FusionServer.Builder.build()} rejects a path that ends anywhere else. Detectors look inside
 * every string, wherever it is.
 *
 * <p>The most specific declaration wins: this annotation replaces the server-wide default
 * ({@code FusionServer.Builder.redact(...)}) for the actions presenting this view. Redaction fails
 * closed: if it cannot run, the call answers {@code INTERNAL_ERROR}, never the raw data.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Redact {
  /** Path patterns of the values to mask, e.g. {@code "*.email"}, {@code "items[*].cardNumber"}. */
  String[] paths() default {};

  /** Kinds of sensitive text to find and mask inside every string value. */
  Detector[] detect() default {};

  /** How a value or a found piece of text is masked. */
  Mask mask() default Mask.FULL;
}
