package dev.mcpfusion.core;

import dev.mcpfusion.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * A block passed through to the agent's user interface, rendered as
 * {@code <ui_passthrough type="chart" title="Revenue">content</ui_passthrough>} after the data
 * block (the truncation summary first, then a view's {@code @Ui} blocks in declaration order).
 *
 * <p>Build one with {@link #chart}, {@link #mermaid}, {@link #table} or {@link #markdown}; each
 * gives the same text for the same input.
 *
 * @param type the block type: {@code summary}, {@code chart}, {@code mermaid}, {@code table} or
 *     {@code markdown}
 * @param title the title shown with the block; {@code null} for none (the truncation summary)
 * @param content the block text
 */
public record UiBlock(String type, String title, String content) {
  public UiBlock {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(content, "content");
  }

  /** A block without a title. */
  public UiBlock(String type, String content) {
    this(type, null, content);
  }

  /** A {@code summary} block (the truncation notice). */
  public static UiBlock summary(String content) {
    return new UiBlock("summary", content);
  }

  /**
   * A {@code chart} block: an ECharts option object, sent as compact JSON in the order written.
   *
   * @throws IllegalArgumentException if {@code echartsOptionJson} is not a JSON object
   */
  public static UiBlock chart(String title, String echartsOptionJson) {
    Objects.requireNonNull(echartsOptionJson, "echartsOptionJson");
    Object option;
    try {
      option = Json.parse(echartsOptionJson);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("UiBlock.chart(\"" + title + "\") needs an ECharts option"
          + " object as JSON, but the text does not parse: " + e.getMessage(), e);
    }
    if (!(option instanceof Map<?, ?>)) {
      throw new IllegalArgumentException("UiBlock.chart(\"" + title + "\") needs an ECharts option"
          + " object as JSON ({\"xAxis\": …, \"series\": […]}), but got a JSON "
          + kind(option) + ".");
    }
    return new UiBlock("chart", requireTitle(title), Json.write(option));
  }

  /** A {@code mermaid} block: a Mermaid diagram definition, such as {@code "graph LR; a-->b"}. */
  public static UiBlock mermaid(String title, String definition) {
    return new UiBlock("mermaid", requireTitle(title), requireText(definition, "mermaid"));
  }

  /** A {@code markdown} block. */
  public static UiBlock markdown(String title, String markdown) {
    return new UiBlock("markdown", requireTitle(title), requireText(markdown, "markdown"));
  }

  /**
   * A {@code table} block: a markdown table with these headers and rows. A cell is its value's
   * {@code toString()} ({@code null} is empty); {@code |} is escaped as {@code \|}, a backslash
   * as {@code \\}, and line breaks become spaces, so a value cannot break the table.
   *
   * @throws IllegalArgumentException if there are no headers, or a row has another number of cells
   */
  public static UiBlock table(String title, List<String> headers, List<? extends List<?>> rows) {
    Objects.requireNonNull(headers, "headers");
    Objects.requireNonNull(rows, "rows");
    if (headers.isEmpty()) {
      throw new IllegalArgumentException("UiBlock.table(\"" + title + "\") needs at least one column.");
    }
    StringBuilder b = new StringBuilder(64 * (rows.size() + 2));
    row(b, headers);
    b.append('\n').append('|');
    for (int i = 0; i < headers.size(); i++) {
      b.append(" --- |");
    }
    for (int r = 0; r < rows.size(); r++) {
      List<?> cells = Objects.requireNonNull(rows.get(r), "row");
      if (cells.size() != headers.size()) {
        throw new IllegalArgumentException("UiBlock.table(\"" + title + "\") row " + r + " has "
            + cells.size() + " cells, but there are " + headers.size() + " columns.");
      }
      row(b.append('\n'), cells);
    }
    return new UiBlock("table", requireTitle(title), b.toString());
  }

  /**
   * A {@code table} block with one row per item of {@code rows} (the views shown, typically) and
   * one column per {@link Column}, cells as {@link #table(String, List, List)} writes them.
   *
   * <pre>{@code
   * UiBlock.table("Invoices", shown,
   *     UiBlock.column("Id", InvoiceView::id), UiBlock.column("Status", InvoiceView::status));
   * }</pre>
   */
  @SafeVarargs
  public static <V> UiBlock table(String title, List<? extends V> rows,
      Column<? super V>... columns) {
    Objects.requireNonNull(rows, "rows");
    List<String> headers = new ArrayList<>(columns.length);
    for (Column<? super V> c : columns) {
      headers.add(c.header());
    }
    List<List<Object>> cells = new ArrayList<>(rows.size());
    for (V item : rows) {
      List<Object> row = new ArrayList<>(columns.length);
      for (Column<? super V> c : columns) {
        row.add(c.value().apply(item));
      }
      cells.add(row);
    }
    return table(title, headers, cells);
  }

  /** A column of {@link #table(String, List, Column[])}: its header and how to read a cell. */
  public static <V> Column<V> column(String header, Function<? super V, ?> value) {
    return new Column<>(header, value);
  }

  /**
   * A table column: its header and the function that reads a row's cell.
   *
   * @param <V> the row type
   * @param header the header text
   * @param value reads the cell of one row
   */
  public record Column<V>(String header, Function<? super V, ?> value) {
    public Column {
      Objects.requireNonNull(header, "header");
      Objects.requireNonNull(value, "value");
    }
  }

  private static void row(StringBuilder b, List<?> cells) {
    b.append('|');
    for (Object cell : cells) {
      b.append(' ');
      cell(b, cell == null ? "" : cell.toString());
      b.append(" |");
    }
  }

  private static void cell(StringBuilder b, String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '|' -> b.append("\\|");
        case '\\' -> b.append("\\\\");
        case '\r' -> {
          b.append(' ');
          if (i + 1 < s.length() && s.charAt(i + 1) == '\n') {
            i++;
          }
        }
        case '\n' -> b.append(' ');
        default -> b.append(c);
      }
    }
  }

  private static String requireTitle(String title) {
    Objects.requireNonNull(title, "title");
    if (title.isBlank()) {
      throw new IllegalArgumentException("A UI block needs a title the user can read; got a blank one.");
    }
    return title;
  }

  private static String requireText(String text, String type) {
    Objects.requireNonNull(text, type);
    if (text.isBlank()) {
      throw new IllegalArgumentException("UiBlock." + type + " needs text; got a blank one.");
    }
    return text;
  }

  private static String kind(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof List<?>) {
      return "array";
    }
    if (value instanceof String) {
      return "string";
    }
    if (value instanceof Boolean) {
      return "boolean";
    }
    return "number";
  }
}
