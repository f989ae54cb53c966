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
  void onlyTheQueryOfASelectableViewTakesSelectUnlessAMutationAsks() throws Exception {
    JavaFileObject router = source("shop.ShopTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(value = \"shop\", description = \"Items\")",
        "public class ShopTools {",
        "  @Query(description = \"One item\", presenter = ItemView.class)",
        "  public Item get(String id) { return null; }",
        "  @Mutation(description = \"Rename an item\", presenter = ItemView.class)",
        "  public Item rename(String id, String title) { return null; }",
        "  @Mutation(description = \"Reprice an item\", presenter = ItemView.class, select = true)",
        "  public Item reprice(String id, long total) { return null; }",
        "  @Action(description = \"Tag an item\", presenter = ItemView.class)",
        "  public Item tag(String id) { return null; }",
        "  @Action(description = \"Touch an item\", presenter = ItemView.class, select = true)",
        "  public Item touch(String id) { return null; }",
        "}");
    Compilation c = Fixtures.compile(ITEM, SELECT_VIEW, router);
    assertThat(c).succeededWithoutWarnings();
    String generated = c.generatedSourceFile("shop.ShopTools_Fusion").orElseThrow()
        .getCharContent(true).toString();
    // one descriptor per action, in declaration order: the query and the two opt-ins list _select
    String[] actions = generated.split("ActionDescriptor\\.(query|mutation|action)\\(");
    org.assertj.core.api.Assertions.assertThat(actions).hasSize(6);
    org.assertj.core.api.Assertions.assertThat(actions[1]).startsWith("\"get\"").contains("\"_select\"");
    org.assertj.core.api.Assertions.assertThat(actions[2]).startsWith("\"rename\"").doesNotContain("_select");
    org.assertj.core.api.Assertions.assertThat(actions[3]).startsWith("\"reprice\"").contains("\"_select\"");
    org.assertj.core.api.Assertions.assertThat(actions[4]).startsWith("\"tag\"").doesNotContain("_select");
    org.assertj.core.api.Assertions.assertThat(actions[5]).startsWith("\"touch\"").contains("\"_select\"");
  }

  @Test
  void selectOnAVerbWithoutASelectableViewIsAnError() {
    JavaFileObject plainView = source("shop.PlainView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Presenter(model = Item.class)",
        "public record PlainView(String id, long total) {}");
    JavaFileObject router = source("shop.OptInTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(value = \"shop\", description = \"Items\")",
        "public class OptInTools {",
        "  @Mutation(description = \"Rename an item\", presenter = PlainView.class, select = true)",
        "  public Item rename(String id) { return null; }",
        "  @Action(description = \"Ping the shop\", select = true)",
        "  public void ping() {}",
        "}");
    Compilation c = Fixtures.compile(ITEM, plainView, router);
    assertThat(c).hadErrorContaining("[fusion/SelectMisuse] OptInTools.rename sets select = true,"
        + " but its result view PlainView does not say @Presenter(select = true), so there are no"
        + " fields to select. Present a view with @Presenter(select = true), or remove select = true"
        + " from @Mutation.").inFile(router).onLineContaining("Rename an item");
    assertThat(c).hadErrorContaining("[fusion/SelectMisuse] OptInTools.ping sets select = true, but"
        + " its result has no view, so there are no fields to select. Present a view with"
        + " @Presenter(select = true), or remove select = true from @Action.")
        .inFile(router).onLineContaining("Ping the shop");
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
