package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.mcpfusion.processor.Fixtures.source;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.google.testing.compile.Compilation;
import dev.mcpfusion.core.PromptResult;
import dev.mcpfusion.core.spi.CompletionDescriptor;
import dev.mcpfusion.core.spi.ContextLookup;
import dev.mcpfusion.core.spi.FeaturesDescriptor;
import dev.mcpfusion.core.spi.GeneratedFeatures;
import dev.mcpfusion.core.spi.IconDescriptor;
import dev.mcpfusion.core.spi.Problem;
import dev.mcpfusion.core.spi.Problems;
import dev.mcpfusion.core.spi.PromptArgument;
import dev.mcpfusion.core.spi.PromptDescriptor;
import dev.mcpfusion.core.spi.ResourceDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * The {@code @Prompt} / {@code @Resource} / {@code @Complete} step: what it generates (run here)
 * and every diagnostic it reports, with its code, anchor and fix.
 */
class FeatureStepTest {

  private static Compilation compile(JavaFileObject... extra) {
    List<JavaFileObject> all = new ArrayList<>(List.of(Fixtures.billing()));
    all.addAll(List.of(extra));
    return Fixtures.compile(all.toArray(new JavaFileObject[0]));
  }

  private static JavaFileObject docs(String... body) {
    List<String> lines = new ArrayList<>(List.of("package billing;",
        "import dev.mcpfusion.annotation.*;",
        "import dev.mcpfusion.core.PromptResult;",
        "import java.util.List;",
        "import java.util.Optional;",
        "public class Docs {"));
    lines.addAll(List.of(body));
    lines.add("}");
    return source("billing.Docs", lines.toArray(new String[0]));
  }

  // ---------------------------------------------------------------- generated code

  @Test
  void generatedFeaturesDescribeDecodeAndCall() throws Exception {
    Compilation c = compile(Fixtures.DOCS);
    assertThat(c).succeededWithoutWarnings();
    ClassLoader loader = Fixtures.loader(c);
    Class<?> docs = loader.loadClass("billing.Docs");
    GeneratedFeatures f = (GeneratedFeatures) loader.loadClass("billing.Docs_Features")
        .getMethod("bind", docs).invoke(null, docs.getConstructor().newInstance());
    FeaturesDescriptor d = f.descriptor();
    assertThat(d.router()).isEmpty();
    assertThat(d.middleware()).extracting(Class::getName).containsExactly("billing.TenantGuard");
    assertThat(d.prompts()).extracting(PromptDescriptor::name, PromptDescriptor::title,
            PromptDescriptor::description)
        .containsExactly(tuple("summary", "", "Summarise invoices"),
            tuple("hello-world", "Hello", "Says hello."));
    assertThat(d.prompts().get(0).arguments()).containsExactly(
        new PromptArgument("audience", "Who reads it", true, List.of()),
        new PromptArgument("note", "", false, List.of()),
        new PromptArgument("tone", "How it sounds", false, List.of("FRIENDLY", "FIRM")));
    assertThat(d.prompts().get(0).presenter().viewType().getName()).isEqualTo("billing.InvoiceView");
    assertThat(d.resources()).extracting(ResourceDescriptor::uri, ResourceDescriptor::name,
            ResourceDescriptor::mimeType, ResourceDescriptor::variables, ResourceDescriptor::binary)
        .containsExactly(
            tuple("docs://pages/{page}/v/{version}", "page", "text/plain", List.of("page", "version"),
                false),
            tuple("docs://logo", "logo", "image/png", List.of(), true),
            tuple("docs://invoices", "invoices", "application/json", List.of(), false));
    assertThat(d.completions()).extracting(CompletionDescriptor::prompt,
            CompletionDescriptor::resource, CompletionDescriptor::argument)
        .containsExactly(tuple("summary", "", "audience"),
            tuple("", "docs://pages/{page}/v/{version}", "version"));

    Object tenant = loader.loadClass("billing.Tenant").getConstructor(String.class)
        .newInstance("t_1");
    ContextLookup ctx = new ContextLookup() {
      @Override
      public <T> T get(Class<T> type) {
        return type.isInstance(tenant) ? type.cast(tenant) : null;
      }
    };
    Problems ok = new Problems();
    Object[] args = f.decodePrompt(0, Map.of("audience", "ops", "tone", "FIRM"), ok);
    assertThat(ok.isEmpty()).isTrue();
    assertThat(args[1]).isEqualTo(Optional.empty());
    PromptResult r = (PromptResult) f.prompt(0, args, ctx);
    assertThat(r.messages().get(0).content().get("text")).isEqualTo("opsFIRMt_1");
    assertThat(f.prompt(1, new Object[0], ctx)).isEqualTo("hi");
    assertThat(f.resource(0, Map.of("page", "intro", "version", "2"), ctx)).isEqualTo("intro@2/t_1");
    assertThat((byte[]) f.resource(1, Map.of(), ctx)).containsExactly(1, 2);
    assertThat(f.complete(0, "fi", ctx)).containsExactly("fi1", "fi2");
    assertThat(f.complete(1, "v", ctx)).containsExactly("t_1v");

    Problems bad = new Problems();
    f.decodePrompt(0, Map.of("audience", "OPS", "tone", "LOUD", "extra", "x"), bad);
    assertThat(bad.list()).extracting(Problem::path).containsExactly("tone", "extra", "audience");
    Problems missing = new Problems();
    f.decodePrompt(0, Map.of(), missing);
    assertThat(missing.list()).extracting(Problem::path, Problem::message)
        .containsExactly(tuple("audience", "is required"));
  }

  @Test
  void aRouterWithOnlyPromptsAndResourcesIsNotEmpty() {
    Compilation c = compile(source("billing.Help",
        "package billing;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(value = \"help\", description = \"Help\")",
        "public class Help {",
        "  @Prompt(description = \"Ask for help\") public String ask() { return \"help\"; }",
        "}"));
    assertThat(c).succeededWithoutWarnings();
    assertThat(Fixtures.generatedSource(c, "billing.Help_Features"))
        .contains("new FeaturesDescriptor(\"help\", Help.class");
  }

  // ---------------------------------------------------------------- diagnostics

  @Test
  void twoRolesOnOneMethodIsAnError() {
    JavaFileObject src = docs(
        "  @Prompt(description = \"a\") @Query(description = \"b\") public String both() { return \"\"; }");
    Compilation c = compile(src);
    assertThat(c).hadErrorContaining("[fusion/MultipleRoles] Docs.both is annotated with more than"
        + " one of @Prompt, @Resource, @Complete, @Query, @Mutation and @Action. Give each method"
        + " one role").inFile(src).onLineContaining("both()");
  }

  @Test
  void aPrivateFeatureMethodIsAnError() {
    JavaFileObject src = docs(
        "  @Prompt(description = \"a\") private String secret() { return \"\"; }");
    Compilation c = compile(src);
    assertThat(c).hadErrorContaining("[fusion/InaccessibleFeature] Docs.secret is private or"
        + " generic, so the generated Docs_Features cannot call it. Make it a non-private,"
        + " non-generic method.").inFile(src).onLineContaining("secret()");
  }

  @Test
  void anInvalidPromptNameIsAnError() {
    JavaFileObject src = docs(
        "  @Prompt(name = \"two words\", description = \"a\") public String p() { return \"\"; }");
    Compilation c = compile(src);
    assertThat(c).hadErrorContaining("[fusion/InvalidPromptName] Docs.p is the prompt 'two words',"
        + " but prompt names must match [a-zA-Z0-9_-]{1,64}").inFile(src).onLineContaining("two words");
  }

  @Test
  void iconsReachTheDescriptorsInTheOrderWrittenWithOnlyTheKeysSet() throws Exception {
    JavaFileObject src = docs(
        "  @Prompt(description = \"a\")",
        "  @Icon(src = \"https://example.com/p-48.png\", mimeType = \"image/png\","
            + " sizes = {\"48x48\", \"96x96\"}, theme = Icon.Theme.DARK)",
        "  @Icon(src = \"data:image/svg+xml;base64,PHN2Zy8+\")",
        "  public String p() { return \"\"; }",
        "  @Resource(uri = \"docs://r\", description = \"b\")",
        "  @Icon(src = \"https://example.com/r.svg\", sizes = \"any\", theme = Icon.Theme.LIGHT)",
        "  public String r() { return \"\"; }",
        "  @Prompt(description = \"c\") public String plain() { return \"\"; }");
    Compilation c = compile(src);
    assertThat(c).succeededWithoutWarnings();
    ClassLoader loader = Fixtures.loader(c);
    Class<?> docs = loader.loadClass("billing.Docs");
    GeneratedFeatures f = (GeneratedFeatures) loader.loadClass("billing.Docs_Features")
        .getMethod("bind", docs).invoke(null, docs.getConstructor().newInstance());
    FeaturesDescriptor d = f.descriptor();
    assertThat(d.prompts().get(0).icons()).containsExactly(
        new IconDescriptor("https://example.com/p-48.png", "image/png", List.of("48x48", "96x96"),
            "dark"),
        new IconDescriptor("data:image/svg+xml;base64,PHN2Zy8+", "", List.of(), ""));
    assertThat(d.resources().get(0).icons()).containsExactly(
        new IconDescriptor("https://example.com/r.svg", "", List.of("any"), "light"));
    assertThat(d.prompts().get(1).icons()).isEmpty();
  }

  @Test
  void anIconAHostCannotSafelyFetchIsAnError() {
    JavaFileObject src = docs(
        "  @Prompt(description = \"a\") @Icon(src = \"http://example.com/i.png\")",
        "  public String plainHttp() { return \"\"; }",
        "  @Prompt(description = \"a\") @Icon(src = \"icons/i.png\")",
        "  public String relative() { return \"\"; }",
        "  @Prompt(description = \"a\") @Icon(src = \"data:text/html,<b>hi</b>\")",
        "  public String notAnImage() { return \"\"; }");
    Compilation c = compile(src);
    assertThat(c).hadErrorContaining("[fusion/InvalidIcon] Docs.plainHttp has @Icon(src ="
        + " \"http://example.com/i.png\"), but the host fetches it over http:, and only https: (or"
        + " an inline data: image) is safe to fetch. Use an absolute https: URL"
        + " (https://example.com/icon-48.png) or a data:image/... URI under 32 KiB.")
        .inFile(src).onLineContaining("http://example.com/i.png");
    assertThat(c).hadErrorContaining("[fusion/InvalidIcon] Docs.relative has @Icon(src ="
        + " \"icons/i.png\"), but it is relative").inFile(src).onLineContaining("icons/i.png");
    assertThat(c).hadErrorContaining("[fusion/InvalidIcon] Docs.notAnImage has @Icon(src ="
        + " \"data:text/html,<b>hi</b>\"), but a data: icon must hold an image")
        .inFile(src).onLineContaining("data:text/html");
    assertThat(c.errors()).hasSize(3);
  }

  @Test
  void anIconsMimeTypeSizesAndLengthAreChecked() {
    String big = "data:image/png;base64," + "A".repeat(Icons.MAX_DATA_URI);
    JavaFileObject src = docs(
        "  @Resource(uri = \"docs://a\", description = \"a\")",
        "  @Icon(src = \"https://example.com/a\", mimeType = \"text/plain\")",
        "  public String a() { return \"\"; }",
        "  @Resource(uri = \"docs://b\", description = \"b\")",
        "  @Icon(src = \"https://example.com/b\", sizes = {\"48x48\", \"huge\"})",
        "  public String b() { return \"\"; }",
        "  @Prompt(description = \"c\")",
        "  @Icon(src = \"" + big + "\")",
        "  public String c() { return \"\"; }");
    Compilation c = compile(src);
    assertThat(c).hadErrorContaining("[fusion/InvalidIcon] Docs.a has @Icon(mimeType ="
        + " \"text/plain\"), but an icon's MIME type is an image type. Use mimeType ="
        + " \"image/png\"").inFile(src).onLineContaining("text/plain");
    assertThat(c).hadErrorContaining("[fusion/InvalidIcon] Docs.b has @Icon(sizes = \"huge\"),"
        + " but a size is WIDTHxHEIGHT in pixels or \"any\".").inFile(src)
        .onLineContaining("huge");
    // The source is cut to 57 characters and "..." in the message, so a 32 KiB value is not echoed.
    assertThat(c).hadErrorContaining("[fusion/InvalidIcon] Docs.c has @Icon(src = \""
        + big.substring(0, 57) + "...\"), but the data URI is "
        + big.length() + " characters, over the 32768 an icon may inline")
        .inFile(src).onLineContaining("data:image/png");
    assertThat(c.errors()).hasSize(3);
  }

  @Test
  void duplicatePromptNamesAreAnError() {
    JavaFileObject src = docs(
        "  @Prompt(description = \"a\") public String greet() { return \"\"; }",
        "  @Prompt(name = \"greet\", description = \"b\") public String hello() { return \"\"; }");
    Compilation c = compile(src);
    assertThat(c).hadErrorContaining("[fusion/DuplicatePrompt] Docs.hello is the prompt 'greet',"
        + " but Docs.greet already is. Rename one with @Prompt(name = \"...\").")
        .inFile(src).onLineContaining("hello()");
  }

  @Test
  void aPromptWithoutDescriptionIsAnError() {
    JavaFileObject src = docs("  @Prompt public String bare() { return \"\"; }");
    Compilation c = compile(src);
    assertThat(c).hadErrorContaining("[fusion/MissingDescription] Docs.bare has no description,"
        + " so the client cannot tell its user what it is. Add @Prompt(description = \"...\") or a"
        + " Javadoc sentence.").inFile(src).onLineContaining("bare()");
  }

  @Test
  void aPromptReturningAModelIsAnError() {
    JavaFileObject src = docs(
        "  @Prompt(description = \"a\") public Invoice p() { return null; }",
        "  @Prompt(description = \"b\", presenter = InvoiceView.class) public String q() { return \"\"; }");
    Compilation c = compile(src);
    assertThat(c).hadErrorContaining("[fusion/PromptResultType] Docs.p returns Invoice, but a prompt"
        + " returns a PromptResult or a String (one user message). Return PromptResult.user(\"...\").")
        .inFile(src).onLineContaining("Invoice p()");
    assertThat(c).hadErrorContaining("[fusion/PromptResultType] Docs.q returns String, but a prompt"
        + " returns a PromptResult (its data(...) is what presenter InvoiceView presents).")
        .inFile(src).onLineContaining("String q()");
  }

  @Test
  void aNonTextPromptArgumentIsAnError() {
    JavaFileObject src = docs(
        "  @Prompt(description = \"a\") public String p(int days) { return \"\"; }");
    Compilation c = compile(src);
    assertThat(c).hadErrorContaining("[fusion/PromptArgumentType] Docs.p argument 'days' has type"
        + " int, but prompt arguments are strings on the wire. Use String, Optional<String> or an"
        + " enum (sent by constant name), or mark it @Context.").inFile(src).onLineContaining("int days");
  }

  @Test
  void aGuardedPromptArgumentIsAnError() {
    JavaFileObject src = docs(
        "  @Prompt(description = \"a\") public String p(@Guarded String tenantId) { return \"\"; }");
    Compilation c = compile(src);
    assertThat(c).hadErrorContaining("[fusion/GuardedInput] Docs.p takes 'tenantId' from the client,"
        + " but it is @Guarded.").inFile(src).onLineContaining("tenantId");
  }

  @Test
  void aPresenterThatIsNoViewIsAnError() {
    JavaFileObject src = docs(
        "  @Resource(uri = \"docs://x\", description = \"a\", presenter = Invoice.class)",
        "  public Invoice x() { return null; }");
    Compilation c = compile(src);
    assertThat(c).hadErrorContaining("[fusion/NotAPresenter] Docs.x names presenter billing.Invoice,"
        + " which is not a @Presenter view. Name a @Presenter view record.").inFile(src)
        .onLineContaining("presenter = Invoice");
  }

  @Test
  void anInvalidResourceUriIsAnError() {
    JavaFileObject src = docs(
        "  @Resource(uri = \"no scheme/{id}\", description = \"a\") public String a(String id) { return \"\"; }",
        "  @Resource(uri = \"docs://{+path}\", description = \"b\") public String b() { return \"\"; }",
        "  @Resource(uri = \"docs://{a}{b}\", description = \"c\") public String c(String a, String b) { return \"\"; }",
        "  @Resource(uri = \"docs://x}\", description = \"d\") public String d() { return \"\"; }");
    Compilation c = compile(src);
    assertThat(c).hadErrorContaining("[fusion/InvalidResourceUri] Docs.a declares the URI"
        + " 'no scheme/{id}', which is not an absolute URI").inFile(src).onLineContaining("no scheme");
    assertThat(c).hadErrorContaining("which has the variable {+path}, which is not a plain name")
        .inFile(src).onLineContaining("+path");
    assertThat(c).hadErrorContaining("puts two variables next to each other")
        .inFile(src).onLineContaining("{a}{b}");
    assertThat(c).hadErrorContaining("has an unbalanced { or }.").inFile(src)
        .onLineContaining("docs://x}");
  }

  @Test
  void aTemplateAndItsParametersMustMatch() {
    JavaFileObject src = docs(
        "  @Resource(uri = \"docs://pages/{page}\", description = \"a\")",
        "  public String a(String pages) { return \"\"; }",
        "  @Resource(uri = \"docs://books/{id}\", description = \"b\")",
        "  public String b(long id) { return \"\"; }");
    Compilation c = compile(src);
    assertThat(c).hadErrorContaining("[fusion/ResourceTemplateMismatch] Docs.a parameter 'pages' is"
        + " not a variable of 'docs://pages/{page}' (its variables: page). Add {pages} to the URI,"
        + " or mark the parameter @Context.").inFile(src).onLineContaining("String pages");
    assertThat(c).hadErrorContaining("[fusion/ResourceTemplateMismatch] Docs.a declares the variable"
        + " {page} in 'docs://pages/{page}', but has no String parameter named 'page'.")
        .inFile(src).onLineContaining("docs://pages/{page}");
    assertThat(c).hadErrorContaining("[fusion/ResourceTemplateMismatch] Docs.b parameter 'id' has"
        + " type long, but a URI variable is text. Declare it as String").inFile(src)
        .onLineContaining("long id");
  }

  @Test
  void aResourceResultMustFitItsPresenter() {
    JavaFileObject src = docs(
        "  @Resource(uri = \"docs://a\", description = \"a\") public Invoice a() { return null; }",
        "  @Resource(uri = \"docs://b\", description = \"b\", presenter = InvoiceView.class)",
        "  public String b() { return \"\"; }");
    Compilation c = compile(src);
    assertThat(c).hadErrorContaining("[fusion/ResourceResultType] Docs.a returns Invoice, but a"
        + " resource without a presenter returns a String (text) or a byte[] (binary).")
        .inFile(src).onLineContaining("Invoice a()");
    assertThat(c).hadErrorContaining("[fusion/ResourceResultType] Docs.b returns String, which"
        + " presenter InvoiceView cannot present.").inFile(src).onLineContaining("String b()");
  }

  @Test
  void duplicateResourceUrisAreAnError() {
    JavaFileObject src = docs(
        "  @Resource(uri = \"docs://a\", description = \"a\") public String a() { return \"\"; }",
        "  @Resource(uri = \"docs://a\", description = \"b\") public String b() { return \"\"; }");
    Compilation c = compile(src);
    assertThat(c).hadErrorContaining("[fusion/DuplicateResource] Docs.b serves 'docs://a', which"
        + " Docs.a already serves. Give each resource its own URI.").inFile(src)
        .onLineContaining("String b()");
  }

  @Test
  void aCompletionMustNameExactlyOneTargetAndTakeText() {
    JavaFileObject src = docs(
        "  @Prompt(description = \"a\") public String p(String who) { return \"\"; }",
        "  @Complete(argument = \"who\") public List<String> none(String s) { return List.of(); }",
        "  @Complete(prompt = \"p\", argument = \"who\") public List<Integer> ints(String s) { return List.of(); }");
    Compilation c = compile(src);
    assertThat(c).hadErrorContaining("[fusion/InvalidCompletion] Docs.none sets neither prompt nor"
        + " resource. Set exactly one").inFile(src).onLineContaining("none(");
    assertThat(c).hadErrorContaining("[fusion/InvalidCompletion] Docs.ints must take the text typed"
        + " so far as one String parameter (plus @Context parameters) and return List<String>.")
        .inFile(src).onLineContaining("ints(");
  }

  @Test
  void aCompletionOfAnUnknownTargetOrArgumentIsAnError() {
    JavaFileObject src = docs(
        "  @Prompt(description = \"a\") public String summary(String audience) { return \"\"; }",
        "  @Resource(uri = \"docs://pages/{page}\", description = \"b\") public String page(String page) { return \"\"; }",
        "  @Complete(prompt = \"sumary\", argument = \"audience\") public List<String> a(String s) { return List.of(); }",
        "  @Complete(prompt = \"summary\", argument = \"audiance\") public List<String> b(String s) { return List.of(); }",
        "  @Complete(resource = \"docs://pages/{id}\", argument = \"id\") public List<String> c(String s) { return List.of(); }");
    Compilation c = compile(src);
    assertThat(c).hadErrorContaining("[fusion/UnknownCompletionTarget] Docs.a completes the prompt"
        + " 'sumary', which Docs does not declare. Did you mean 'summary'? Its prompts: summary.")
        .inFile(src).onLineContaining("\"sumary\"");
    assertThat(c).hadErrorContaining("[fusion/UnknownCompletionTarget] Docs.b completes 'audiance',"
        + " which is not an argument of the prompt 'summary'. Did you mean 'audience'? Its"
        + " arguments: audience.").inFile(src).onLineContaining("\"audiance\"");
    assertThat(c).hadErrorContaining("completes the resource template 'docs://pages/{id}', which"
        + " Docs does not declare.").inFile(src).onLineContaining("docs://pages/{id}");
  }

  @Test
  void twoCompletionsOfOneArgumentAreAnError() {
    JavaFileObject src = docs(
        "  @Prompt(description = \"a\") public String p(String who) { return \"\"; }",
        "  @Complete(prompt = \"p\", argument = \"who\") public List<String> a(String s) { return List.of(); }",
        "  @Complete(prompt = \"p\", argument = \"who\") public List<String> b(String s) { return List.of(); }");
    Compilation c = compile(src);
    assertThat(c).hadErrorContaining("[fusion/DuplicateCompletion] Docs.b completes 'who' of prompt"
        + " 'p', which another @Complete method of Docs already completes. Keep one.")
        .inFile(src).onLineContaining("List<String> b(");
  }
}
