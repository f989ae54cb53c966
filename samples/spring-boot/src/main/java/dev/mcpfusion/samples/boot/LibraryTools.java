package dev.mcpfusion.samples.boot;

import dev.mcpfusion.annotation.Context;
import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Invalidates;
import dev.mcpfusion.annotation.Mutation;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.annotation.Use;
import dev.mcpfusion.core.FusionError;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import java.util.List;
import org.springframework.stereotype.Component;

/** The library connector: find books and borrow them. A Spring bean like any other. */
@Component
@Router(value = "library", description = "Books: find them and borrow them")
public class LibraryTools {
  private final Catalogue catalogue;

  public LibraryTools(Catalogue catalogue) {
    this.catalogue = catalogue;
  }

  @Query(description = "List the books, by id", presenter = BookView.class)
  public List<Book> listBooks(@Describe("Only books by this author") String author) {
    return catalogue.list(author);
  }

  @Query(description = "Get one book", presenter = BookView.class)
  public Book getBook(@NotBlank @Pattern(regexp = "BK-\\d+") String id) {
    return catalogue.find(id).orElseThrow(() -> notFound(id));
  }

  @Mutation(description = "Borrow an available book for the calling member", presenter = BookView.class)
  @Invalidates("library.*")
  @Use(MembersOnly.class)
  public Book checkOut(@NotBlank @Pattern(regexp = "BK-\\d+") String id, @Context Member member) {
    Book book = catalogue.find(id).orElseThrow(() -> notFound(id));
    if (book.status() != BookStatus.AVAILABLE) {
      throw FusionError.conflict("Book \"" + id + "\" is " + book.status() + ".")
          .recovery("Suggest another available book from library.list_books.")
          .actions("library.list_books");
    }
    Book lent = book.lentTo(member);
    if (!catalogue.replace(book, lent)) {
      throw FusionError.conflict("Book \"" + id + "\" was borrowed by someone else just now.")
          .recovery("Call library.get_book to see its status.")
          .actions("library.get_book");
    }
    return lent;
  }

  private static FusionError notFound(String id) {
    return FusionError.notFound("Book \"" + id + "\" does not exist.")
        .recovery("Call library.list_books first to find valid IDs.")
        .actions("library.list_books");
  }
}
