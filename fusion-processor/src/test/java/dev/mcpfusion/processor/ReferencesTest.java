package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.mcpfusion.processor.Fixtures.source;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** String-literal action references are checked against the routers of the compilation. */
class ReferencesTest {

  private static final JavaFileObject ITEM = source("shop.Item",
      "package shop;",
      "import dev.mcpfusion.annotation.*;",
      "@Model",
      "public record Item(String id, long total) {}");

  private static JavaFileObject tools(String suggestion, String errorAction, String invalidates) {
    return source("shop.ShopTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import dev.mcpfusion.core.FusionError;",
        "@Router(\"shop\")",
        "public class ShopTools {",
        "  @Query(description = \"Get an item\", presenter = ItemView.class)",
        "  public Item getItem(String id) {",
        "    throw FusionError.notFound(\"no item\")",
        "        .actions(\"" + errorAction + "\");",
        "  }",
        "  @Mutation(description = \"Delete an item\")",
        "  @Invalidates(\"" + invalidates + "\")",
        "  public void deleteItem(String id) {}",
        "}");
  }

  private static JavaFileObject view(String suggestion) {
    return source("shop.ItemView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import dev.mcpfusion.core.Suggestion;",
        "import java.util.List;",
        "@Presenter(model = Item.class)",
        "public record ItemView(String id, long total) {",
        "  @Suggest static List<Suggestion> next(ItemView v) {",
        "    return List.of(Suggestion.of(\"" + suggestion + "\", \"Delete it\"));",
        "  }",
        "}");
  }

  private static JavaFileObject crossModule(String constant) {
    return source("shop.ShopTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import dev.mcpfusion.core.FusionError;",
        "@Router(\"shop\")",
        "public class ShopTools {",
        "  static final String TARGET = \"" + constant + "\";",
        "  @Query(description = \"Get an item\", presenter = ItemView.class)",
        "  public Item getItem(String id) {",
        "    throw FusionError.notFound(\"no item\").actions(TARGET, \"ledger.post\");",
        "  }",
        "}");
  }

  @Test
  void referencesToAnotherModulesRouterAreListedForBuild() {
    Compilation c = Fixtures.compile(ITEM, view("shop.get_item"), crossModule("ledger.void"));
    assertThat(c).succeededWithoutWarnings();
    org.assertj.core.api.Assertions.assertThat(Fixtures.generatedSource(c, "shop.ShopTools_Fusion"))
        .contains("public List<Reference> references() {")
        .contains("new Reference(\"FusionError.actions in ShopTools\", \"ledger.void\"),\n"
            + "            new Reference(\"FusionError.actions in ShopTools\", \"ledger.post\"))");
  }

  @Test
  void aConstantReferenceIsCheckedLikeALiteral() {
    Compilation c = Fixtures.compile(ITEM, view("shop.get_item"), crossModule("shop.get_itme"));
    assertThat(c).hadErrorContaining("[fusion/UnknownReference] FusionError.actions in ShopTools"
        + " names 'shop.get_itme', but router 'shop' has no action 'get_itme'. Did you mean"
        + " 'shop.get_item'?");
  }

  @Test
  void knownReferencesCompile() {
    Compilation c = Fixtures.compile(ITEM, view("shop.delete_item"),
        tools("", "shop.get_item", "shop.*"));
    assertThat(c).succeededWithoutWarnings();
  }

  @Test
  void aTypoInSuggestionOfIsAnErrorWithDidYouMean() {
    JavaFileObject view = view("shop.delete_itme");
    Compilation c = Fixtures.compile(ITEM, view, tools("", "shop.get_item", "shop.*"));
    assertThat(c).hadErrorContaining("[fusion/UnknownReference] Suggestion.of in ItemView names"
        + " 'shop.delete_itme', but router 'shop' has no action 'delete_itme'. Did you mean"
        + " 'shop.delete_item'? Name one of its actions: shop.delete_item, shop.get_item.")
        .inFile(view).onLineContaining("shop.delete_itme");
    assertThat(c).hadErrorCount(1);
  }

  @Test
  void aTypoInFusionErrorActionsIsAnError() {
    JavaFileObject tools = tools("", "shop.get_items", "shop.*");
    Compilation c = Fixtures.compile(ITEM, view("shop.delete_item"), tools);
    assertThat(c).hadErrorContaining("[fusion/UnknownReference] FusionError.actions in ShopTools"
        + " names 'shop.get_items', but router 'shop' has no action 'get_items'. Did you mean"
        + " 'shop.get_item'?").inFile(tools).onLineContaining(".actions(\"shop.get_items\")");
  }

  private static JavaFileObject recovering(String recovery) {
    return source("shop.ShopTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import dev.mcpfusion.core.FusionError;",
        "@Router(\"shop\")",
        "public class ShopTools {",
        "  @Query(description = \"Get an item\", presenter = ItemView.class)",
        "  public Item getItem(String id) {",
        "    throw FusionError.notFound(\"no item\")",
        "        .recovery(\"" + recovery + "\");",
        "  }",
        "  @Mutation(description = \"Delete an item\")",
        "  public void deleteItem(String id) {}",
        "}");
  }

  @Test
  void aTypoInRecoveryTextIsAnErrorWithDidYouMean() {
    JavaFileObject tools = recovering("Call shop.get_itme first, then shop.delete_item.");
    Compilation c = Fixtures.compile(ITEM, view("shop.delete_item"), tools);
    assertThat(c).hadErrorContaining("[fusion/UnknownReference] FusionError.recovery in ShopTools"
        + " names 'shop.get_itme', but router 'shop' has no action 'get_itme'. Did you mean"
        + " 'shop.get_item'? Name one of its actions: shop.delete_item, shop.get_item.")
        .inFile(tools).onLineContaining(".recovery(");
    assertThat(c).hadErrorCount(1);
  }

  @Test
  void realReferencesAndOtherDottedWordsInRecoveryTextCompile() {
    // Another module's router, a host name and a version are prose, not references to check.
    Compilation c = Fixtures.compile(ITEM, view("shop.delete_item"), recovering(
        "Call shop.get_item or ledger.find_entry; see docs.example.com (v1.2) or shop.get_item."));
    assertThat(c).succeededWithoutWarnings();
    org.assertj.core.api.Assertions.assertThat(Fixtures.generatedSource(c, "shop.ShopTools_Fusion"))
        .doesNotContain("references()");
  }

  @Test
  void theProcessorFindsReferencesInTextAsTheRuntimeRendersThem() {
    org.assertj.core.api.Assertions.assertThat(ReferenceStep.IN_TEXT.pattern())
        .isEqualTo(dev.mcpfusion.wire.References.IN_TEXT.pattern());
  }

  @Test
  void aRouterNameOneTypoAwayInInvalidatesIsAnError() {
    JavaFileObject tools = tools("", "shop.get_item", "shpo.*");
    Compilation c = Fixtures.compile(ITEM, view("shop.delete_item"), tools);
    assertThat(c).hadErrorContaining("[fusion/UnknownReference] @Invalidates on"
        + " ShopTools.deleteItem names 'shpo.*', but no router of this compilation is named"
        + " 'shpo'. Did you mean 'shop.*'?").inFile(tools).onLineContaining("@Invalidates");
  }

  @Test
  void aRouterOfAnotherModuleIsLeftToBuild() {
    Compilation c = Fixtures.compile(ITEM, view("billing.void_invoice"),
        tools("", "inventory.list_items", "billing.*"));
    assertThat(c).succeededWithoutWarnings();
  }

  @Test
  void aReferenceWithoutARouterIsAnError() {
    JavaFileObject view = view("delete_item");
    Compilation c = Fixtures.compile(ITEM, view, tools("", "shop.get_item", "shop.*"));
    assertThat(c).hadErrorContaining("[fusion/InvalidReference] Suggestion.of in ItemView names"
        + " 'delete_item', which is not a logical action reference. Write router.action, for"
        + " example billing.void_invoice.").inFile(view).onLineContaining("\"delete_item\"");
  }

  @Test
  void aViewsReferencesToAnotherModulesRouterAreListedInItsPresenterForBuild() {
    JavaFileObject view = source("shop.ItemView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import dev.mcpfusion.core.FusionError;",
        "import dev.mcpfusion.core.Suggestion;",
        "import java.util.List;",
        "@Presenter(model = Item.class)",
        "public record ItemView(String id, long total) {",
        "  @Suggest static List<Suggestion> next(ItemView v) {",
        "    return List.of(Suggestion.of(\"ledger.post_entry\", \"Post it\"),",
        "        Suggestion.of(\"shop.delete_item\", \"Delete it\"));",
        "  }",
        "  @Rules static String rules(ItemView v) {",
        "    if (v.total() < 0) {",
        "      throw FusionError.conflict(\"negative\").actions(\"ledger.refund\");",
        "    }",
        "    return \"\";",
        "  }",
        "}");
    Compilation c = Fixtures.compile(ITEM, view, tools("", "shop.get_item", "shop.*"));
    assertThat(c).succeededWithoutWarnings();
    org.assertj.core.api.Assertions.assertThat(Fixtures.generatedSource(c, "shop.ItemView_Presenter"))
        .contains("  public List<Reference> references() {\n"
            + "    return List.of(\n"
            + "            new Reference(\"Suggestion.of in ItemView\", \"ledger.post_entry\"),\n"
            + "            new Reference(\"FusionError.actions in ItemView\", \"ledger.refund\"));\n")
        .doesNotContain("shop.delete_item");
    org.assertj.core.api.Assertions.assertThat(Fixtures.generatedSource(c, "shop.ShopTools_Fusion"))
        .doesNotContain("references()");
  }

  @Test
  void aViewWhoseReferencesAreAllInTheCompilationListsNone() {
    Compilation c = Fixtures.compile(ITEM, view("shop.delete_item"),
        tools("", "shop.get_item", "shop.*"));
    assertThat(c).succeededWithoutWarnings();
    org.assertj.core.api.Assertions.assertThat(Fixtures.generatedSource(c, "shop.ItemView_Presenter"))
        .doesNotContain("references()");
  }

  @Test
  void aNestedViewWhoseRulesRunListsItsReferencesInTheOuterPresenter() {
    JavaFileObject line = source("shop.Line",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Model",
        "public record Line(String sku) {}");
    JavaFileObject order = source("shop.Order",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import java.util.List;",
        "@Model",
        "public record Order(String id, List<Line> lines) {}");
    JavaFileObject lineView = source("shop.LineView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import dev.mcpfusion.core.FusionError;",
        "@Presenter(model = Line.class)",
        "public record LineView(String sku) {",
        "  @Rules static String rules(LineView v) {",
        "    if (v.sku().isEmpty()) {",
        "      throw FusionError.conflict(\"no sku\").actions(\"stock.find_sku\");",
        "    }",
        "    return \"sku: \" + v.sku();",
        "  }",
        "}");
    JavaFileObject orderView = source("shop.OrderView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import java.util.List;",
        "@Presenter(model = Order.class)",
        "public record OrderView(String id, List<LineView> lines) {}");
    Compilation c = Fixtures.compile(line, order, lineView, orderView);
    assertThat(c).succeededWithoutWarnings();
    org.assertj.core.api.Assertions.assertThat(Fixtures.generatedSource(c, "shop.OrderView_Presenter"))
        .contains("new Reference(\"FusionError.actions in LineView\", \"stock.find_sku\"))");
    org.assertj.core.api.Assertions.assertThat(Fixtures.generatedSource(c, "shop.LineView_Presenter"))
        .contains("new Reference(\"FusionError.actions in LineView\", \"stock.find_sku\"))");
  }

  @Test
  void aNestedViewFromALibraryJarAddsItsPresentersReferences(@TempDir Path dir) throws Exception {
    Compilation lib = Compiler.javac().withProcessors(new FusionProcessor())
        .withClasspath(Fixtures.classpath()).compile(
            source("lib.Line", "package lib;", "public record Line(String sku) {}"),
            source("lib.LineView",
                "package lib;",
                "import dev.mcpfusion.annotation.*;",
                "import dev.mcpfusion.core.FusionError;",
                "@Presenter(model = Line.class)",
                "public record LineView(String sku) {",
                "  @Rules static String rules(LineView v) {",
                "    if (v.sku().isEmpty()) {",
                "      throw FusionError.conflict(\"no sku\").actions(\"stock.find_sku\");",
                "    }",
                "    return \"sku: \" + v.sku();",
                "  }",
                "}"));
    assertThat(lib).succeededWithoutWarnings();
    List<File> classpath = new ArrayList<>(Fixtures.classpath());
    classpath.add(Fixtures.jar(dir, lib));
    Compilation c = Compiler.javac().withProcessors(new FusionProcessor()).withClasspath(classpath)
        .compile(source("app.Order", "package app;",
                "public record Order(String id, java.util.List<lib.Line> lines) {}"),
            source("app.OrderView", "package app;",
                "import dev.mcpfusion.annotation.*;",
                "@Presenter(model = Order.class)",
                "public record OrderView(String id, java.util.List<lib.LineView> lines) {}"));
    assertThat(c).succeededWithoutWarnings();
    org.assertj.core.api.Assertions.assertThat(Fixtures.generatedSource(c, "app.OrderView_Presenter"))
        .contains("    List<Reference> all = new ArrayList<>();\n"
            + "    all.addAll(LineView_Presenter.INSTANCE.references());\n"
            + "    return all;\n");
  }
}
