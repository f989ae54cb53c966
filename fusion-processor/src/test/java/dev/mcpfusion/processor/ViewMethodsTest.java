package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.mcpfusion.processor.Fixtures.source;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import dev.mcpfusion.core.Suggestion;
import dev.mcpfusion.core.UiBlock;
import dev.mcpfusion.core.spi.PresenterBinding;
import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * {@code @Ui}, and {@code @Rules}/{@code @Suggest} taking {@code List<V>}: what compiles, what is
 * reported, and what the generated presenter calls (once per distinct view, once per collection,
 * nested views' rules once).
 */
class ViewMethodsTest {
  private static final JavaFileObject ITEM = source("shop.Item",
      "package shop;",
      "import dev.mcpfusion.annotation.*;",
      "@Model",
      "public record Item(String id, String status, @Hidden String secret) {}");

  private static JavaFileObject view(String name, String... body) {
    List<String> lines = new ArrayList<>(List.of(
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import dev.mcpfusion.core.*;",
        "import java.util.List;",
        "@Presenter(model = Item.class, agentLimit = 5000)",
        "public record " + name + "(String id, String status) {"));
    lines.addAll(List.of(body));
    lines.add("}");
    return source("shop." + name, lines.toArray(new String[0]));
  }

  @Test
  void uiMethodThatIsNotStaticIsAnError() {
    JavaFileObject v = view("UiView",
        "  @Ui",
        "  UiBlock chart(List<UiView> shown) { return null; }");
    Compilation c = Fixtures.compile(ITEM, v);
    assertThat(c).hadErrorContaining("[fusion/InvalidUiMethod] UiView.chart is not static."
        + " Declare it as: static UiBlock chart(List<UiView> shown) (or take one UiView v),"
        + " returning UiBlock.chart, mermaid, table or markdown.")
        .inFile(v).onLineContaining("UiBlock chart(");
    assertThat(c).hadErrorCount(1);
  }

  @Test
  void uiMethodReturningSomethingElseIsAnError() {
    JavaFileObject v = view("UiView",
        "  @Ui",
        "  static String chart(List<UiView> shown) { return \"\"; }");
    Compilation c = Fixtures.compile(ITEM, v);
    assertThat(c).hadErrorContaining("[fusion/InvalidUiMethod] UiView.chart returns String, not a"
        + " UiBlock.").inFile(v).onLineContaining("static String chart(");
  }

  @Test
  void uiMethodTakingAnythingButTheViewOrItsListIsAnError() {
    JavaFileObject v = view("UiView",
        "  @Ui",
        "  static UiBlock a(List<String> shown) { return null; }",
        "  @Ui",
        "  static UiBlock b() { return null; }",
        "  @Ui",
        "  static UiBlock c(UiView v, int i) { return null; }",
        "  @Ui",
        "  static UiBlock d(Item model) { return null; }");
    Compilation c = Fixtures.compile(ITEM, v);
    for (String m : List.of("a(", "b(", "c(", "d(")) {
      assertThat(c).hadErrorContaining("[fusion/InvalidUiMethod] UiView." + m.charAt(0)
          + " must take exactly one parameter: the view (UiView) or the shown views (List<UiView>).")
          .inFile(v).onLineContaining("static UiBlock " + m);
    }
    assertThat(c).hadErrorCount(4);
  }

  @Test
  void privateGenericOrThrowingUiMethodsAreErrors() {
    JavaFileObject v = view("UiView",
        "  @Ui",
        "  private static UiBlock a(UiView v) { return null; }",
        "  @Ui",
        "  static <T> UiBlock b(UiView v) { return null; }",
        "  @Ui",
        "  static UiBlock c(UiView v) throws java.io.IOException { return null; }");
    Compilation c = Fixtures.compile(ITEM, v);
    assertThat(c).hadErrorContaining("[fusion/InvalidUiMethod] UiView.a is private, so the"
        + " generated presenter cannot call it.").inFile(v).onLineContaining("UiBlock a(");
    assertThat(c).hadErrorContaining("[fusion/InvalidUiMethod] UiView.b is generic, so the"
        + " generated presenter cannot call it.").inFile(v).onLineContaining("UiBlock b(");
    assertThat(c).hadErrorContaining("[fusion/InvalidUiMethod] UiView.c declares the checked"
        + " exception IOException, which a presenter cannot pass on.")
        .inFile(v).onLineContaining("UiBlock c(");
    assertThat(c).hadErrorCount(3);
  }

  @Test
  void viewMethodsOutsideAPresenterAreErrors() {
    JavaFileObject helpers = source("shop.Helpers",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import dev.mcpfusion.core.*;",
        "import java.util.List;",
        "public final class Helpers {",
        "  @Ui static UiBlock chart(List<String> rows) { return null; }",
        "  @Rules static String rule(String row) { return null; }",
        "  @Suggest static List<Suggestion> next(String row) { return null; }",
        "}");
    Compilation c = Fixtures.compile(ITEM, helpers);
    assertThat(c).hadErrorContaining("[fusion/MisplacedViewMethod] Helpers.chart is annotated @Ui,"
        + " but Helpers is not a @Presenter view, so nothing would call it. Move the method into"
        + " the @Presenter record whose views it reads, or remove @Ui.")
        .inFile(helpers).onLineContaining("UiBlock chart(");
    assertThat(c).hadErrorContaining("[fusion/MisplacedViewMethod] Helpers.rule is annotated @Rules")
        .inFile(helpers).onLineContaining("String rule(");
    assertThat(c).hadErrorContaining("[fusion/MisplacedViewMethod] Helpers.next is annotated @Suggest")
        .inFile(helpers).onLineContaining("next(");
    assertThat(c).hadErrorCount(3);
  }

  @Test
  void aSecondCollectionLevelRulesOrSuggestMethodIsAnError() {
    JavaFileObject v = view("TwiceView",
        "  @Rules static String one(TwiceView v) { return null; }",
        "  @Rules static String all(List<TwiceView> shown) { return null; }",
        "  @Rules static String again(List<TwiceView> shown) { return null; }",
        "  @Suggest static List<Suggestion> s1(List<TwiceView> shown) { return null; }",
        "  @Suggest static List<Suggestion> s2(List<TwiceView> shown) { return null; }");
    Compilation c = Fixtures.compile(ITEM, v);
    assertThat(c).hadErrorContaining("[fusion/InvalidRulesMethod] TwiceView.again is the second"
        + " @Rules method taking List<TwiceView> (the first is all); a view has at most one taking"
        + " TwiceView and one taking List<TwiceView>.").inFile(v).onLineContaining("again(");
    assertThat(c).hadErrorContaining("[fusion/InvalidSuggestMethod] TwiceView.s2 is the second"
        + " @Suggest method taking List<TwiceView>").inFile(v).onLineContaining("s2(");
    assertThat(c).hadErrorCount(2);
  }

  @Test
  void rulesTakingAListOfAnotherTypeIsAnError() {
    JavaFileObject v = view("OtherView",
        "  @Rules static List<String> all(List<Item> shown) { return null; }");
    Compilation c = Fixtures.compile(ITEM, v);
    assertThat(c).hadErrorContaining("[fusion/InvalidRulesMethod] OtherView.all must take exactly"
        + " one parameter: the view (OtherView) or the shown views (List<OtherView>).")
        .inFile(v).onLineContaining("all(");
  }

  /** A view with every kind of method, each counting its calls in a static list. */
  private static final JavaFileObject COUNTED = view("CountedView",
      "  public static final List<String> CALLS = new java.util.ArrayList<>();",
      "  @Rules static String rule(CountedView v) {",
      "    CALLS.add(\"rule \" + v.status()); return \"status \" + v.status(); }",
      "  @Rules static List<String> rules(List<CountedView> shown) {",
      "    CALLS.add(\"rules \" + shown.size()); return List.of(shown.size() + \" shown\"); }",
      "  @Suggest static List<Suggestion> next(CountedView v) {",
      "    CALLS.add(\"next \" + v.status());",
      "    return List.of(Suggestion.of(\"shop.close\", \"Close \" + v.status())); }",
      "  @Suggest static List<Suggestion> all(List<CountedView> shown) {",
      "    CALLS.add(\"all\"); return List.of(Suggestion.of(\"shop.export\", \"Export\")); }",
      "  @Ui static UiBlock flow(CountedView v) {",
      "    CALLS.add(\"flow \" + v.status()); return UiBlock.mermaid(\"Flow\", \"graph LR; a-->\" + v.status()); }",
      "  @Ui static UiBlock table(List<CountedView> shown) {",
      "    CALLS.add(\"table\"); return UiBlock.table(\"Rows\", shown,",
      "        UiBlock.column(\"Id\", CountedView::id)); }",
      "  @Ui static UiBlock none(List<CountedView> shown) { CALLS.add(\"none\"); return null; }");

  @Test
  @SuppressWarnings("unchecked")
  void itemLevelMethodsRunOncePerDistinctViewAndCollectionLevelOnesOnce() throws Exception {
    Compilation c = Fixtures.compile(ITEM, COUNTED);
    assertThat(c).succeededWithoutWarnings();
    ClassLoader loader = Fixtures.loader(c);
    Class<?> type = loader.loadClass("shop.CountedView");
    PresenterBinding<Object, Object> p = (PresenterBinding<Object, Object>)
        loader.loadClass("shop.CountedView_Presenter").getField("INSTANCE").get(null);
    Constructor<?> ctor = type.getDeclaredConstructors()[0];
    List<Object> shown = new ArrayList<>();
    String[] statuses = {"OPEN", "PAID", "VOID"};
    for (int i = 0; i < 1_000; i++) {
      // Equal views: the id is the same for rows of one status.
      shown.add(ctor.newInstance("I-" + statuses[i % 3], statuses[i % 3]));
    }
    List<String> calls = (List<String>) type.getDeclaredField("CALLS").get(null);

    assertThat(p.rulesFor(shown)).containsExactly("status OPEN", "status PAID", "status VOID",
        "1000 shown");
    assertThat(p.suggestionsFor(shown)).containsExactly(
        Suggestion.of("shop.close", "Close OPEN"), Suggestion.of("shop.close", "Close PAID"),
        Suggestion.of("shop.close", "Close VOID"), Suggestion.of("shop.export", "Export"));
    List<UiBlock> ui = p.uiBlocksFor(shown);
    assertThat(ui).extracting(UiBlock::type).containsExactly("mermaid", "mermaid", "mermaid",
        "table");
    assertThat(calls).containsExactly("rule OPEN", "rule PAID", "rule VOID", "rules 1000",
        "next OPEN", "next PAID", "next VOID", "all",
        "flow OPEN", "flow PAID", "flow VOID", "table", "none");
  }

  private static final JavaFileObject ORDER = source("shop.Order",
      "package shop;",
      "import dev.mcpfusion.annotation.*;",
      "import java.util.List;",
      "import java.util.Optional;",
      "@Model",
      "public record Order(String id, Item main, List<Item> lines, Optional<Item> gift) {}");

  private static final JavaFileObject LINE_VIEW = source("shop.LineView",
      "package shop;",
      "import dev.mcpfusion.annotation.*;",
      "import java.util.List;",
      "@Presenter(model = Item.class, ignore = \"id\")",
      "@Rules(\"A line's status is its item's.\")",
      "public record LineView(@Describe(value = \"Item status\", rule = true) String status) {",
      "  public static final List<String> CALLS = new java.util.ArrayList<>();",
      "  @Rules static String rule(LineView v) { CALLS.add(v.status()); return v.status() + \" lines exist\"; }",
      "  @Rules static String all(List<LineView> shown) { CALLS.add(\"all \" + shown.size());",
      "    return shown.size() + \" lines\"; }",
      "}");

  @Test
  @SuppressWarnings("unchecked")
  void nestedViewsContributeTheirRulesOnceInComponentOrder() throws Exception {
    JavaFileObject orderView = source("shop.OrderView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import java.util.List;",
        "import java.util.Optional;",
        "@Presenter(model = Order.class)",
        "@Rules(\"Orders are final.\")",
        "public record OrderView(String id, LineView main, List<LineView> lines,",
        "    Optional<LineView> gift) {",
        "  @Rules static String own(OrderView v) { return \"order \" + v.id(); }",
        "}");
    Compilation c = Fixtures.compile(ITEM, ORDER, LINE_VIEW, orderView);
    assertThat(c).succeededWithoutWarnings();
    ClassLoader loader = Fixtures.loader(c);
    PresenterBinding<Object, Object> p = (PresenterBinding<Object, Object>)
        loader.loadClass("shop.OrderView_Presenter").getField("INSTANCE").get(null);
    Class<?> line = loader.loadClass("shop.LineView");
    Constructor<?> lc = line.getDeclaredConstructors()[0];
    Constructor<?> oc = loader.loadClass("shop.OrderView").getDeclaredConstructors()[0];
    Object open = lc.newInstance("OPEN");
    Object paid = lc.newInstance("PAID");
    List<Object> shown = List.of(
        oc.newInstance("O-1", open, List.of(open, paid), java.util.Optional.of(paid)),
        oc.newInstance("O-1", open, List.of(open, paid), java.util.Optional.of(paid)),
        oc.newInstance("O-2", paid, List.of(), java.util.Optional.empty()));

    // Static: the nested view's lines once (at its first component), then the outer @Rules.
    assertThat(p.staticRules()).containsExactly("status: Item status",
        "A line's status is its item's.", "Orders are final.");
    // Dynamic: each nested component's views (the nested presenter deduplicates them), then the
    // outer view's own, once per distinct order.
    assertThat(p.rulesFor(shown)).containsExactly(
        "OPEN lines exist", "PAID lines exist", "3 lines",
        "OPEN lines exist", "PAID lines exist", "4 lines",
        "PAID lines exist", "2 lines",
        "order O-1", "order O-2");
    List<String> calls = (List<String>) line.getDeclaredField("CALLS").get(null);
    assertThat(calls).containsExactly("OPEN", "PAID", "all 3", "OPEN", "PAID", "all 4", "PAID",
        "all 2");
  }

  @Test
  void aNestedViewCannotLeakAHiddenFieldAtAnyDepth() {
    JavaFileObject leaky = source("shop.LeakyLineView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Presenter(model = Item.class)",
        "public record LeakyLineView(String id, String status,",
        "    String secret) {}");
    JavaFileObject middle = source("shop.MiddleView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import java.util.List;",
        "@Presenter(model = Order.class, ignore = {\"main\", \"gift\"})",
        "public record MiddleView(String id, List<LeakyLineView> lines) {}");
    JavaFileObject wrapper = source("shop.Wrapper",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Model",
        "public record Wrapper(String name, Order order) {}");
    JavaFileObject outer = source("shop.OuterView",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Presenter(model = Wrapper.class)",
        "public record OuterView(String name, MiddleView order) {}");
    Compilation c = Fixtures.compile(ITEM, ORDER, leaky, middle, wrapper, outer);
    assertThat(c).failed();
    // Two levels down, the view that names the field is the one reported, and the build fails:
    // no presenter of the chain is usable, so no outer presenter can write the field either.
    assertThat(c).hadErrorContaining("[fusion/HiddenFieldExposed] LeakyLineView exposes 'secret',"
        + " which Item marks @Hidden.").inFile(leaky).onLineContaining("String secret");
  }
}
