package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.google.testing.compile.Compilation;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.ContextLookup;
import dev.mcpfusion.core.spi.FieldDescriptor;
import dev.mcpfusion.core.spi.GeneratedRouter;
import dev.mcpfusion.core.spi.Problem;
import dev.mcpfusion.core.spi.Problems;
import dev.mcpfusion.core.spi.ResultShape;
import dev.mcpfusion.core.spi.Verb;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Inputs of every supported type: schemas, decoding with paths, common fields, invocation. */
class OrdersFunctionalTest {
  static GeneratedRouter router;

  @BeforeAll
  static void compile() throws Exception {
    Compilation c = Fixtures.compile(Fixtures.orders());
    assertThat(c).succeededWithoutWarnings();
    ClassLoader loader = Fixtures.loader(c);
    Class<?> tools = loader.loadClass("orders.OrderTools");
    router = (GeneratedRouter) loader.loadClass("orders.OrderTools_Fusion").getMethod("bind", tools)
        .invoke(null, tools.getConstructor().newInstance());
  }

  static final ContextLookup CONTEXT = new ContextLookup() {
    @Override
    public <T> T get(Class<T> type) {
      return type == RequestContext.class ? type.cast(RequestContext.empty()) : null;
    }
  };

  static Map<String, Object> validOrder() {
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("sku", "A-1");
    line.put("qty", 2L);
    Map<String, Object> args = new LinkedHashMap<>();
    args.put("workspace", "w1");
    args.put("lines", List.of(line));
    args.put("coupon", "SAVE");
    args.put("customer", "123e4567-e89b-12d3-a456-426614174000");
    args.put("due", "2026-01-31");
    args.put("at", "2026-01-31T10:15:30Z");
    args.put("odt", "2026-01-31T10:15:30+02:00");
    args.put("amount", new BigDecimal("12.50"));
    args.put("codes", List.of(1L, 2L));
    args.put("tags", List.of("HIGH", "LOW", "HIGH"));
    args.put("email", "a@b.example");
    args.put("code", "ab");
    args.put("count", 3L);
    args.put("ratio", 0.5);
    args.put("big", new java.math.BigInteger("12345678901234567890"));
    return args;
  }

  @Test
  void commonFieldsComeFirstAreFlaggedAndRequiredUnlessNullable() {
    var d = router.descriptor();
    assertThat(d.commonFields()).containsExactly(
        new FieldDescriptor("workspace", "{\"type\":\"string\",\"description\":\"The workspace\"}",
            true, "The workspace", true),
        new FieldDescriptor("region", "{\"type\":\"string\"}", false, "", true));
    for (ActionDescriptor a : d.actions()) {
      assertThat(a.fields().subList(0, 2)).isEqualTo(d.commonFields());
    }
  }

  @Test
  void everyInputTypeHasItsSchema() {
    ActionDescriptor place = router.descriptor().actions().get(0);
    assertThat(place.description()).isEqualTo("Places an order.");
    assertThat(place.verb()).isEqualTo(Verb.MUTATION);
    assertThat(place.idempotentHint()).isTrue();
    assertThat(place.resultShape()).isEqualTo(ResultShape.VALUE);
    assertThat(place.resultSchemaJson()).isEqualTo("{\"type\":\"string\"}");
    Map<String, String> schemas = new LinkedHashMap<>();
    for (FieldDescriptor f : place.fields()) {
      schemas.put(f.name(), f.schemaJson());
    }
    assertThat(schemas).containsEntry("lines", "{\"type\":\"array\",\"items\":{\"type\":\"object\","
        + "\"properties\":{\"sku\":{\"type\":\"string\",\"minLength\":1},\"qty\":{\"type\":\"integer\","
        + "\"minimum\":1,\"maximum\":99},\"note\":{\"type\":\"string\"}},\"required\":[\"sku\",\"qty\"],"
        + "\"additionalProperties\":false},\"minItems\":1,\"maxItems\":3}")
        .containsEntry("coupon", "{\"type\":\"string\"}")
        .containsEntry("customer", "{\"type\":\"string\",\"format\":\"uuid\"}")
        .containsEntry("due", "{\"type\":\"string\",\"format\":\"date\"}")
        .containsEntry("at", "{\"type\":\"string\",\"format\":\"date-time\"}")
        .containsEntry("odt", "{\"type\":\"string\",\"format\":\"date-time\"}")
        .containsEntry("amount", "{\"type\":\"number\",\"exclusiveMinimum\":0,\"exclusiveMaximum\":1000.5}")
        .containsEntry("codes", "{\"type\":\"array\",\"items\":{\"type\":\"integer\"}}")
        .containsEntry("tags", "{\"type\":\"array\",\"items\":{\"type\":\"string\",\"enum\":[\"LOW\",\"HIGH\"]}}")
        .containsEntry("email", "{\"type\":\"string\",\"format\":\"email\"}")
        .containsEntry("code", "{\"type\":\"string\",\"minLength\":2,\"maxLength\":4}")
        .containsEntry("count", "{\"type\":\"integer\"}")
        .containsEntry("flag", "{\"type\":\"boolean\"}")
        .containsEntry("ratio", "{\"type\":\"number\"}")
        .containsEntry("big", "{\"type\":\"integer\"}");
    assertThat(place.requiredFields()).containsExactly("workspace", "lines", "count", "ratio");
    assertThat(place.contextParameters()).extracting(c -> (Object) c.type())
        .containsExactly(RequestContext.class);
    assertThat(place.parameterTypes()).hasSize(17).contains(int[].class, long.class, double.class);
  }

  @Test
  void hintsAndValueResultsAreResolved() {
    List<ActionDescriptor> actions = router.descriptor().actions();
    assertThat(actions).extracting(ActionDescriptor::name, ActionDescriptor::verb,
            ActionDescriptor::readOnlyHint, ActionDescriptor::destructiveHint,
            ActionDescriptor::idempotentHint, ActionDescriptor::openWorldHint,
            ActionDescriptor::resultShape, ActionDescriptor::resultSchemaJson)
        .containsExactly(
            tuple("place_order", Verb.MUTATION, false, true, true, false, ResultShape.VALUE,
                "{\"type\":\"string\"}"),
            tuple("ping", Verb.ACTION, true, false, false, true, ResultShape.VOID, null),
            tuple("count", Verb.QUERY, true, false, false, false, ResultShape.VALUE,
                "{\"type\":\"integer\"}"),
            tuple("priority", Verb.QUERY, true, false, false, false, ResultShape.VALUE,
                "{\"type\":\"string\",\"enum\":[\"LOW\",\"HIGH\"]}"));
  }

  @Test
  void validArgumentsDecodeToTypedValuesAndInvoke() throws Exception {
    Problems p = new Problems();
    Object[] args = router.decode(0, validOrder(), p);
    assertThat(p.list()).isEmpty();
    Object result = router.invoke(0, args, CONTEXT);
    assertThat(result).isEqualTo("Workspace[workspace=w1, region=null]"
        + "|[Line[sku=A-1, qty=2, note=Optional.empty]]|Optional[SAVE]"
        + "|123e4567-e89b-12d3-a456-426614174000|2026-01-31|2026-01-31T10:15:30Z"
        + "|2026-01-31T10:15:30+02:00|12.50|[1, 2]|[HIGH, LOW]|a@b.example|ab|3|null|0.5"
        + "|12345678901234567890|true");
    assertThat(router.invoke(1, router.decode(1, Map.of("workspace", "w"), p), CONTEXT)).isNull();
    assertThat(router.invoke(2, router.decode(2, Map.of("workspace", "abcd"), p), CONTEXT))
        .isEqualTo(4L);
    assertThat(router.invoke(3, router.decode(3, Map.of("workspace", "w", "p", "HIGH"), p), CONTEXT)
        .toString()).isEqualTo("HIGH");
    assertThat(p.list()).isEmpty();
  }

  @Test
  void problemsCarryNestedPathsInTypeUnknownConstraintOrder() {
    Map<String, Object> bad = new LinkedHashMap<>(validOrder());
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("sku", " ");
    line.put("qty", 0L);
    line.put("x", 1L);
    bad.put("lines", List.of(line, Map.of("sku", "B", "qty", "many")));
    bad.put("customer", "nope");
    bad.put("codes", List.of(1L, "two"));
    bad.put("amount", new BigDecimal("-1"));
    bad.put("code", "a");
    bad.remove("workspace");
    bad.remove("count");
    bad.put("extra", true);
    Problems p = new Problems();
    router.decode(0, bad, p);
    assertThat(p.list()).extracting(Problem::path, Problem::message).containsExactly(
        tuple("lines[0].x", "is not an accepted field"),
        tuple("lines[0].sku", "must not be blank"),
        tuple("lines[0].qty", "must be greater than or equal to 1"),
        tuple("lines[1].qty", "expected integer but was string"),
        tuple("customer", "must be a valid UUID"),
        tuple("codes[1]", "expected integer but was string"),
        tuple("extra", "is not an accepted field"),
        tuple("workspace", "is required"),
        tuple("amount", "must be greater than 0"),
        tuple("code", "must be between 2 and 4 characters"),
        tuple("count", "is required"));
  }

  @Test
  void tooManyItemsAndNotAnArrayAreReported() {
    Map<String, Object> args = new LinkedHashMap<>(validOrder());
    Map<String, Object> line = Map.of("sku", "A", "qty", 1L);
    args.put("lines", List.of(line, line, line, line));
    args.put("tags", "HIGH");
    Problems p = new Problems();
    router.decode(0, args, p);
    assertThat(p.list()).extracting(Problem::path, Problem::message).containsExactly(
        tuple("tags", "expected array but was string"),
        tuple("lines", "must have at most 3 items"));
  }
}
