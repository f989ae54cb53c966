package dev.mcpfusion.core;

import java.util.List;
import java.util.Objects;

/**
 * One page of a longer result: its items and the cursor of the next page ({@code null} on the last
 * page). An action that returns {@code Page<T>} declares a {@code String cursor} parameter: it is
 * {@code null} for the first page and, afterwards, exactly the {@code next} string a previous
 * {@code Page.of(items, next)} returned. The items are presented like a collection result by
 * {@code T}'s view (strip, {@code agentLimit}, rules, suggestions).
 *
 * <pre>{@code
 * @Query(presenter = InvoiceView.class)
 * public Page<Invoice> listInvoices(@Nullable String cursor) {
 *   int from = cursor == null ? 0 : offsetOf(cursor);       // throw Page.invalidCursor(..) if bad
 *   List<Invoice> rows = store.slice(from, 50);
 *   return from + 50 < store.size() ? Page.of(rows, "" + (from + 50)) : Page.last(rows);
 * }
 * }</pre>
 *
 * <p>The agent never sees the handler's cursor as written: the framework hands out its own opaque
 * cursor (in the truncation summary, {@code structuredContent.truncated.next} and
 * {@code _meta["mcpfusion/truncation"].next}) that wraps it together with how many items of the
 * page were already shown. So when {@code agentLimit} or the egress byte cap cuts a page short, the
 * next call resumes inside the same page (the handler is asked for the same page again and the
 * items already shown are skipped); a cursor the framework did not hand out, or one that was
 * altered, is a {@code VALIDATION_ERROR} before the handler runs. The wrapping is a checksum, not a
 * signature: the handler still treats its cursor as untrusted input and answers a cursor it cannot
 * use with {@link #invalidCursor}.
 *
 * @param <T> the item type (a model, a view, a {@code Map} row or a JSON tree)
 */
public final class Page<T> {
  private final List<T> items;
  private final String next;

  private Page(List<T> items, String next) {
    this.items = List.copyOf(Objects.requireNonNull(items, "items"));
    this.next = next;
  }

  /**
   * A page followed by another.
   *
   * @param items the items of this page, in order (no {@code null} item)
   * @param next what the handler needs to produce the next page (an offset, a key, a token of
   *     the store); {@code null} makes this the last page
   */
  public static <T> Page<T> of(List<? extends T> items, String next) {
    return new Page<>(List.copyOf(items), next);
  }

  /** The last page: no page follows. */
  public static <T> Page<T> last(List<? extends T> items) {
    return new Page<>(List.copyOf(items), null);
  }

  /** The items of this page, in order. */
  public List<T> items() {
    return items;
  }

  /** The handler's cursor of the next page, or {@code null} on the last page. */
  public String next() {
    return next;
  }

  /**
   * The exception a handler throws when the cursor it was given cannot be used (expired, past the
   * end, from another listing): the agent gets a {@code <validation_error>} on the {@code cursor}
   * field with {@code reason}, e.g. {@code "has expired"}, and advice to start from the first page.
   */
  public static InvalidCursor invalidCursor(String reason) {
    return new InvalidCursor(reason);
  }

  /** Thrown by a handler for a cursor it cannot use; see {@link Page#invalidCursor}. */
  public static final class InvalidCursor extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private InvalidCursor(String reason) {
      super(Objects.requireNonNull(reason, "reason"), null, false, false);
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Page<?> that && items.equals(that.items) && Objects.equals(next, that.next);
  }

  @Override
  public int hashCode() {
    return Objects.hash(items, next);
  }

  @Override
  public String toString() {
    return "Page[items=" + items.size() + ", next=" + next + "]";
  }
}
