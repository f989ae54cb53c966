package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import dev.mcpfusion.core.spi.GeneratedRouter;
import dev.mcpfusion.core.spi.PresenterBinding;
import java.lang.reflect.Constructor;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Views of every supported shape: nested views, lists, sets, Optional, nullable, getters. */
class ViewsFunctionalTest {
  static ClassLoader loader;
  static PresenterBinding<Object, Object> orders;

  @BeforeAll
  @SuppressWarnings("unchecked")
  static void compile() throws Exception {
    Compilation c = Fixtures.compile(Fixtures.shop());
    assertThat(c).succeededWithoutWarnings();
    loader = Fixtures.loader(c);
    orders = (PresenterBinding<Object, Object>) loader.loadClass("shop.Views_OrderView_Presenter")
        .getField("INSTANCE").get(null);
  }

  static Object record(String name, Object... args) throws Exception {
    Class<?> type = loader.loadClass(name);
    Constructor<?> ctor = type.getDeclaredConstructors()[0];
    return ctor.newInstance(args);
  }

  static Object order(BigDecimal amount, boolean shipped) throws Exception {
    Object line = record("shop.Line", "A-1", 2, "cost-SENTINEL");
    Object address = record("shop.Address", "Lyon", "street-SENTINEL");
    Object customer = loader.loadClass("shop.Customer").getConstructor().newInstance();
    return record("shop.Order", "O-1", UUID.fromString("123e4567-e89b-12d3-a456-426614174000"),
        Instant.parse("2026-01-31T10:15:30Z"), amount, List.of(line),
        shipped ? Optional.of(address) : Optional.empty(), address,
        new LinkedHashSet<>(List.of("gift", "rush")), null, customer, "secret-SENTINEL");
  }

  @Test
  void nestedViewsListsOptionalsAndGettersBecomeAPlainTree() throws Exception {
    Map<String, Object> tree = orders.toTree(orders.fromModel(order(new BigDecimal("9.90"), true)));
    assertThat(tree.toString()).isEqualTo("{id=O-1, ref=123e4567-e89b-12d3-a456-426614174000,"
        + " at=2026-01-31T10:15:30Z, amount=9.90, lines=[{sku=A-1, qty=2}], shipTo={city=Lyon},"
        + " billTo={city=Lyon}, tags=[gift, rush], note=null, customer={name=Ada, vip=true}}");
    assertThat(tree.toString()).doesNotContain("SENTINEL", "hunter2");
    assertThat(tree.get("lines")).isInstanceOf(List.class);
    assertThat(tree.get("tags")).isInstanceOf(List.class);

    Map<String, Object> unshipped =
        orders.toTree(orders.fromModel(order(new BigDecimal("0"), false)));
    assertThat(unshipped.get("shipTo")).isNull();
    assertThat(unshipped).containsKey("shipTo");
  }

  @Test
  void fromMapConvertsNestedRowsAndDropsUndeclaredKeys() {
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("sku", "B-2");
    line.put("qty", 3L);
    line.put("cost", "cost-SENTINEL");
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("id", "O-2");
    row.put("ref", "123e4567-e89b-12d3-a456-426614174000");
    row.put("at", "2026-01-31T10:15:30Z");
    row.put("amount", 5);
    row.put("lines", List.of(line));
    row.put("shipTo", null);
    row.put("billTo", Map.of("city", "Nice", "street", "street-SENTINEL"));
    row.put("tags", List.of("a"));
    row.put("customer", Map.of("name", "Bob", "vip", false, "password", "pw-SENTINEL"));
    row.put("secret", "secret-SENTINEL");
    Map<String, Object> tree = orders.toTree(orders.fromMap(row));
    assertThat(tree.toString()).isEqualTo("{id=O-2, ref=123e4567-e89b-12d3-a456-426614174000,"
        + " at=2026-01-31T10:15:30Z, amount=5, lines=[{sku=B-2, qty=3}], shipTo=null,"
        + " billTo={city=Nice}, tags=[a], note=null, customer={name=Bob, vip=false}}");
  }

  @Test
  void schemaRequiresNonNullableComponentsAndInlinesNestedViews() {
    String schema = orders.outputSchemaJson();
    assertThat(schema).startsWith("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"},"
        + "\"ref\":{\"type\":\"string\",\"format\":\"uuid\"},\"at\":{\"type\":\"string\","
        + "\"format\":\"date-time\"},\"amount\":{\"type\":\"number\"},\"lines\":{\"type\":\"array\","
        + "\"items\":{\"type\":\"object\",\"properties\":{\"sku\":{\"type\":\"string\","
        + "\"description\":\"Stock unit\"},\"qty\":{\"type\":\"integer\"}},\"required\":[\"sku\","
        + "\"qty\"],\"additionalProperties\":false}},\"shipTo\":{\"type\":[\"object\",\"null\"],");
    assertThat(schema).contains("\"note\":{\"type\":[\"string\",\"null\"]}")
        .endsWith("\"required\":[\"id\",\"ref\",\"at\",\"amount\",\"lines\",\"billTo\",\"tags\","
            + "\"customer\"],\"additionalProperties\":false}")
        .doesNotContain("secret", "street", "cost", "password");
  }

  @Test
  void rulesListDescribedPropertiesNestedViewsOnceThenTypeRules() throws Exception {
    assertThat(orders.staticRules())
        .containsExactly("sku: Stock unit", "Quantities are units.", "city: City name");
    Object view = orders.fromModel(order(new BigDecimal("9.90"), true));
    assertThat(orders.dynamicRules(view)).containsExactly("Amounts are in EUR.");
    assertThat(orders.dynamicRules(orders.fromModel(order(BigDecimal.ZERO, true)))).isEmpty();
    assertThat(orders.suggestions(view)).isEmpty();
    assertThat(orders.agentLimit()).isEqualTo(7);
    assertThat(orders.fieldNames()).containsExactly("id", "ref", "at", "amount", "lines", "shipTo",
        "billTo", "tags", "note", "customer");
  }

  @Test
  void nonAsciiTextSurvivesTheAsciiOnlySource() throws Exception {
    Compilation c = Fixtures.compile(Fixtures.INTL);
    assertThat(c).succeededWithoutWarnings();
    String source = Fixtures.generatedSource(c, "intl.CafeTools_Fusion");
    assertThat(source).contains("\"Caf\\u00e9 \\u2713 \\ud83d\\udcca men\\u00fc\"");
    assertThat(source.chars().allMatch(ch -> ch < 0x7f)).isTrue();
    ClassLoader l = Fixtures.loader(c);
    Class<?> tools = l.loadClass("intl.CafeTools");
    GeneratedRouter r = (GeneratedRouter) l.loadClass("intl.CafeTools_Fusion")
        .getMethod("bind", tools).invoke(null, tools.getConstructor().newInstance());
    assertThat(r.descriptor().description()).isEqualTo("Caf\u00e9 \u2713 \ud83d\udcca men\u00fc");
    assertThat(r.descriptor().actions().get(0).description()).isEqualTo("Stra\u00dfe");
    assertThat(r.descriptor().actions().get(0).fields().get(0).description())
        .isEqualTo("Gr\u00fc\u00dfe \\ \u00e9");
    assertThat(r.descriptor().actions().get(0).fields().get(0).schemaJson())
        .isEqualTo("{\"type\":\"string\",\"description\":\"Gr\u00fc\u00dfe \\\\ \u00e9\"}");
  }
}
