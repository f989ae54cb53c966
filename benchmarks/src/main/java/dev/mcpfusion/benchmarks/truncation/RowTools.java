package dev.mcpfusion.benchmarks.truncation;

import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Model;
import dev.mcpfusion.annotation.Presenter;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;

/**
 * The router of benchmark 3: one action answers a lazily produced {@code Stream} of 1,000,000 rows,
 * the other a held {@code List} of 100 rows; both are presented by {@link RowView} (agent limit 50).
 */
@Router(value = "rows", description = "Rows to list, from a huge stream or a small list")
public final class RowTools {
  private final List<Row> hundred = LongStream.rangeClosed(1, 100).mapToObj(Row::of).toList();

  /** A row of data as the backing system holds it. */
  @Model(description = "A data row")
  public record Row(@Describe("Row number, from 1") long n, @Describe("Row label") String label,
      @Describe("Row weight") double weight) {
    static Row of(long n) {
      return new Row(n, "row " + n, n * 0.5);
    }
  }

  /** What the agent sees of a row. */
  @Presenter(model = Row.class, agentLimit = 50)
  public record RowView(long n, String label, double weight) {}

  @Query(description = "Every row: a million, read lazily", presenter = RowView.class)
  public Stream<Row> millionRows() {
    return LongStream.rangeClosed(1, 1_000_000).mapToObj(Row::of);
  }

  @Query(description = "The first hundred rows", presenter = RowView.class)
  public List<Row> hundredRows() {
    return hundred;
  }
}
