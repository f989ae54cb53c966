package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.mcpfusion.processor.Fixtures.source;

import com.google.testing.compile.Compilation;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * {@code @Hidden} survives every way a getter can be inherited or redeclared: a three-level class
 * hierarchy whose middle and bottom classes override the getter, and an interface whose default
 * getter carries {@code @Hidden}, overridden or not. A view that exposes the property fails to
 * compile, so no generated presenter can call the getter.
 */
class HierarchyBypassTest {
  private static final JavaFileObject ENTITY = source("shop.Entity",
      "package shop;",
      "import dev.mcpfusion.annotation.*;",
      "public class Entity {",
      "  private String id;",
      "  @Hidden private String apiKey;",
      "  public String getId() { return id; }",
      "  public String getApiKey() { return apiKey; }",
      "}");
  private static final JavaFileObject BASE_ACCOUNT = source("shop.BaseAccount",
      "package shop;",
      "public class BaseAccount extends Entity {",
      "  @Override public String getApiKey() { return \"b\" + super.getApiKey(); }",
      "}");
  private static final JavaFileObject ACCOUNT = source("shop.Account",
      "package shop;",
      "import dev.mcpfusion.annotation.*;",
      "@Model(description = \"An account\")",
      "public class Account extends BaseAccount {",
      "  @Override public String getApiKey() { return \"a\" + super.getApiKey(); }",
      "}");

  private static final JavaFileObject SECRETS = source("shop.HasSecret",
      "package shop;",
      "import dev.mcpfusion.annotation.*;",
      "public interface HasSecret {",
      "  @Hidden default String getSecret() { return \"s\"; }",
      "}");

  private static Compilation compile(JavaFileObject... sources) {
    return Fixtures.compile(sources);
  }

  @Test
  void threeLevelHierarchyKeepsHiddenFromTheTopField() {
    JavaFileObject view = source("shop.AccountView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Presenter(model = Account.class)",
        "public record AccountView(String id,",
        "    String apiKey) {}");
    Compilation c = compile(ENTITY, BASE_ACCOUNT, ACCOUNT, view);
    assertThat(c).failed();
    assertThat(c).hadErrorContaining("[fusion/HiddenFieldExposed] AccountView exposes 'apiKey',"
        + " which Account marks @Hidden.").inFile(view).onLineContaining("apiKey");
  }

  @Test
  void threeLevelHierarchyWithoutTheHiddenPropertyCompiles() {
    JavaFileObject view = source("shop.AccountView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Presenter(model = Account.class)",
        "public record AccountView(String id) {}");
    assertThat(compile(ENTITY, BASE_ACCOUNT, ACCOUNT, view)).succeeded();
  }

  @Test
  void hiddenOnAnInheritedInterfaceDefaultGetterHolds() {
    JavaFileObject model = source("shop.Vault",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Model(description = \"A vault\")",
        "public class Vault implements HasSecret {",
        "  public String getId() { return \"v\"; }",
        "}");
    JavaFileObject view = source("shop.VaultView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Presenter(model = Vault.class)",
        "public record VaultView(String id,",
        "    String secret) {}");
    Compilation c = compile(SECRETS, model, view);
    assertThat(c).failed();
    assertThat(c).hadErrorContaining("[fusion/HiddenFieldExposed] VaultView exposes 'secret',"
        + " which Vault marks @Hidden.").inFile(view).onLineContaining("secret");
  }

  @Test
  void hiddenOnAnInterfaceDefaultGetterHoldsWhenTheClassOverridesIt() {
    JavaFileObject model = source("shop.Vault",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Model(description = \"A vault\")",
        "public class Vault implements HasSecret {",
        "  public String getId() { return \"v\"; }",
        "  @Override public String getSecret() { return \"override\"; }",
        "}");
    JavaFileObject view = source("shop.VaultView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Presenter(model = Vault.class)",
        "public record VaultView(String id,",
        "    String secret) {}");
    Compilation c = compile(SECRETS, model, view);
    assertThat(c).failed();
    assertThat(c).hadErrorContaining("[fusion/HiddenFieldExposed] VaultView exposes 'secret',"
        + " which Vault marks @Hidden.").inFile(view).onLineContaining("secret");
  }

  @Test
  void anInheritedInterfaceDefaultGetterIsAPropertyAViewMayExpose() {
    JavaFileObject named = source("shop.Named",
        "package shop;",
        "public interface Named {",
        "  default String getLabel() { return \"label\"; }",
        "}");
    JavaFileObject model = source("shop.Thing",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Model(description = \"A thing\")",
        "public class Thing implements Named {",
        "  public String getId() { return \"t\"; }",
        "}");
    JavaFileObject view = source("shop.ThingView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Presenter(model = Thing.class)",
        "public record ThingView(String id, String label) {}");
    assertThat(compile(named, model, view)).succeededWithoutWarnings();
  }

  @Test
  void hiddenComponentOfANestedInputRecordIsAnError() {
    JavaFileObject inner = source("shop.Secretive",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "public record Secretive(String text,",
        "    @Hidden String internalNote) {}");
    JavaFileObject outer = source("shop.Outer",
        "package shop;",
        "public record Outer(String id, java.util.List<Secretive> parts) {}");
    JavaFileObject router = source("shop.NestedTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"shop\")",
        "public class NestedTools {",
        "  @Query(description = \"Count\")",
        "  public int count(Outer query) { return 0; }",
        "}");
    Compilation c = compile(inner, outer, router);
    // Reported on the parameter that makes the record input: the record may come from a jar.
    assertThat(c).hadErrorContaining("[fusion/HiddenInput] 'internalNote' of Secretive is @Hidden")
        .inFile(router).onLineContaining("Outer query");
  }

  @Test
  void hiddenParameterIsAnError() {
    JavaFileObject router = source("shop.ParamTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"shop\")",
        "public class ParamTools {",
        "  @Query(description = \"Count\")",
        "  public int count(String text,",
        "      @Hidden String internalNote) { return 0; }",
        "}");
    Compilation c = compile(router);
    assertThat(c).failed();
    assertThat(c).hadErrorContaining("[fusion/HiddenInput] ParamTools.count takes 'internalNote' from"
        + " the agent, but it is @Hidden").inFile(router).onLineContaining("internalNote");
    assertThat(c).hadErrorCount(1);
  }

  @Test
  void hiddenComponentOfTheCommonRecordIsAnError() {
    JavaFileObject common = source("shop.Workspace",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "public record Workspace(String workspaceId,",
        "    @Hidden String internalNote) {}");
    JavaFileObject router = source("shop.CommonTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(value = \"shop\", common = Workspace.class)",
        "public class CommonTools {",
        "  @Query(description = \"Count\")",
        "  public int count(Workspace ws) { return 0; }",
        "}");
    Compilation c = compile(common, router);
    // Reported on @Router(common = ...), what makes the record input: the record may come from a jar.
    assertThat(c).hadErrorContaining("[fusion/HiddenInput] 'internalNote' of the common record"
        + " Workspace is @Hidden")
        .inFile(router).onLineContaining("common = Workspace.class");
  }
}
