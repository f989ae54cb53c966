package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.mcpfusion.processor.Fixtures.source;

import com.google.testing.compile.Compilation;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/** Every diagnostic: its stable code, the element it is anchored to, and its fix. */
class DiagnosticsTest {

  private static final JavaFileObject ITEM = source("shop.Item",
      "package shop;",
      "import dev.mcpfusion.annotation.*;",
      "@Model",
      "public record Item(",
      "    @Describe(\"Item id\") String id,",
      "    long total,",
      "    @Hidden String webhookSecret,",
      "    @Hidden @Guarded String tenantId) {}");

  private static final JavaFileObject ITEM_VIEW = source("shop.ItemView",
      "package shop;",
      "import dev.mcpfusion.annotation.*;",
      "@Presenter(model = Item.class)",
      "public record ItemView(String id, long total) {}");

  private static Compilation compile(JavaFileObject... sources) {
    return Fixtures.compile(sources);
  }

  @Test
  void viewExposingAHiddenFieldIsAnError() {
    JavaFileObject view = source("shop.LeakyView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Presenter(model = Item.class)",
        "public record LeakyView(String id, long total,",
        "    String webhookSecret) {}");
    Compilation c = compile(ITEM, view);
    assertThat(c).failed();
    assertThat(c).hadErrorContaining("[fusion/HiddenFieldExposed] LeakyView exposes 'webhookSecret',"
        + " which Item marks @Hidden. Remove it from the view or drop @Hidden.")
        .inFile(view).onLineContaining("webhookSecret");
    assertThat(c).hadErrorCount(1);
  }

  @Test
  void hiddenOnASuperclassFieldHoldsWhenASubclassOverridesTheGetter() {
    JavaFileObject base = source("shop.BaseAccount",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "public class BaseAccount {",
        "  private String id;",
        "  @Hidden private String apiKey;",
        "  public String getId() { return id; }",
        "  public String getApiKey() { return apiKey; }",
        "}");
    JavaFileObject account = source("shop.Account",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Model(description = \"An account\")",
        "public class Account extends BaseAccount {",
        "  @Override public String getApiKey() { return \"k\" + super.getApiKey(); }",
        "}");
    JavaFileObject view = source("shop.AccountView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Presenter(model = Account.class)",
        "public record AccountView(String id,",
        "    String apiKey) {}");
    Compilation c = compile(base, account, view);
    assertThat(c).failed();
    assertThat(c).hadErrorContaining("[fusion/HiddenFieldExposed] AccountView exposes 'apiKey',"
        + " which Account marks @Hidden.")
        .inFile(view).onLineContaining("apiKey");
  }

  @Test
  void routerUsingABrokenViewReportsOnlyTheViewError() {
    JavaFileObject view = source("shop.LeakyView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Presenter(model = Item.class)",
        "public record LeakyView(String id, long total, String webhookSecret) {}");
    JavaFileObject router = source("shop.LeakyTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"shop\")",
        "public class LeakyTools {",
        "  @Query(description = \"Get\", presenter = LeakyView.class)",
        "  public Item get() { return null; }",
        "}");
    Compilation c = compile(ITEM, view, router);
    assertThat(c).hadErrorContaining("[fusion/HiddenFieldExposed]").inFile(view)
        .onLineContaining("webhookSecret");
    assertThat(c).hadErrorCount(1);
  }

  @Test
  void viewComponentThatIsNotAModelPropertySuggestsTheNearName() {
    JavaFileObject view = source("shop.TypoView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Presenter(model = Item.class)",
        "public record TypoView(String id,",
        "    long totl) {}");
    Compilation c = compile(ITEM, view);
    assertThat(c).hadErrorContaining("[fusion/UnknownViewComponent] TypoView declares 'totl', which"
        + " is not a property of Item. Did you mean 'total'?")
        .inFile(view).onLineContaining("totl");
  }

  @Test
  void guardedParameterIsAnError() {
    JavaFileObject router = source("shop.GuardedTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"shop\")",
        "public class GuardedTools {",
        "  @Query(description = \"Count items\")",
        "  public int count(",
        "      @Guarded String tenantId) { return 0; }",
        "}");
    Compilation c = compile(router);
    assertThat(c).hadErrorContaining("[fusion/GuardedInput] GuardedTools.count takes 'tenantId' from"
        + " the agent, but it is @Guarded. Take it from a @Context parameter")
        .inFile(router).onLineContaining("@Guarded String tenantId");
  }

  @Test
  void hiddenComponentOfAnInputRecordIsAnError() {
    JavaFileObject filter = source("shop.Query2",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "public record Query2(String text,",
        "    @Hidden String internalNote) {}");
    JavaFileObject router = source("shop.QueryTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"shop\")",
        "public class QueryTools {",
        "  @Query(description = \"Count items\")",
        "  public int count(Query2 query) { return 0; }",
        "}");
    Compilation c = compile(filter, router);
    assertThat(c).hadErrorContaining("[fusion/HiddenInput] 'internalNote' of Query2 is @Hidden, so the"
        + " agent must never see it, but QueryTools.count takes Query2 from the agent as 'query':"
        + " its input schema would show the agent 'internalNote'.")
        .inFile(router).onLineContaining("Query2 query");
    assertThat(c).hadErrorCount(1);
  }

  @Test
  void guardedComponentOfAnInputRecordIsAnError() {
    JavaFileObject filter = source("shop.Filter",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "public record Filter(String text,",
        "    @Guarded String tenantId) {}");
    JavaFileObject router = source("shop.FilterTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"shop\")",
        "public class FilterTools {",
        "  @Query(description = \"Count items\")",
        "  public int count(Filter filter) { return 0; }",
        "}");
    Compilation c = compile(filter, router);
    assertThat(c).hadErrorContaining("[fusion/GuardedInput] 'tenantId' of Filter is @Guarded, so"
        + " the agent must not send it, but FilterTools.count takes Filter from the agent as"
        + " 'filter'. Take the value from a @Context parameter and remove it from the record.")
        .inFile(router).onLineContaining("Filter filter");
  }

  @Test
  void duplicateActionNamesAreAnError() {
    JavaFileObject router = source("shop.DupTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"shop\")",
        "public class DupTools {",
        "  @Query(description = \"Count items\")",
        "  public int countItems() { return 0; }",
        "  @Query(name = \"count_items\", description = \"Count again\")",
        "  public int again() { return 1; }",
        "}");
    Compilation c = compile(router);
    assertThat(c).hadErrorContaining("[fusion/DuplicateAction] DupTools.again is the action"
        + " 'count_items', but DupTools.countItems already has that name.")
        .inFile(router).onLineContaining("public int again()");
  }

  @Test
  void actionNameWithADotIsAnError() {
    JavaFileObject router = source("shop.DotTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"shop\")",
        "public class DotTools {",
        "  @Query(name = \"items.count\", description = \"Count items\")",
        "  public int count() { return 0; }",
        "}");
    Compilation c = compile(router);
    assertThat(c).hadErrorContaining("[fusion/InvalidActionName] DotTools.count is named"
        + " 'items.count', which contains a dot, but dots separate router and action")
        .inFile(router).onLineContaining("items.count");
    assertThat(c).hadErrorContaining("Use 'items_count'.");
  }

  @Test
  void invalidRouterNameIsAnError() {
    JavaFileObject router = source("shop.BadRouter",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"Shop.Main\")",
        "public class BadRouter {",
        "  @Query(description = \"Count items\")",
        "  public int count() { return 0; }",
        "}");
    Compilation c = compile(router);
    assertThat(c).hadErrorContaining("[fusion/InvalidRouterName] BadRouter is named 'Shop.Main'")
        .inFile(router).onLineContaining("@Router(\"Shop.Main\")");
  }

  @Test
  void toolNameLongerThan64CharactersIsAnError() {
    JavaFileObject router = source("shop.LongTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"warehouse_inventory\")",
        "public class LongTools {",
        "  @Query(description = \"Count\")",
        "  public int countEveryItemInEveryWarehouseIncludingTheOnesInTransit() { return 0; }",
        "}");
    Compilation c = compile(router);
    assertThat(c).hadErrorContaining("[fusion/InvalidToolName] LongTools.countEveryItemInEvery"
        + "WarehouseIncludingTheOnesInTransit becomes the MCP tool 'warehouse_inventory_count_every"
        + "_item_in_every_warehouse_including_the_ones_in_transit' (85 characters), which does not"
        + " match ^[a-zA-Z0-9_-]{1,64}$")
        .inFile(router).onLineContaining("countEveryItem");
  }

  @Test
  void unsupportedParameterTypeIsAnError() {
    JavaFileObject router = source("shop.MapTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import java.util.Map;",
        "@Router(\"shop\")",
        "public class MapTools {",
        "  @Query(description = \"Search\")",
        "  public int search(",
        "      Map<String, Object> filter) { return 0; }",
        "}");
    Compilation c = compile(router);
    assertThat(c).hadErrorContaining("[fusion/UnsupportedParameterType] MapTools.search parameter"
        + " 'filter' has type Map<String, Object>, but it has no JSON input mapping.")
        .inFile(router).onLineContaining("Map<String, Object> filter");
  }

  @Test
  void presenterWhoseModelDoesNotMatchTheReturnTypeIsAnError() {
    JavaFileObject other = source("shop.Customer",
        "package shop;",
        "public record Customer(String name) {}");
    JavaFileObject router = source("shop.MismatchTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"shop\")",
        "public class MismatchTools {",
        "  @Query(description = \"Get\", presenter = ItemView.class)",
        "  public Customer get() { return null; }",
        "}");
    Compilation c = compile(ITEM, ITEM_VIEW, other, router);
    assertThat(c).hadErrorContaining("[fusion/PresenterModelMismatch] MismatchTools.get returns"
        + " Customer, but presenter ItemView presents Item. Use a presenter whose model is Customer,"
        + " or return Item.")
        .inFile(router).onLineContaining("presenter = ItemView.class");
  }

  @Test
  void modelResultWithoutPresenterIsAnError() {
    JavaFileObject router = source("shop.BareTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import java.util.List;",
        "@Router(\"shop\")",
        "public class BareTools {",
        "  @Query(description = \"List\")",
        "  public List<Item> list() { return List.of(); }",
        "}");
    Compilation c = compile(ITEM, ITEM_VIEW, router);
    assertThat(c).hadErrorContaining("[fusion/ResultNeedsPresenter] BareTools.list returns"
        + " List<Item>, which needs a presenter")
        .inFile(router).onLineContaining("public List<Item> list()");
  }

  @Test
  void presenterThatIsNotAViewIsAnError() {
    JavaFileObject router = source("shop.NotViewTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"shop\")",
        "public class NotViewTools {",
        "  @Query(description = \"Get\", presenter = Item.class)",
        "  public Item get() { return null; }",
        "}");
    Compilation c = compile(ITEM, ITEM_VIEW, router);
    assertThat(c).hadErrorContaining("[fusion/NotAPresenter] NotViewTools.get names presenter Item,"
        + " which is not annotated @Presenter.")
        .inFile(router).onLineContaining("presenter = Item.class");
  }

  @Test
  void invalidatesOnAQueryIsAnError() {
    JavaFileObject router = source("shop.InvTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"shop\")",
        "public class InvTools {",
        "  @Query(description = \"Count\")",
        "  @Invalidates(\"shop.*\")",
        "  public int count() { return 0; }",
        "}");
    Compilation c = compile(router);
    assertThat(c).hadErrorContaining("[fusion/InvalidatesOnQuery] InvTools.count is a @Query but"
        + " declares @Invalidates")
        .inFile(router).onLineContaining("@Invalidates(\"shop.*\")");
  }

  @Test
  void aScopeThatIsNoScopeTokenIsAnError() {
    JavaFileObject router = source("shop.ScopeTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"shop\")",
        "@Scopes(\"shop read\")",
        "public class ScopeTools {",
        "  /** Counts the items in stock. */",
        "  @Query",
        "  @Scopes({\"items:read\", \"\"})",
        "  public int count() { return 0; }",
        "  /** Restocks an item. */",
        "  @Mutation",
        "  @Scopes(\"items:write\")",
        "  public int restock() { return 0; }",
        "}");
    Compilation c = compile(router);
    assertThat(c).hadErrorContaining("[fusion/InvalidScope] ScopeTools requires the scope 'shop read',"
        + " which is not an OAuth scope token: it contains a space")
        .inFile(router).onLineContaining("@Scopes(\"shop read\")");
    assertThat(c).hadErrorContaining("[fusion/InvalidScope] ScopeTools.count requires the scope '',"
        + " which is not an OAuth scope token: it is empty")
        .inFile(router).onLineContaining("@Scopes({\"items:read\", \"\"})");
    assertThat(c).hadErrorCount(2);
  }

  @Test
  void actionWithoutDescriptionOrJavadocIsAnError() {
    JavaFileObject router = source("shop.NoDocTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"shop\")",
        "public class NoDocTools {",
        "  /** Counts the items in stock. Slow. */",
        "  @Query",
        "  public int count() { return 0; }",
        "  @Query",
        "  public int undocumented() { return 0; }",
        "}");
    Compilation c = compile(router);
    assertThat(c).hadErrorContaining("[fusion/MissingDescription] NoDocTools.undocumented has no"
        + " description")
        .inFile(router).onLineContaining("public int undocumented()");
    assertThat(c).hadErrorCount(1);
  }

  @Test
  void twoVerbsOnOneMethodAreAnError() {
    JavaFileObject router = source("shop.VerbTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"shop\")",
        "public class VerbTools {",
        "  @Query(description = \"Count\") @Mutation(description = \"Count\")",
        "  public int count() { return 0; }",
        "}");
    Compilation c = compile(router);
    assertThat(c).hadErrorContaining("[fusion/MultipleVerbs] VerbTools.count is annotated @Query and"
        + " @Mutation.")
        .inFile(router).onLineContaining("public int count()");
  }

  @Test
  void parameterClashingWithACommonFieldIsAnError() {
    JavaFileObject ws = source("shop.Workspace",
        "package shop;",
        "public record Workspace(String workspace) {}");
    JavaFileObject router = source("shop.ClashTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(value = \"shop\", common = Workspace.class)",
        "public class ClashTools {",
        "  @Query(description = \"Count\")",
        "  public int count(",
        "      String workspace) { return 0; }",
        "}");
    Compilation c = compile(ws, router);
    assertThat(c).hadErrorContaining("[fusion/CommonFieldClash] ClashTools.count parameter"
        + " 'workspace' has the name of a field of the common record Workspace")
        .inFile(router).onLineContaining("String workspace)");
  }

  @Test
  void viewTypeMismatchIsAnError() {
    JavaFileObject view = source("shop.WrongView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Presenter(model = Item.class, ignore = \"total\")",
        "public record WrongView(",
        "    int id) {}");
    Compilation c = compile(ITEM, view);
    assertThat(c).hadErrorContaining("[fusion/ViewTypeMismatch] WrongView.id has type int, but the"
        + " model property is String. Declare it as String")
        .inFile(view).onLineContaining("int id");
  }

  @Test
  void nestedModelExposedWithoutPresenterIsAnError() {
    JavaFileObject line = source("shop.Line",
        "package shop;",
        "public record Line(String sku, @dev.mcpfusion.annotation.Hidden String secret) {}");
    JavaFileObject order = source("shop.Order",
        "package shop;",
        "import java.util.List;",
        "public record Order(String id, List<Line> lines) {}");
    JavaFileObject view = source("shop.OrderView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import java.util.List;",
        "@Presenter(model = Order.class)",
        "public record OrderView(String id,",
        "    List<Line> lines) {}");
    Compilation c = compile(line, order, view);
    assertThat(c).hadErrorContaining("[fusion/NestedModelNeedsPresenter] OrderView.lines exposes the"
        + " model type Line directly")
        .inFile(view).onLineContaining("List<Line> lines");
  }

  @Test
  void unmappedPropertyWarnsAndCanBeRaisedOrSilenced() {
    JavaFileObject view = source("shop.ShortView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Presenter(model = Item.class)",
        "public record ShortView(String id) {}");
    Compilation warned = compile(ITEM, view);
    assertThat(warned).succeeded();
    assertThat(warned).hadWarningContaining("[fusion/UnmappedProperty] ShortView neither exposes nor"
        + " hides 'total' of Item.")
        .inFile(view).onLineContaining("@Presenter");

    Compilation raised = Fixtures.compile(List.of("-Afusion.unmappedProperty=ERROR"), ITEM, view);
    assertThat(raised).hadErrorContaining("[fusion/UnmappedProperty]").inFile(view)
        .onLineContaining("@Presenter");

    Compilation ignored = Fixtures.compile(List.of("-Afusion.unmappedProperty=IGNORE"), ITEM, view);
    assertThat(ignored).succeededWithoutWarnings();

    Compilation unknown = Fixtures.compile(List.of("-Afusion.unmappedProperty=LOUD"), ITEM, view);
    assertThat(unknown).hadWarningContaining("[fusion/InvalidOption] -Afusion.unmappedProperty=LOUD"
        + " is not one of ERROR, WARN or IGNORE; using WARN.");
    assertThat(unknown).hadWarningContaining("[fusion/UnmappedProperty]");

    JavaFileObject suppressed = source("shop.QuietView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@SuppressWarnings(\"fusion/UnmappedProperty\")",
        "@Presenter(model = Item.class)",
        "public record QuietView(String id) {}");
    assertThat(compile(ITEM, suppressed)).succeededWithoutWarnings();

    JavaFileObject listed = source("shop.ListedView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Presenter(model = Item.class, ignore = \"total\")",
        "public record ListedView(String id) {}");
    assertThat(compile(ITEM, listed)).succeededWithoutWarnings();
  }

  @Test
  void invalidSuggestAndRulesMethodsAreErrors() {
    JavaFileObject view = source("shop.MethodView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import java.util.List;",
        "@Presenter(model = Item.class)",
        "public record MethodView(String id, long total) {",
        "  @Suggest",
        "  List<String> next(MethodView v) { return List.of(); }",
        "  @Rules",
        "  static int rules(MethodView v) { return 0; }",
        "}");
    Compilation c = compile(ITEM, view);
    assertThat(c).hadErrorContaining("[fusion/InvalidSuggestMethod] MethodView.next is not static.")
        .inFile(view).onLineContaining("List<String> next(");
    assertThat(c).hadErrorContaining("[fusion/InvalidRulesMethod] MethodView.rules returns int.")
        .inFile(view).onLineContaining("static int rules(");
  }

  @Test
  void agentLimitBelowOneIsAnError() {
    JavaFileObject view = source("shop.ZeroView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Presenter(model = Item.class,",
        "    agentLimit = 0)",
        "public record ZeroView(String id, long total) {}");
    Compilation c = compile(ITEM, view);
    assertThat(c).hadErrorContaining("[fusion/InvalidAgentLimit] ZeroView sets agentLimit = 0")
        .inFile(view).onLineContaining("agentLimit = 0");
  }

  @Test
  void javaOnlyPatternWarnsAndIsLeftOutOfTheSchema() {
    JavaFileObject router = source("shop.PatternTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import jakarta.validation.constraints.Pattern;",
        "@Router(\"shop\")",
        "public class PatternTools {",
        "  @Query(description = \"Find\")",
        "  public int find(",
        "      @Pattern(regexp = \"\\\\p{javaLowerCase}++\") String code) { return 0; }",
        "}");
    Compilation c = compile(router);
    assertThat(c).succeeded();
    assertThat(c).hadWarningContaining("[fusion/PatternNotPortable] @Pattern on 'code' uses the"
        + " character property \\p{...}")
        .inFile(router).onLineContaining("String code");
    org.assertj.core.api.Assertions.assertThat(
        Fixtures.generatedSource(c, "shop.PatternTools_Fusion"))
        .doesNotContain("\\\"pattern\\\"")
        .contains("Checks.pattern(v0, PATTERN_0");
  }

  @Test
  void constraintOnTheWrongTypeIsAnError() {
    JavaFileObject router = source("shop.SizeTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import jakarta.validation.constraints.NotBlank;",
        "@Router(\"shop\")",
        "public class SizeTools {",
        "  @Query(description = \"Find\")",
        "  public int find(",
        "      @NotBlank int count) { return 0; }",
        "}");
    Compilation c = compile(router);
    assertThat(c).hadErrorContaining("[fusion/ConstraintNotApplicable] @NotBlank on 'count' (int)")
        .inFile(router).onLineContaining("int count");
  }

  @Test
  void oneBrokenRouterDoesNotStopTheOthers() {
    JavaFileObject broken = source("shop.BrokenTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"shop\")",
        "public class BrokenTools {",
        "  @Query(name = \"a.b\", description = \"x\")",
        "  public int count() { return 0; }",
        "}");
    JavaFileObject fine = source("shop.FineTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"fine\")",
        "public class FineTools {",
        "  @Query(description = \"Count\")",
        "  public int count() { return 0; }",
        "}");
    JavaFileObject user = source("shop.Wiring",
        "package shop;",
        "class Wiring {",
        "  Object fine = FineTools_Fusion.bind(new FineTools());",
        "}");
    Compilation c = compile(broken, fine, user);
    assertThat(c).failed();
    // FineTools_Fusion was generated (Wiring compiles); BrokenTools_Fusion was not.
    assertThat(c).hadErrorCount(1);
    assertThat(c).hadErrorContaining("[fusion/InvalidActionName]").inFile(broken);
  }

  @Test
  void presenterOnAClassIsAnError() {
    JavaFileObject view = source("shop.ClassView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Presenter(model = Item.class)",
        "public class ClassView {}");
    assertThat(compile(ITEM, view)).hadErrorContaining("[fusion/PresenterNotRecord] ClassView is"
        + " annotated @Presenter but is not a record.").inFile(view).onLineContaining("@Presenter");
  }

  @Test
  void modelOnAnInterfaceIsAnErrorAndAnEmptyModelWarns() {
    JavaFileObject model = source("shop.Shape",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Model",
        "public interface Shape {}");
    assertThat(compile(model)).hadErrorContaining("[fusion/InvalidModel] Shape is annotated @Model"
        + " but is an interface.").inFile(model).onLineContaining("public interface Shape");
    JavaFileObject empty = source("shop.Nothing",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Model",
        "public record Nothing() {}");
    assertThat(compile(empty)).hadWarningContaining("[fusion/EmptyModel] Nothing is annotated"
        + " @Model but has no properties").inFile(empty).onLineContaining("public record Nothing");
  }

  @Test
  void privateActionIsAnError() {
    JavaFileObject router = source("shop.PrivateTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"shop\")",
        "public class PrivateTools {",
        "  @Query(description = \"Count\")",
        "  private int count() { return 0; }",
        "}");
    assertThat(compile(router)).hadErrorContaining("[fusion/InaccessibleAction] PrivateTools.count"
        + " is private or generic").inFile(router).onLineContaining("private int count()");
  }

  @Test
  void commonTypeThatIsNotARecordIsAnError() {
    JavaFileObject router = source("shop.CommonTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(value = \"shop\", common = String.class)",
        "public class CommonTools {",
        "  @Query(description = \"Count\")",
        "  public int count() { return 0; }",
        "}");
    assertThat(compile(router)).hadErrorContaining("[fusion/InvalidCommonType] CommonTools names"
        + " String as its common fields, but it is not a (non-generic) record.")
        .inFile(router).onLineContaining("common = String.class");
  }

  @Test
  void twoRoutersProducingTheSameToolNameAreAnError() {
    JavaFileObject first = source("shop.AbTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"a_b\")",
        "public class AbTools {",
        "  @Query(description = \"Count\")",
        "  public int c() { return 0; }",
        "}");
    JavaFileObject second = source("shop.ATools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"a\")",
        "public class ATools {",
        "  @Query(name = \"b_c\", description = \"Count\")",
        "  public int bc() { return 0; }",
        "}");
    Compilation c = compile(first, second);
    assertThat(c).hadErrorContaining("[fusion/DuplicateToolName]");
    assertThat(c).hadErrorContaining("becomes the MCP tool 'a_b_c', which");
    assertThat(c).hadErrorCount(1);
  }

  @Test
  void anUnprefixedRoutersToolMeetsEveryOtherToolName() {
    JavaFileObject greeter = source("shop.Greeter",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(value = \"greeter\", prefixed = false)",
        "public class Greeter {",
        "  @Query(description = \"Greet\")",
        "  public String greet() { return \"hi\"; }",
        "  @Query(name = \"a_b\", description = \"Count\")",
        "  public int count() { return 0; }",
        "}");
    JavaFileObject other = source("shop.Other",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(value = \"other\", prefixed = false)",
        "public class Other {",
        "  @Query(description = \"Greet too\")",
        "  public String greet() { return \"hello\"; }",
        "}");
    JavaFileObject prefixed = source("shop.ATools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"a\")",
        "public class ATools {",
        "  @Query(description = \"Count\")",
        "  public int b() { return 0; }",
        "}");
    Compilation c = compile(greeter, other, prefixed);
    assertThat(c).hadErrorContaining("[fusion/DuplicateToolName]");
    assertThat(c).hadErrorContaining("becomes the MCP tool 'greet', which");
    assertThat(c).hadErrorContaining("becomes the MCP tool 'a_b', which");
    assertThat(c).hadErrorCount(2);
    // Alone, the same router compiles: its tools are 'greet' and 'a_b'.
    assertThat(compile(greeter)).succeeded();
  }

  @Test
  void patternThatDoesNotCompileAndBadDecimalAreErrors() {
    JavaFileObject router = source("shop.BadTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import jakarta.validation.constraints.*;",
        "import java.math.BigDecimal;",
        "@Router(\"shop\")",
        "public class BadTools {",
        "  @Query(description = \"Find\")",
        "  public int find(@Pattern(regexp = \"(unclosed\") String code,",
        "      @DecimalMin(\"lots\") BigDecimal amount) { return 0; }",
        "}");
    Compilation c = compile(router);
    assertThat(c).hadErrorContaining("[fusion/InvalidPattern] @Pattern on 'code' does not compile")
        .inFile(router).onLineContaining("(unclosed");
    assertThat(c).hadErrorContaining("[fusion/InvalidConstraint] @DecimalMin on 'amount' has the"
        + " value \"lots\", which is not a decimal number.")
        .inFile(router).onLineContaining("\"lots\"");
  }

  @Test
  void viewExposingAMapIsAnError() {
    JavaFileObject model = source("shop.Bag",
        "package shop;",
        "import java.util.Map;",
        "public record Bag(Map<String, Object> flags) {}");
    JavaFileObject view = source("shop.BagView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import java.util.Map;",
        "@Presenter(model = Bag.class)",
        "public record BagView(",
        "    Map<String, Object> flags) {}");
    assertThat(compile(model, view)).hadErrorContaining("[fusion/UnsupportedViewType] BagView.flags"
        + " has type Map<String, Object>, which a view cannot expose field by field.")
        .inFile(view).onLineContaining("Map<String, Object> flags");
  }

  @Test
  void routerWithoutActionsWarns() {
    JavaFileObject router = source("shop.IdleTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"idle\")",
        "public class IdleTools {}");
    assertThat(compile(router)).hadWarningContaining("[fusion/EmptyRouter] IdleTools has no @Query,"
        + " @Mutation or @Action method").inFile(router).onLineContaining("public class IdleTools");
  }

  @Test
  void voidResultWithAPresenterIsAMismatch() {
    JavaFileObject router = source("shop.VoidTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"shop\")",
        "public class VoidTools {",
        "  @Mutation(description = \"Drop\", presenter = ItemView.class)",
        "  public void drop() {}",
        "}");
    assertThat(compile(ITEM, ITEM_VIEW, router)).hadErrorContaining("[fusion/PresenterModelMismatch]"
        + " VoidTools.drop returns void, so presenter ItemView has nothing to present.")
        .inFile(router).onLineContaining("presenter = ItemView.class");
  }
}
