package dev.mcpfusion.samples.boot;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.springframework.stereotype.Component;

/** The books, in memory: a stand-in for the repository a real application injects. */
@Component
public class Catalogue {
  private final ConcurrentMap<String, Book> books = new ConcurrentHashMap<>(Map.of(
      "BK-1", new Book("BK-1", "The Left Hand of Darkness", "Ursula K. Le Guin", BookStatus.AVAILABLE, null),
      "BK-2", new Book("BK-2", "A Wizard of Earthsea", "Ursula K. Le Guin", BookStatus.ON_LOAN, "m-7"),
      "BK-3", new Book("BK-3", "Kindred", "Octavia E. Butler", BookStatus.AVAILABLE, null)));

  /** Every book, by id; only those by {@code author} when it is not {@code null}. */
  public List<Book> list(String author) {
    return books.values().stream()
        .filter(b -> author == null || b.author().equalsIgnoreCase(author))
        .sorted(java.util.Comparator.comparing(Book::id))
        .toList();
  }

  /** The book with this id. */
  public Optional<Book> find(String id) {
    return Optional.ofNullable(books.get(id));
  }

  /** Replaces {@code before} with {@code after} unless the book changed meanwhile. */
  public boolean replace(Book before, Book after) {
    return books.replace(before.id(), before, after);
  }
}
