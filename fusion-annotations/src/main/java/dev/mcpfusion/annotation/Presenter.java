package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a view: the allow-listed shape of a {@link Model} that an agent perceives.
 *
 * <p>The annotated record's components are the only fields that can ever be written for the model
 * (strip mode); each must be a non-hidden property of the model. The processor generates
 * {@code <View>_Presenter}, which builds the view from a model, a {@code Map} row or a JSON tree
 * (declared keys only), writes it, and carries its output schema, rules and limit.
 *
 * <pre>{@code
 * @Presenter(model = Invoice.class, agentLimit = 50)
 * @Rules("Money is in integer cents.")
 * public record InvoiceView(String id, long totalCents, InvoiceStatus status) {}
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Presenter {
  /** The model this view presents. */
  Class<?> model();

  /**
   * The most items of a collection result the agent receives; the rest are cut with an honest
   * truncation notice. Must be at least 1.
   */
  int agentLimit() default 50;

  /**
   * Model properties deliberately left out of this view: they are not exposed, and the processor
   * does not warn ({@code [fusion/UnmappedProperty]}) that they are unmapped.
   */
  String[] ignore() default {};

  /**
   * How the data block of a result is written: {@link Format#JSON} (the default) or
   * {@link Format#TOON}, which writes a collection as a TOON table (field names once, one line per
   * item) to save the agent's tokens. Only the text block changes: {@code structuredContent} and the
   * output schema stay JSON, and a single item stays JSON.
   */
  Format format() default Format.JSON;

  /**
   * Lets the agent choose which top-level fields it receives: every {@link Query} whose result this
   * view presents takes an optional {@code _select} input (an array of the field names), consumed by
   * the framework (no handler sees it); a {@link Mutation} or {@link Action} takes it only with its
   * own {@code select = true}. The data block and {@code structuredContent} then carry only
   * the chosen fields; rules and suggestions still read the whole view. The tool's output schema
   * lists the view's fields without {@code required}, since a narrowed item omits some. Needs at
   * least two fields ({@code [fusion/SelectMisuse]}); no action input may be named {@code _select}.
   */
  boolean select() default false;
}
