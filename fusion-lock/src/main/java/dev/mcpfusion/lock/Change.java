package dev.mcpfusion.lock;

import java.util.Objects;

/**
 * One classified difference between the committed contract and the live one.
 *
 * @param severity how much it can hurt an agent relying on the committed contract
 * @param location where: the tool as exposed ({@code billing_get_invoice}), in GROUPED an action as
 *     {@code billing (action: get_invoice)}, or {@code server}
 * @param what what changed, e.g. {@code required field added: currency}
 * @param before the committed value, or {@code null} when the line needs none
 * @param after the live value, or {@code null} when the line needs none
 */
public record Change(Severity severity, String location, String what, String before, String after) {

  public Change {
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(location, "location");
    Objects.requireNonNull(what, "what");
  }

  /**
   * The report line: {@code BREAKING billing_get_invoice: required field added: currency}, with
   * {@code ": " + before + " → " + after} appended when the change has values.
   */
  public String line() {
    String line = severity + " " + location + ": " + what;
    return before == null && after == null ? line : line + ": " + before + " \u2192 " + after;
  }

  @Override
  public String toString() {
    return line();
  }
}
