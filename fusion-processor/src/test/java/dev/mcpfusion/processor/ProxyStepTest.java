package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static dev.mcpfusion.processor.Fixtures.source;

import com.google.testing.compile.Compilation;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * {@code @Proxy}: every way a declarative REST action can be wrong is a compile error on the
 * element at fault, and a valid one generates {@code X_Proxy}, pinned by a golden file.
 *
 * <p>fusion-outbound's tests compile their {@code @Proxy} router with this processor, so this
 * module cannot depend on it: these compilations see a source with {@code ProxyUpstreams}'
 * signatures, and fusion-outbound's {@code ProxyActionsTest} compiles and runs the generated
 * class against the real one.
 */
class ProxyStepTest {
  private static final String VIEW = String.join("\n",
      "package px;",
      "import dev.mcpfusion.annotation.*;",
      "@Presenter(model = Invoice.class, ignore = \"note\")",
      "public record InvoiceView(String id, long totalCents) {}");
  private static final String MODEL = "package px; public record Invoice(String id, long totalCents, String note) {}";

  /** The signatures of fusion-outbound's ProxyUpstreams that X_Proxy calls. */
  private static final JavaFileObject UPSTREAMS = source("dev.mcpfusion.outbound.ProxyUpstreams",
      "package dev.mcpfusion.outbound;",
      "import java.util.List;",
      "import java.util.Map;",
      "public final class ProxyUpstreams {",
      "  public static Map<String, Object> args(Object... namesAndValues) { throw new UnsupportedOperationException(); }",
      "  public void require(String upstream, String action) {}",
      "  public ProxyUpstreams within(String router, DeclaredUpstream... declared) { return this; }",
      "  public Map<String, Object> object(String u, String m, String p, Map<String, Object> a, Map<String, Object> r) {",
      "    throw new UnsupportedOperationException(); }",
      "  public List<Map<String, Object>> array(String u, String m, String p, Map<String, Object> a, Map<String, Object> r) {",
      "    throw new UnsupportedOperationException(); }",
      "}");

  private static final JavaFileObject POLICY = source("dev.mcpfusion.outbound.DeclaredUpstream",
      "package dev.mcpfusion.outbound;",
      "import java.util.List;",
      "public record DeclaredUpstream(String name, List<String> hosts, List<String> schemes, long maxResponseBytes,",
      "    long connectTimeoutMs, long timeoutMs) {}");

  static Compilation compile(JavaFileObject router, JavaFileObject... more) {
    return compile(router, true, more);
  }

  private static Compilation compile(JavaFileObject router, boolean outbound, JavaFileObject... more) {
    List<JavaFileObject> sources = new ArrayList<>(List.of(source("px.Invoice", MODEL), source("px.InvoiceView", VIEW), router));
    sources.addAll(List.of(more));
    if (outbound) {
      sources.add(UPSTREAMS);
      sources.add(POLICY);
    }
    return javac().withProcessors(new FusionProcessor()).withClasspath(Fixtures.classpath()).compile(sources);
  }

  /** {@code px.InvoiceApi}, declaring the upstream {@code billing-api} its actions call. */
  private static JavaFileObject router(String... members) {
    return annotatedRouter(List.of("@ProxyUpstream(name = \"billing-api\", hosts = \"billing.example.com\")"), members);
  }

  /** {@code px.InvoiceApi} with {@code annotations} on the class (lines before {@code @Router}). */
  static JavaFileObject annotatedRouter(List<String> annotations, String... members) {
    List<String> lines = new ArrayList<>(List.of("package px;",
        "import dev.mcpfusion.annotation.*;",
        "import java.util.List;",
        "import java.util.Map;"));
    lines.addAll(annotations);
    lines.addAll(List.of("@Router(\"invoices\")",
        "public abstract class InvoiceApi {"));
    lines.addAll(List.of(members));
    lines.add("}");
    return source("px.InvoiceApi", lines.toArray(String[]::new));
  }

  @Test
  void aValidProxyRouterGeneratesItsSubclass() {
    Compilation c = compile(router(
        "  @Query(description = \"Get one invoice\", presenter = InvoiceView.class)",
        "  @Proxy(upstream = \"billing-api\", path = \"/invoices/{id}\")",
        "  public abstract Map<String, Object> getInvoice(String id, String expand);",
        "  @Query(description = \"List invoices\", presenter = InvoiceView.class)",
        "  @Proxy(upstream = \"billing-api\", path = \"/customers/{customer}/invoices\")",
        "  public abstract List<Map<String, Object>> listInvoices(String customer, Integer limit);",
        "  @Mutation(description = \"Void an invoice\", presenter = InvoiceView.class)",
        "  @Proxy(upstream = \"billing-api\", method = \"POST\", path = \"/invoices/{id}/void\")",
        "  public abstract Map<String, Object> voidInvoice(String id, String reason);"));
    assertThat(c).succeeded();
    Golden.assertMatches("proxy", c, "px.InvoiceApi_Proxy");
  }

  @Test
  void aProxyWithoutAVerbIsAnError() {
    JavaFileObject src = router(
        "  @Query(description = \"Ping\") public String ping() { return \"pong\"; }",
        "  @Proxy(upstream = \"billing-api\", path = \"/invoices\")",
        "  public abstract Map<String, Object> listAll();");
    assertThat(compile(src)).hadErrorContaining("[fusion/ProxyWithoutVerb] InvoiceApi.listAll is annotated @Proxy"
        + " but not @Query, @Mutation or @Action").inFile(src).onLineContaining("path = \"/invoices\")");
  }

  @Test
  void aProxyWithABodyIsAnError() {
    JavaFileObject src = router(
        "  @Query(description = \"Get one invoice\", presenter = InvoiceView.class)",
        "  @Proxy(upstream = \"billing-api\", path = \"/invoices/{id}\")",
        "  public Map<String, Object> getInvoice(String id) { return Map.of(); }");
    assertThat(compile(src)).hadErrorContaining("[fusion/ProxyNotAbstract] InvoiceApi.getInvoice is a @Proxy action"
        + " but has a body").inFile(src).onLineContaining("@Proxy(");
  }

  @Test
  void aPathVariableThatIsNoParameterIsAnErrorWithTheNearName() {
    JavaFileObject src = router(
        "  @Query(description = \"Get one invoice\", presenter = InvoiceView.class)",
        "  @Proxy(upstream = \"billing-api\", path = \"/invoices/{invoiceId}\")",
        "  public abstract Map<String, Object> getInvoice(String invoiceld);");
    assertThat(compile(src)).hadErrorContaining("[fusion/ProxyPathVariable] InvoiceApi.getInvoice has the path"
        + " '/invoices/{invoiceId}', whose {invoiceId} is no input parameter of the method. Did you mean 'invoiceld'?")
        .inFile(src).onLineContaining("/invoices/{invoiceId}");
  }

  @Test
  void aBadPathAMethodAndAnUpstreamNameAreErrorsOnTheirAttribute() {
    JavaFileObject src = router(
        "  @Query(description = \"One\", presenter = InvoiceView.class)",
        "  @Proxy(upstream = \"billing-api\", path = \"invoices/{id}?x=1\")",
        "  public abstract Map<String, Object> one(String id);",
        "  @Query(description = \"Two\", presenter = InvoiceView.class)",
        "  @Proxy(upstream = \"billing-api\", method = \"get\", path = \"/two\")",
        "  public abstract Map<String, Object> two();",
        "  @Query(description = \"Three\", presenter = InvoiceView.class)",
        "  @Proxy(upstream = \"Billing API\", path = \"/three\")",
        "  public abstract Map<String, Object> three();",
        "  @Query(description = \"Four\", presenter = InvoiceView.class)",
        "  @Proxy(upstream = \"billing-api\", path = \"/four/x{id}\")",
        "  public abstract Map<String, Object> four(String id);");
    Compilation c = compile(src);
    assertThat(c).hadErrorContaining("[fusion/InvalidProxy] InvoiceApi.one has the path 'invoices/{id}?x=1',"
        + " but it does not start with /").inFile(src).onLineContaining("invoices/{id}?x=1");
    assertThat(c).hadErrorContaining("[fusion/InvalidProxy] InvoiceApi.two uses the HTTP method 'get'.")
        .inFile(src).onLineContaining("\"get\"");
    assertThat(c).hadErrorContaining("[fusion/InvalidProxy] InvoiceApi.three names the upstream 'Billing API'")
        .inFile(src).onLineContaining("Billing API");
    assertThat(c).hadErrorContaining("[fusion/InvalidProxy] InvoiceApi.four has the path '/four/x{id}', but {id}"
        + " is not a whole segment").inFile(src).onLineContaining("/four/x{id}");
  }

  @Test
  void aParameterThatIsNoScalarInputIsAnError() {
    JavaFileObject src = router(
        "  @Query(description = \"Find\", presenter = InvoiceView.class)",
        "  @Proxy(upstream = \"billing-api\", path = \"/invoices\")",
        "  public abstract List<Map<String, Object>> find(List<String> ids);");
    assertThat(compile(src)).hadErrorContaining("[fusion/ProxyParameter] InvoiceApi.find has the parameter 'ids'"
        + " of type List<String>").inFile(src).onLineContaining("List<String> ids");
  }

  @Test
  void aResultThatIsNotJsonThroughAViewIsAnError() {
    JavaFileObject src = router(
        "  @Query(description = \"Get\", presenter = InvoiceView.class)",
        "  @Proxy(upstream = \"billing-api\", path = \"/invoices/{id}\")",
        "  public abstract Invoice get(String id);");
    assertThat(compile(src)).hadErrorContaining("[fusion/ProxyResult] InvoiceApi.get returns Invoice, but a @Proxy"
        + " action answers the upstream's JSON through a view.").inFile(src).onLineContaining("Invoice get(");
  }

  @Test
  void aRouterTheProcessorCannotSubclassIsAnError() {
    JavaFileObject src = source("px.InvoiceApi", "package px;",
        "import dev.mcpfusion.annotation.*;",
        "import java.util.Map;",
        "@Router(\"invoices\")",
        "public abstract class InvoiceApi {",
        "  protected InvoiceApi(String token) {}",
        "  @Query(description = \"Get\", presenter = InvoiceView.class)",
        "  @Proxy(upstream = \"billing-api\", path = \"/invoices/{id}\")",
        "  public abstract Map<String, Object> get(String id);",
        "}");
    assertThat(compile(src)).hadErrorContaining("[fusion/ProxyRouter] InvoiceApi has @Proxy actions, which the"
        + " processor implements in a subclass, but it is without a constructor that takes no arguments.")
        .inFile(src).onLineContaining("abstract class InvoiceApi");
  }

  @Test
  void aProxyWithoutTheOutboundModuleIsAnError() {
    JavaFileObject src = router(
        "  @Query(description = \"Get\", presenter = InvoiceView.class)",
        "  @Proxy(upstream = \"billing-api\", path = \"/invoices/{id}\")",
        "  public abstract Map<String, Object> get(String id);");
    assertThat(compile(src, false)).hadErrorContaining("[fusion/ProxyNeedsOutbound] InvoiceApi.get is a @Proxy"
        + " action, but fusion-outbound").inFile(src).onLineContaining("@Proxy(");
  }
}
