package dev.mcpfusion.core.spi;

import dev.mcpfusion.json.Json;

/**
 * JSON text for generated {@link PresenterBinding#appendJson}: each method appends exactly what
 * {@link Json#write} writes for the same value, so a view written directly is byte-identical to
 * {@code Json.write(toTree(view))}. Generated code appends constant keys, punctuation, integral
 * primitives and booleans itself ({@code StringBuilder.append(long)} is the decimal digits
 * {@code Json.write} writes) and calls these for the rest.
 */
public final class JsonOut {
  private JsonOut() {}

  /**
   * Appends a JSON string literal ({@code "} and {@code \} escaped, control characters as
   * {@code \n}-style or <code>&#92;u00XX</code> escapes, a lone surrogate as U+FFFD);
   * {@code null} appends {@code null}.
   */
  public static void string(String s, StringBuilder out) {
    Json.appendString(s, out);
  }

  /**
   * Appends {@link Double#toString}.
   *
   * @throws IllegalArgumentException if {@code d} is {@code NaN} or infinite, as {@code Json.write}
   */
  public static void number(double d, StringBuilder out) {
    Json.appendNumber(d, out);
  }

  /**
   * Appends {@link Float#toString}.
   *
   * @throws IllegalArgumentException if {@code f} is {@code NaN} or infinite, as {@code Json.write}
   */
  public static void number(float f, StringBuilder out) {
    Json.appendNumber(f, out);
  }

  /**
   * Appends any plain-tree value ({@code BigDecimal}, {@code BigInteger}, boxed numbers, …) as
   * {@link Json#write} does; {@code null} appends {@code null}.
   */
  public static void value(Object value, StringBuilder out) {
    Json.appendValue(value, out);
  }
}
