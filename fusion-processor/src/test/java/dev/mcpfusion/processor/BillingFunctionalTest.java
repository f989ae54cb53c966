package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.google.testing.compile.Compilation;
import dev.mcpfusion.annotation.CachePolicy;
import dev.mcpfusion.core.Suggestion;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.ContextLookup;
import dev.mcpfusion.core.spi.ElementKind;
import dev.mcpfusion.core.spi.FieldDescriptor;
import dev.mcpfusion.core.spi.GeneratedRouter;
import dev.mcpfusion.core.spi.PresenterBinding;
import dev.mcpfusion.core.spi.Problem;
import dev.mcpfusion.core.spi.Problems;
import dev.mcpfusion.core.spi.ResultShape;
import dev.mcpfusion.core.spi.Verb;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Compiles the billing example of the README in memory and runs what the processor generated. */
class BillingFunctionalTest {
  static Compilation compilation;
  static ClassLoader loader;
  static GeneratedRouter router;
  static Object tenant;

  @BeforeAll
  static void compile() throws Exception {
    compilation = Fixtures.compile(Fixtures.billing());
    assertThat(compilation).succeededWithoutWarnings();
    loader = Fixtures.loader(compilation);
    Class<?> tools = loader.loadClass("billing.BillingTools");
    Class<?> fusion = loader.loadClass("billing.BillingTools_Fusion");
    router = (GeneratedRouter) fusion.getMethod("bind", tools)
        .invoke(null, tools.getConstructor().newInstance());
    tenant = loader.loadClass("billing.Tenant").getConstructor(String.class).newInstance("t_777");
  }

  static ContextLookup context() {
    return new ContextLookup() {
      @Override
      public <T> T get(Class<T> type) {
        return type.isInstance(tenant) ? type.cast(tenant) : null;
      }
    };
  }

  @SuppressWarnings("unchecked")
  static PresenterBinding<Object, Object> presenter() {
    return (PresenterBinding<Object, Object>) router.descriptor().actions().get(0).presenter();
  }

  static Problems decode(int action, Map<String, ?> args) {
    Problems p = new Problems();
    router.decode(action, args, p);
    return p;
  }

  @Test
  void descriptorCarriesEveryResolvedActionFact() throws Exception {
    var d = router.descriptor();
    assertThat(router.spiVersion()).isEqualTo(dev.mcpfusion.core.spi.FusionSpi.VERSION);
    assertThat(d.name()).isEqualTo("billing");
    assertThat(d.description()).isEqualTo("Invoices: list, inspect and void them");
    assertThat(d.routerType().getName()).isEqualTo("billing.BillingTools");
    assertThat(d.commonFields()).isEmpty();
    assertThat(d.middleware()).extracting(Class::getName).containsExactly("billing.TenantGuard");
    assertThat(d.actions()).extracting(ActionDescriptor::name, ActionDescriptor::methodName,
            ActionDescriptor::verb, ActionDescriptor::readOnlyHint, ActionDescriptor::destructiveHint,
            ActionDescriptor::idempotentHint, ActionDescriptor::openWorldHint)
        .containsExactly(
            tuple("list_invoices", "listInvoices", Verb.QUERY, true, false, false, false),
            tuple("get_invoice", "getInvoice", Verb.QUERY, true, false, false, false),
            tuple("void_invoice", "voidInvoice", Verb.MUTATION, false, true, false, false));

    ActionDescriptor list = d.actions().get(0);
    assertThat(list.description()).isEqualTo("List invoices, newest first");
    assertThat(list.cachePolicy()).isEqualTo(CachePolicy.NO_STORE);
    assertThat(list.resultShape()).isEqualTo(ResultShape.COLLECTION);
    assertThat(list.elementKind()).isEqualTo(ElementKind.MODEL);
    assertThat(list.resultSchemaJson()).isNull();
    assertThat(list.fields()).containsExactly(new FieldDescriptor("status",
        "{\"type\":\"string\",\"enum\":[\"DRAFT\",\"OPEN\",\"PAID\",\"VOID\"],"
            + "\"description\":\"Only invoices in this status\"}",
        false, "Only invoices in this status", false));
    assertThat(list.contextParameters()).singleElement()
        .satisfies(c -> {
          assertThat(c.name()).isEqualTo("tenant");
          assertThat(c.type().getName()).isEqualTo("billing.Tenant");
        });
    assertThat(list.parameterTypes()).extracting(Class::getName)
        .containsExactly("billing.InvoiceStatus", "billing.Tenant");
    assertThat(list.invalidates()).isEmpty();
    assertThat(list.beanValidation()).isFalse();

    ActionDescriptor get = d.actions().get(1);
    assertThat(get.fields()).containsExactly(new FieldDescriptor("id",
        "{\"type\":\"string\",\"minLength\":1,\"pattern\":\"^(?:INV-\\\\d+)$\"}", true, "", false));
    assertThat(get.requiredFields()).containsExactly("id");
    assertThat(get.resultShape()).isEqualTo(ResultShape.SINGLE);
    assertThat(get.cachePolicy()).isEqualTo(CachePolicy.DEFAULT);

    ActionDescriptor voidIt = d.actions().get(2);
    assertThat(voidIt.invalidates()).containsExactly("billing.*");
    assertThat(voidIt.presenter()).isSameAs(list.presenter());
    assertThat(voidIt.presenter().getClass().getName()).isEqualTo("billing.InvoiceView_Presenter");
    assertThat(voidIt.presenter().getClass().getField("INSTANCE").get(null))
        .isSameAs(voidIt.presenter());
  }

  @Test
  void decodeReportsWrongTypesThenUnknownFields() {
    Map<String, Object> args = new LinkedHashMap<>();
    args.put("id", 5L);
    args.put("bogus", 1L);
    assertThat(decode(1, args).list()).extracting(Problem::path, Problem::message, Problem::sent)
        .containsExactly(
            tuple("id", "expected string but was number", 5L),
            tuple("bogus", "is not an accepted field", 1L));
  }

  @Test
  void decodeChecksConstraintsAfterTypes() {
    assertThat(decode(1, Map.of("id", "abc")).list()).extracting(Problem::path, Problem::message,
            Problem::hint)
        .containsExactly(tuple("id", "must match \"INV-\\d+\"", "Expected format: INV-\\d+."));
    assertThat(decode(1, Map.of()).list()).extracting(Problem::path, Problem::message,
            Problem::sent)
        .containsExactly(tuple("id", "is required", Problems.MISSING));
    assertThat(decode(2, Map.of("id", "  ")).list()).extracting(Problem::message)
        .containsExactly("must not be blank");
    assertThat(decode(1, Map.of("ID", "INV-1")).list()).extracting(Problem::path, Problem::message)
        .containsExactly(tuple("ID", "is not an accepted field (did you mean \"id\"?)"),
            tuple("id", "is required"));
    assertThat(decode(0, Map.of("status", "opne")).list()).extracting(Problem::message)
        .containsExactly("must be one of [DRAFT, OPEN, PAID, VOID]");
  }

  @Test
  void invokeCallsTheMethodWithDecodedArgumentsAndContext() throws Exception {
    Problems p = new Problems();
    Object[] args = router.decode(1, Map.of("id", "INV-0001"), p);
    assertThat(p.isEmpty()).isTrue();
    assertThat(args).containsExactly("INV-0001", null);
    Object invoice = router.invoke(1, args, context());
    assertThat(invoice.toString()).contains("INV-0001", "whsec_1");

    Object[] listArgs = router.decode(0, Map.of("status", "PAID"), p);
    assertThat(p.isEmpty()).isTrue();
    assertThat((List<?>) router.invoke(0, listArgs, context())).hasSize(1);
    assertThat((List<?>) router.invoke(0, router.decode(0, Map.of(), p), context())).hasSize(2);
  }

  @Test
  void presenterStripsTheModelToTheDeclaredFields() throws Exception {
    Object invoice = router.invoke(1, new Object[] {"INV-0001", null}, context());
    PresenterBinding<Object, Object> b = presenter();
    Object view = b.fromModel(invoice);
    assertThat(view.getClass().getName()).isEqualTo("billing.InvoiceView");
    Map<String, Object> tree = b.toTree(view);
    assertThat(tree).containsExactly(Map.entry("id", "INV-0001"), Map.entry("totalCents", 1200L),
        Map.entry("status", "OPEN"));
    assertThat(tree.toString()).doesNotContain("whsec", "t_777", "flag");
    assertThat(b.suggestions(view)).containsExactly(
        Suggestion.of("billing.void_invoice", "Open invoices can be voided", Map.of("id", "INV-0001")));
    assertThat(b.dynamicRules(view)).isEmpty();
    assertThat(b.fromModel(null)).isNull();
  }

  @Test
  void fromMapReadsOnlyDeclaredKeys() {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("id", "INV-0009");
    row.put("webhookSecret", "whsec_SENTINEL");
    row.put("totalCents", 42);
    row.put("status", "PAID");
    row.put("internalFlags", Map.of("x", 1));
    Map<String, Object> tree = presenter().toTree(presenter().fromMap(row));
    assertThat(tree).containsExactly(Map.entry("id", "INV-0009"), Map.entry("totalCents", 42L),
        Map.entry("status", "PAID"));
    assertThatThrownBy(() -> presenter().fromMap(Map.of("id", "x")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("totalCents");
  }

  @Test
  void presenterCarriesSchemaRulesAndLimit() {
    PresenterBinding<Object, Object> b = presenter();
    assertThat(b.spiVersion()).isEqualTo(dev.mcpfusion.core.spi.FusionSpi.VERSION);
    assertThat(b.modelType().getName()).isEqualTo("billing.Invoice");
    assertThat(b.viewType().getName()).isEqualTo("billing.InvoiceView");
    assertThat(b.outputSchemaJson()).isEqualTo("{\"type\":\"object\",\"properties\":{"
        + "\"id\":{\"type\":\"string\",\"description\":\"Invoice ID, e.g. INV-0042\"},"
        + "\"totalCents\":{\"type\":\"integer\",\"description\":\"Total in integer cents; divide by"
        + " 100 for display\"},"
        + "\"status\":{\"type\":\"string\",\"enum\":[\"DRAFT\",\"OPEN\",\"PAID\",\"VOID\"],"
        + "\"description\":\"draft, open, paid or void\"}},"
        + "\"required\":[\"id\",\"totalCents\",\"status\"],\"additionalProperties\":false}");
    assertThat(b.fieldNames()).containsExactly("id", "totalCents", "status");
    assertThat(b.staticRules()).containsExactly(
        "id: Invoice ID, e.g. INV-0042",
        "totalCents: Total in integer cents; divide by 100 for display",
        "status: draft, open, paid or void",
        "Money is in integer cents. Divide by 100 before showing it to a person.");
    assertThat(b.agentLimit()).isEqualTo(50);
  }

  @Test
  void generatedSourcesMatchTheGoldenFiles() throws Exception {
    Golden.assertMatches("billing", compilation, "billing.BillingTools_Fusion",
        "billing.InvoiceView_Presenter");
  }
}
