package dev.mcpfusion.samples.boot;

import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Hidden;
import dev.mcpfusion.annotation.Model;

/** A book as the catalogue stores it; who borrowed it never leaves the process. */
@Model(description = "A book in the library's catalogue")
public record Book(
    @Describe("Book ID, e.g. BK-1") String id,
    @Describe("The title") String title,
    @Describe("The author, as printed on the cover") String author,
    @Describe("AVAILABLE or ON_LOAN") BookStatus status,
    @Hidden String borrower) {

  /** This book lent to {@code member}. */
  public Book lentTo(Member member) {
    return new Book(id, title, author, BookStatus.ON_LOAN, member.id());
  }
}
