package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@code static} method of a {@link Presenter} view that renders a block for the user's
 * interface: a chart, a diagram, a table or markdown, sent as
 * {@code <ui_passthrough type="chart" title="…">…</ui_passthrough>} after the data block and the
 * truncation summary.
 *
 * <p>The method returns a {@code dev.mcpfusion.core.UiBlock} (built by {@code UiBlock.chart},
 * {@code mermaid}, {@code table} or {@code markdown}; {@code null} sends nothing) and takes either
 * the view, or a {@code List} of the view:
 *
 * <pre>{@code
 * @Ui
 * static UiBlock byStatus(List<InvoiceView> shown) {   // once, on the items the agent is shown
 *   return UiBlock.table("Invoices", shown,
 *       UiBlock.column("Id", InvoiceView::id), UiBlock.column("Status", InvoiceView::status));
 * }
 *
 * @Ui
 * static UiBlock flow(InvoiceView v) {                  // once per distinct view
 *   return UiBlock.mermaid("Lifecycle", "graph LR; open-->" + v.status());
 * }
 * }</pre>
 *
 * <p>A view may have several {@code @Ui} methods: their blocks are sent in declaration order. A
 * method taking the view runs once per distinct view shown (equal views, one call), and equal
 * blocks are sent once. A view used only as a nested component contributes no UI blocks.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Ui {}
