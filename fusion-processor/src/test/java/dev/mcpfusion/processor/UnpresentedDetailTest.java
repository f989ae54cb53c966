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

/**
 * A model passed straight to {@code FusionError.detail} without a presenter in the compilation is
 * a compile error on the call; a presented model, a view, a scalar and a wider static type are not.
 */
class UnpresentedDetailTest {

  private static final JavaFileObject ITEM = source("shop.Item",
      "package shop;",
      "import dev.mcpfusion.annotation.*;",
      "@Model",
      "public record Item(String id, long total) {}");

  private static final JavaFileObject ITEM_VIEW = source("shop.ItemView",
      "package shop;",
      "import dev.mcpfusion.annotation.*;",
      "@Presenter(model = Item.class)",
      "public record ItemView(String id, long total) {}");

  private static final JavaFileObject SECRET = source("shop.Secret",
      "package shop;",
      "import dev.mcpfusion.annotation.*;",
      "@Model",
      "public record Secret(String id, @Hidden String token) {}");

  /** Not a model, but it carries a @Hidden member: its toString() would too. */
  private static final JavaFileObject TICKET = source("shop.Ticket",
      "package shop;",
      "import dev.mcpfusion.annotation.*;",
      "public record Ticket(String id, @Hidden String pin) {}");

  private static JavaFileObject tools(String detailArgument) {
    return source("shop.ShopTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import dev.mcpfusion.core.FusionError;",
        "@Router(\"shop\")",
        "public class ShopTools {",
        "  @Query(description = \"Get an item\", presenter = ItemView.class)",
        "  public Item getItem(String id) {",
        "    Item item = new Item(id, 1);",
        "    Secret secret = new Secret(id, \"t\");",
        "    Ticket ticket = new Ticket(id, \"p\");",
        "    Object wide = secret;",
        "    FusionError error = FusionError.notFound(\"no item\");",
        "    throw error.detail(\"secret\", " + detailArgument + ");",
        "  }",
        "}");
  }

  @Test
  void aModelWithoutAPresenterIsAnErrorOnTheCall() {
    JavaFileObject tools = tools("secret");
    Compilation c = Fixtures.compile(ITEM, ITEM_VIEW, SECRET, TICKET, tools);
    assertThat(c).hadErrorContaining("[fusion/UnpresentedDetail] ShopTools.getItem passes Secret,"
        + " a @Model, to FusionError.detail(\"secret\", ...), but no @Presenter of this compilation"
        + " presents it, so the call would fail at run time instead of answering. Pass a view, a"
        + " scalar (such as the one field you mean), or declare a @Presenter(model = Secret.class).")
        .inFile(tools).onLineContaining("error.detail(\"secret\", secret)");
    assertThat(c).hadErrorCount(1);
  }

  @Test
  void aTypeWithHiddenMembersWithoutAPresenterIsAnError() {
    Compilation c = Fixtures.compile(ITEM, ITEM_VIEW, SECRET, TICKET, tools("ticket"));
    assertThat(c).hadErrorContaining("[fusion/UnpresentedDetail] ShopTools.getItem passes Ticket,"
        + " a type with @Hidden members, to FusionError.detail(\"secret\", ...)");
  }

  @Test
  void aPresentedModelAViewAScalarAndAWiderTypeCompile() {
    for (String argument : new String[] {"item", "new ItemView(id, 1)", "secret.id()", "wide",
        "null"}) {
      Compilation c = Fixtures.compile(ITEM, ITEM_VIEW, SECRET, TICKET, tools(argument));
      assertThat(c).succeededWithoutWarnings();
    }
  }

  @Test
  void aModelFromALibraryJarIsLeftToTheRunTimeCheck(@TempDir Path dir) throws Exception {
    // The library's presenter may be in a module this compilation cannot see: no error here.
    Compilation lib = Compiler.javac().withClasspath(Fixtures.classpath()).compile(SECRET, TICKET);
    assertThat(lib).succeeded();
    List<File> classpath = new ArrayList<>(Fixtures.classpath());
    classpath.add(Fixtures.jar(dir, lib));
    for (String argument : new String[] {"secret", "ticket"}) {
      Compilation c = Compiler.javac().withProcessors(new FusionProcessor())
          .withClasspath(classpath).compile(ITEM, ITEM_VIEW, tools(argument));
      assertThat(c).succeededWithoutWarnings();
    }
  }
}
