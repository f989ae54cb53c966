package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.mcpfusion.processor.Fixtures.source;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/** Action names, generated class names, Javadoc descriptions and pattern portability. */
class NamesAndPatternsTest {

  @Test
  void methodNamesBecomeSnakeCaseActionNames() {
    assertThat(Names.snake("listInvoices")).isEqualTo("list_invoices");
    assertThat(Names.snake("getHTTPStatus")).isEqualTo("get_http_status");
    assertThat(Names.snake("v2Export")).isEqualTo("v2_export");
    assertThat(Names.snake("ping")).isEqualTo("ping");
  }

  @Test
  void didYouMeanPicksTheNearestNameOrNothing() {
    assertThat(Names.didYouMean("totl", List.of("id", "total"))).isEqualTo(" Did you mean 'total'?");
    assertThat(Names.didYouMean("customerName", List.of("id", "total"))).isEmpty();
  }

  @Test
  void javadocFirstSentenceIsTheFallbackDescription() {
    assertThat(ActionValidation.firstSentence(" Lists the {@code open} invoices. Slow.\n @return x"))
        .isEqualTo("Lists the open invoices.");
    assertThat(ActionValidation.firstSentence("Counts e.g.items\n in <b>stock</b>\n@param x y"))
        .isEqualTo("Counts e.g.items in stock");
    assertThat(ActionValidation.firstSentence(null)).isEmpty();
  }

  @Test
  void portablePatternsArePublished() {
    for (String regex : List.of("INV-\\d+", "[a-z]+", "(?:ab)+", "(?<name>x)\\k<name>", "a{2,3}",
        "[+*?]+", "\\++", "(?=a)a", "[\\[\\]]")) {
      assertThat(PatternPortability.javaOnly(regex)).as(regex).isNull();
    }
  }

  @Test
  void javaOnlyConstructsAreNamed() {
    assertThat(PatternPortability.javaOnly("a++")).isEqualTo("a possessive quantifier (++)");
    assertThat(PatternPortability.javaOnly("a{2}+")).isEqualTo("a possessive quantifier (}+)");
    assertThat(PatternPortability.javaOnly("(?i)abc")).isEqualTo("an inline flag group (?i...)");
    assertThat(PatternPortability.javaOnly("\\p{Lower}")).startsWith("the character property");
    assertThat(PatternPortability.javaOnly("(?>a)")).isEqualTo("an atomic group (?>...)");
    assertThat(PatternPortability.javaOnly("(?<=a)b")).isEqualTo("a lookbehind (?<=...)");
    assertThat(PatternPortability.javaOnly("\\Aabc\\z")).isEqualTo("the anchor \\A");
    assertThat(PatternPortability.javaOnly("[a-z&&[^e]]"))
        .isEqualTo("character class intersection (&&)");
    assertThat(PatternPortability.javaOnly("\\Qa.b\\E")).isEqualTo("\\Q...\\E quoting");
  }

  @Test
  void nestedRouterIsOuterInnerFusion() throws Exception {
    JavaFileObject outer = source("shop.Outer",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "public class Outer {",
        "  @Router(\"inner\")",
        "  public static class Inner {",
        "    /** Reports the {@code HTTP} status. */",
        "    @Query",
        "    public int getHTTPStatus() { return 200; }",
        "  }",
        "}");
    Compilation c = Fixtures.compile(outer);
    assertThat(c).succeededWithoutWarnings();
    ClassLoader loader = Fixtures.loader(c);
    Class<?> inner = loader.loadClass("shop.Outer$Inner");
    var router = (dev.mcpfusion.core.spi.GeneratedRouter) loader.loadClass("shop.Outer_Inner_Fusion")
        .getMethod("bind", inner).invoke(null, inner.getConstructor().newInstance());
    var action = router.descriptor().actions().get(0);
    assertThat(action.name()).isEqualTo("get_http_status");
    assertThat(action.description()).isEqualTo("Reports the HTTP status.");
    assertThat(router.invoke(0, router.decode(0, java.util.Map.of(),
        new dev.mcpfusion.core.spi.Problems()), null)).isEqualTo(200);
  }
}
