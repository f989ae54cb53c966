package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.mcpfusion.processor.Fixtures.source;
import static dev.mcpfusion.processor.ProxyStepTest.annotatedRouter;
import static dev.mcpfusion.processor.ProxyStepTest.compile;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * {@code @ProxyUpstream}: a declared upstream policy is passed to {@code ProxyUpstreams.within} by
 * the generated {@code X_Proxy} (golden file), a package's declaration applies unless the router
 * declares the name itself, an upstream no declaration covers is a compile error on the action
 * calling it, and every malformed, repeated or unused declaration is a compile error on the
 * attribute at fault.
 */
class ProxyUpstreamStepTest {
  private static final String[] GET = {
      "  @Query(description = \"Get one invoice\", presenter = InvoiceView.class)",
      "  @Proxy(upstream = \"billing-api\", path = \"/invoices/{id}\")",
      "  public abstract Map<String, Object> getInvoice(String id);"};

  @Test
  void aDeclaredPolicyBoundsTheUpstreamsInTheGeneratedConstructor() {
    Compilation c = compile(annotatedRouter(List.of(
        "@ProxyUpstream(name = \"billing-api\", hosts = {\"billing.example.com\", \"*.billing.example.com\"},",
        "    maxResponseBytes = 262144, timeoutMs = 10000)",
        "@ProxyUpstream(name = \"ledger-api\", hosts = \"ledger.example.com\", schemes = {\"https\", \"http\"})"),
        GET[0], GET[1], GET[2],
        "  @Query(description = \"Get one entry\", presenter = InvoiceView.class)",
        "  @Proxy(upstream = \"ledger-api\", path = \"/entries/{id}\")",
        "  public abstract Map<String, Object> getEntry(String id);"));
    assertThat(c).succeeded();
    Golden.assertMatches("proxy-upstream", c, "px.InvoiceApi_Proxy");
  }

  @Test
  void aPackageDeclarationAppliesUnlessTheRouterDeclaresTheName() {
    JavaFileObject pkg = source("px.package-info",
        "@ProxyUpstream(name = \"billing-api\", hosts = \"pkg.example.com\")",
        "package px;",
        "import dev.mcpfusion.annotation.ProxyUpstream;");
    Compilation fromPackage = compile(annotatedRouter(List.of(), GET), pkg);
    assertThat(fromPackage).succeeded();
    assertThat(Fixtures.generatedSource(fromPackage, "px.InvoiceApi_Proxy"))
        .contains("new DeclaredUpstream(\"billing-api\", List.of(\"pkg.example.com\"), List.of(\"https\"),");
    Compilation fromRouter = compile(annotatedRouter(List.of(
        "@ProxyUpstream(name = \"billing-api\", hosts = \"router.example.com\")"), GET), pkg);
    assertThat(fromRouter).succeeded();
    assertThat(Fixtures.generatedSource(fromRouter, "px.InvoiceApi_Proxy"))
        .contains("List.of(\"router.example.com\")").doesNotContain("pkg.example.com");
  }

  @Test
  void aMalformedDeclarationIsAnErrorOnItsAttribute() {
    JavaFileObject src = annotatedRouter(List.of(
        "@ProxyUpstream(name = \"billing-api\", hosts = \"Billing.Example.com\")",
        "@ProxyUpstream(name = \"ledger-api\", hosts = \"ledger.example.com\", schemes = \"ftp\")",
        "@ProxyUpstream(name = \"crm-api\", hosts = \"crm.example.com\", maxResponseBytes = 0)",
        "@ProxyUpstream(name = \"Files\", hosts = \"files.example.com\")"), GET);
    Compilation c = compile(src);
    assertThat(c).hadErrorContaining("[fusion/InvalidProxyUpstream] InvoiceApi declares @ProxyUpstream(name ="
        + " \"billing-api\") with the host 'Billing.Example.com', which is not a lower-case ASCII name")
        .inFile(src).onLineContaining("Billing.Example.com");
    assertThat(c).hadErrorContaining("[fusion/InvalidProxyUpstream] InvoiceApi declares @ProxyUpstream(name ="
        + " \"ledger-api\") with the scheme 'ftp'").inFile(src).onLineContaining("\"ftp\"");
    assertThat(c).hadErrorContaining("[fusion/InvalidProxyUpstream] InvoiceApi declares @ProxyUpstream(name ="
        + " \"crm-api\") with maxResponseBytes = 0, which must be 1 or more").inFile(src)
        .onLineContaining("maxResponseBytes = 0");
    assertThat(c).hadErrorContaining("[fusion/InvalidProxyUpstream] InvoiceApi declares @ProxyUpstream(name ="
        + " \"Files\") with the name 'Files'").inFile(src).onLineContaining("\"Files\"");
  }

  @Test
  void aMalformedPackageDeclarationIsOneErrorOnPackageInfoWhateverTheNumberOfRouters() {
    JavaFileObject pkg = source("px.package-info",
        "@ProxyUpstream(name = \"billing-api\", hosts = \"billing.example.com:8443\")",
        "package px;",
        "import dev.mcpfusion.annotation.ProxyUpstream;");
    JavaFileObject other = source("px.OtherApi", "package px;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"other\")",
        "public class OtherApi {",
        "  @Query(description = \"Ping\") public String ping() { return \"pong\"; }",
        "}");
    Compilation c = compile(annotatedRouter(List.of(), GET), pkg, other);
    assertThat(c).hadErrorContaining("[fusion/InvalidProxyUpstream] px declares @ProxyUpstream(name ="
        + " \"billing-api\") with the host 'billing.example.com:8443'").inFile(pkg).onLineContaining("8443");
    assertThat(c.errors().stream().filter(e -> e.getMessage(null).contains("InvalidProxyUpstream"))).hasSize(1);
  }

  @Test
  void aNameDeclaredTwiceIsAnError() {
    JavaFileObject src = annotatedRouter(List.of(
        "@ProxyUpstream(name = \"billing-api\", hosts = \"a.example.com\")",
        "@ProxyUpstream(name = \"billing-api\", hosts = \"b.example.com\")"), GET);
    assertThat(compile(src)).hadErrorContaining("[fusion/DuplicateProxyUpstream] InvoiceApi declares"
        + " @ProxyUpstream(name = \"billing-api\") more than once.").inFile(src).onLineContaining("b.example.com");
  }

  @Test
  void anUndeclaredUpstreamIsOneErrorOnTheFirstActionCallingItWithTheDeclarationToAdd() {
    JavaFileObject src = annotatedRouter(List.of(), GET[0], GET[1], GET[2],
        "  @Query(description = \"List invoices\", presenter = InvoiceView.class)",
        "  @Proxy(upstream = \"billing-api\", path = \"/invoices\")",
        "  public abstract List<Map<String, Object>> listInvoices();",
        "  @Mutation(description = \"Void an invoice\", presenter = InvoiceView.class)",
        "  @Proxy(upstream = \"billing-api\", method = \"POST\", path = \"/invoices/{id}/void\")",
        "  public abstract Map<String, Object> voidInvoice(String id);",
        "  @Query(description = \"Get one entry\", presenter = InvoiceView.class)",
        "  @Proxy(upstream = \"ledger-api\", path = \"/entries/{id}\")",
        "  public abstract Map<String, Object> getEntry(String id);");
    Compilation c = compile(src);
    assertThat(c).hadErrorContaining("[fusion/UndeclaredProxyUpstream] InvoiceApi.getInvoice calls the upstream"
        + " \"billing-api\" (as do listInvoices and voidInvoice), but neither InvoiceApi nor its package declares where"
        + " that upstream may call, so the lockfile would record no policy and only the server's configuration would"
        + " bound it. Declare it on InvoiceApi, or in package-info.java for routers that share it, with the hosts its"
        + " base URL may be on: @ProxyUpstream(name = \"billing-api\", hosts = \"api.example.com\").")
        .inFile(src).onLineContaining("path = \"/invoices/{id}\")");
    assertThat(c).hadErrorContaining("[fusion/UndeclaredProxyUpstream] InvoiceApi.getEntry calls the upstream"
        + " \"ledger-api\", but neither").inFile(src).onLineContaining("\"ledger-api\"");
    assertThat(c.errors().stream().filter(e -> e.getMessage(null).contains("UndeclaredProxyUpstream"))).hasSize(2);
  }

  @Test
  void aDeclarationNoActionCallsIsAnErrorWithTheNearName() {
    JavaFileObject src = annotatedRouter(List.of(
        "@ProxyUpstream(name = \"biling-api\", hosts = \"billing.example.com\")"), GET);
    assertThat(compile(src)).hadErrorContaining("[fusion/UnusedProxyUpstream] InvoiceApi declares"
        + " @ProxyUpstream(name = \"biling-api\"), but none of its @Proxy actions calls that upstream. Did you mean"
        + " 'billing-api'?").inFile(src).onLineContaining("biling-api");
  }
}
