package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.mcpfusion.processor.Fixtures.source;

import com.google.testing.compile.Compilation;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/** {@code @Presenter(select = true)} and {@code Page<T>} results: what compiles, and each misuse. */
class FieldsAndPagesTest {

  private static final JavaFileObject ITEM = source("shop.Item",
      "package shop;",
      "import dev.mcpfusion.annotation.*;",
      "@Model",
      "public record Item(@Describe(\"Item id\") String id, long total) {}");

  private static final JavaFileObject SELECT_VIEW = source("shop.ItemView",
      "package shop;",
      "import dev.mcpfusion.annotation.*;",
      "@Presenter(model = Item.class, select = true)",
      "public record ItemView(String id, long total) {}");

  @Test
  void aPagedSelectableActionCompilesWithSelectAndCursorInputs() {
    JavaFileObject router = source("shop.ItemTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import dev.mcpfusion.core.Page;",
        "import java.util.List;",
        "@Router(value = \"shop\", description = \"Items\")",
        "public class ItemTools {",
        "  @Query(description = \"List items\", presenter = ItemView.class)",
        "  public Page<Item> list(String cursor) { return Page.last(List.of()); }",
        "}");
    Compilation c = Fixtures.compile(ITEM, SELECT_VIEW, router);
    assertThat(c).succeededWithoutWarnings();
    assertThat(c).generatedSourceFile("shop.ItemTools_Fusion").contentsAsUtf8String()
        .contains("ResultShape.PAGE");
    assertThat(c).generatedSourceFile("shop.ItemTools_Fusion").contentsAsUtf8String()
        .contains("FieldDescriptor.optional(\"_select\", \"{\\\"type\\\":\\\"array\\\",\\\"items\\\":"
            + "{\\\"type\\\":\\\"string\\\",\\\"enum\\\":[\\\"id\\\",\\\"total\\\"]}");
    // the cursor gets the framework's description when the handler gives none
    assertThat(c).generatedSourceFile("shop.ItemTools_Fusion").contentsAsUtf8String()
        .contains("Omit for the first page");
    assertThat(c).generatedSourceFile("shop.ItemView_Presenter").contentsAsUtf8String()
        .contains("public boolean selectable()");
  }

  @Test
  void selectOnAViewWithOneFieldIsAnError() {
    JavaFileObject view = source("shop.IdView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Presenter(model = Item.class,",
        "    select = true)",
        "public record IdView(String id) {}");
    Compilation c = Fixtures.compile(ITEM, view);
    assertThat(c).hadErrorContaining("[fusion/SelectMisuse] IdView sets select = true but has 1"
        + " field(s): there is nothing to choose from. Remove select = true, or give the view the"
        + " fields an agent may choose between.").inFile(view).onLineContaining("@Presenter");
  }

  @Test
  void anInputNamedSelectClashesWithFieldSelection() {
    JavaFileObject router = source("shop.ClashTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(value = \"shop\", description = \"Items\")",
        "public class ClashTools {",
        "  @Query(description = \"One item\", presenter = ItemView.class)",
        "  public Item get(String id,",
        "      String _select) { return null; }",
        "}");
    Compilation c = Fixtures.compile(ITEM, SELECT_VIEW, router);
    assertThat(c).hadErrorContaining("[fusion/SelectMisuse] ClashTools.get has an input named"
        + " '_select', but its result view ItemView selects fields (select = true) and '_select' is"
        + " the framework's field-selection input. Rename the input, or remove select = true from"
        + " the view.").inFile(router).onLineContaining("String _select");
  }

  @Test
  void aPageWithoutACursorParameterIsAnError() {
    JavaFileObject router = source("shop.NoCursorTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import dev.mcpfusion.core.Page;",
        "@Router(value = \"shop\", description = \"Items\")",
        "public class NoCursorTools {",
        "  @Query(description = \"List items\", presenter = ItemView.class)",
        "  public Page<Item> list(String after) { return null; }",
        "}");
    Compilation c = Fixtures.compile(ITEM, SELECT_VIEW, router);
    assertThat(c).hadErrorContaining("[fusion/PageWithoutCursor] NoCursorTools.list returns a Page"
        + " but declares no 'cursor' parameter, so an agent cannot ask for the next page.")
        .inFile(router).onLineContaining("Page<Item> list(");
  }

  @Test
  void aRequiredOrNonStringCursorIsAnError() {
    JavaFileObject router = source("shop.BadCursorTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import dev.mcpfusion.core.Page;",
        "import jakarta.validation.constraints.NotBlank;",
        "@Router(value = \"shop\", description = \"Items\")",
        "public class BadCursorTools {",
        "  @Query(description = \"List items\", presenter = ItemView.class)",
        "  public Page<Item> list(@NotBlank String cursor) { return null; }",
        "  @Query(description = \"Numbered\", presenter = ItemView.class)",
        "  public Page<Item> numbered(Integer cursor) { return null; }",
        "}");
    Compilation c = Fixtures.compile(ITEM, SELECT_VIEW, router);
    assertThat(c).hadErrorContaining("[fusion/PageWithoutCursor] BadCursorTools.list returns a Page,"
        + " so its 'cursor' parameter must be an optional String, not String (required).")
        .inFile(router).onLineContaining("@NotBlank String cursor");
    assertThat(c).hadErrorContaining("[fusion/PageWithoutCursor] BadCursorTools.numbered returns a"
        + " Page, so its 'cursor' parameter must be an optional String, not Integer.")
        .inFile(router).onLineContaining("Integer cursor");
  }
}
