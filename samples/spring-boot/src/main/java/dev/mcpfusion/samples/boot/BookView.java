package dev.mcpfusion.samples.boot;

import dev.mcpfusion.annotation.Presenter;
import dev.mcpfusion.annotation.Rules;
import dev.mcpfusion.annotation.Suggest;
import dev.mcpfusion.core.Suggestion;
import java.util.List;
import java.util.Map;

/** What an agent sees of a book: never who borrowed it. */
@Presenter(model = Book.class, agentLimit = 20)
@Rules("A book ON_LOAN cannot be checked out until it is returned.")
public record BookView(String id, String title, String author, BookStatus status) {

  @Suggest
  static List<Suggestion> next(BookView book) {
    return book.status() == BookStatus.AVAILABLE
        ? List.of(Suggestion.of("library.check_out", "Available to borrow", Map.of("id", book.id())))
        : List.of();
  }
}
