package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.testing.compile.Compilation;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.spi.PresenterBinding;
import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;

/**
 * The generated {@code appendJson} writes exactly {@code Json.write(toTree(view))} for a view with
 * a component of every supported type (fixture {@code kinds}): scalars primitive and boxed, enums,
 * nested views, lists, sets, collections and optionals of them, nullable components, a non-ASCII
 * and a {@code $} component name, and a view without components.
 */
class AppendJsonTest {
  /** Compiled once per JVM: shared by the JUnit tests and the jqwik properties. */
  static final class Kinds {
    static final Compilation COMPILATION = Fixtures.compile(Fixtures.kinds());
    static final ClassLoader LOADER = Fixtures.loader(COMPILATION);
    static final PresenterBinding<Object, Object> SAMPLE = binding("kinds.KindViews_SampleView_Presenter");
    static final PresenterBinding<Object, Object> PART = binding("kinds.KindViews_PartView_Presenter");
    static final PresenterBinding<Object, Object> NO_FIELDS = binding("kinds.KindViews_NoFields_Presenter");
    /** The components the model marks {@code @Nullable} (Optionals are nullable too). */
    static final Set<String> NULLABLE = Set.of("note", "extra", "palette", "tint", "maybeRef",
        "maybeCount", "maybeExact", "weight");

    @SuppressWarnings("unchecked")
    private static PresenterBinding<Object, Object> binding(String name) {
      try {
        return (PresenterBinding<Object, Object>) LOADER.loadClass(name).getField("INSTANCE").get(null);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  private static String tree(PresenterBinding<Object, Object> b, Object view) {
    return Json.write(b.toTree(view));
  }

  @Test
  void theFixtureCoversEveryComponentTypeAndCompilesCleanly() {
    assertThat(Kinds.COMPILATION).succeededWithoutWarnings();
    assertThat(Kinds.SAMPLE.fieldNames()).hasSize(44).contains("gr\u00f6\u00dfe", "a$b");
    String source = Fixtures.generatedSource(Kinds.COMPILATION, "kinds.KindViews_SampleView_Presenter");
    assertThat(source).contains("public void appendJson(KindViews.SampleView view, StringBuilder out)")
        .contains("out.append(\"{\\\"text\\\":\");")
        .contains("out.append(\",\\\"gr\\u00f6\\u00dfe\\\":\");");
  }

  @Test
  void edgeValuesAreWrittenAsTheTreeWriterWritesThem() throws Exception {
    Object part = Kinds.PART.viewType().getDeclaredConstructors()[0]
        .newInstance("q\"\\\n\u0001\ud800", -1, 1e21);
    Object view = sample(List.of(
        "t\u0000\u001f\u2028\ud83d\udcca\udc00\"\\/", true, Boolean.FALSE, Byte.MIN_VALUE,
        Byte.MAX_VALUE, Short.MIN_VALUE, Short.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE,
        Long.MIN_VALUE, Long.MAX_VALUE, Float.MIN_VALUE, -0.0f, 1e-7, Double.MAX_VALUE,
        new BigInteger("-123456789012345678901234567890"), new BigDecimal("1E+3"),
        new UUID(Long.MIN_VALUE, -1), LocalDate.of(12345, 1, 2), Instant.ofEpochSecond(-1, 5),
        OffsetDateTime.of(2026, 1, 31, 10, 15, 30, 1000, ZoneOffset.ofHoursMinutes(-5, -30)),
        color(2), part, Arrays.asList("a", null, ""), Arrays.asList(1, null, -2),
        Arrays.asList(0.1, null, 100.0), new LinkedHashSet<>(Arrays.asList(color(1), null, color(0))),
        Arrays.asList(part, null), List.of(), List.of(new BigDecimal("-0.000")),
        new LinkedHashSet<>(List.of(LocalDate.MIN, LocalDate.MAX)), Optional.of("\t"),
        Optional.of(part), Optional.of(-7L), Optional.empty(), "n", part, List.of(color(0)),
        color(1), UUID.fromString("123e4567-e89b-12d3-a456-426614174000"), 0L,
        new BigDecimal("12.50"), 3, "$"));
    assertThat(Kinds.SAMPLE.toJson(view)).isEqualTo(tree(Kinds.SAMPLE, view))
        .startsWith("{\"text\":\"t\\u0000\\u001f\u2028\ud83d\udcca\ufffd\\\"\\\\/\",\"flag\":true,")
        .contains(",\"big\":-9223372036854775808,", ",\"ratio\":1.4E-45,\"boxedRatio\":-0.0,",
            ",\"amount\":1.0E-7,", ",\"exact\":1E+3,", ",\"day\":\"+12345-01-02\",",
            ",\"color\":\"\u00c9CRU\",", "\"weight\":1.0E21}", ",\"texts\":[\"a\",null,\"\"],",
            ",\"colors\":[\"GREEN\",null,\"RED\"],", ",\"refs\":[],", ",\"maybeColor\":null,",
            ",\"gr\u00f6\u00dfe\":3,\"a$b\":\"$\"}");
  }

  @Test
  void nullableComponentsAndEmptyOptionalsAreWrittenAsNull() throws Exception {
    List<Object> args = new ArrayList<>(defaults());
    for (RecordComponent c : Kinds.SAMPLE.viewType().getRecordComponents()) {
      int i = index(c.getName());
      if (Kinds.NULLABLE.contains(c.getName())) {
        args.set(i, null);
      } else if (c.getType() == Optional.class) {
        args.set(i, i % 2 == 0 ? null : Optional.empty());
      }
    }
    Object view = sample(args);
    assertThat(Kinds.SAMPLE.toJson(view)).isEqualTo(tree(Kinds.SAMPLE, view))
        .contains("\"note\":null,\"extra\":null,\"palette\":null,\"tint\":null,\"maybeRef\":null,"
            + "\"maybeCount\":null,\"maybeExact\":null,");
  }

  @Test
  void aViewWithoutComponentsIsAnEmptyObject() throws Exception {
    Object none = Kinds.NO_FIELDS.viewType().getDeclaredConstructors()[0].newInstance();
    assertThat(Kinds.NO_FIELDS.toJson(none)).isEqualTo(tree(Kinds.NO_FIELDS, none)).isEqualTo("{}");
  }

  @Test
  void appendJsonAppendsToWhatIsAlreadyThere() throws Exception {
    Object view = sample(defaults());
    StringBuilder out = new StringBuilder("[");
    Kinds.SAMPLE.appendJson(view, out);
    assertThat(out.toString()).isEqualTo("[" + tree(Kinds.SAMPLE, view));
  }

  @Test
  void aNullInANonNullableComponentFailsLikeToTree() throws Exception {
    for (String name : List.of("text", "boxedFlag", "huge", "ref", "color", "part", "texts", "a$b")) {
      List<Object> args = new ArrayList<>(defaults());
      args.set(index(name), null);
      Object view = sample(args);
      String expected = "SampleView." + name + " is null, but it is not @Nullable: mark the"
          + " component (or the model property) @Nullable, or never leave it null";
      assertThatThrownBy(() -> Kinds.SAMPLE.toTree(view)).hasMessage(expected);
      assertThatThrownBy(() -> Kinds.SAMPLE.toJson(view))
          .isInstanceOf(IllegalStateException.class).hasMessage(expected);
    }
  }

  @Test
  void nonFiniteNumbersFailLikeTheTreeWriter() throws Exception {
    List<Object[]> cases = List.of(new Object[] {"ratio", Float.NaN},
        new Object[] {"boxedRatio", Float.NEGATIVE_INFINITY}, new Object[] {"amount", Double.NaN},
        new Object[] {"boxedAmount", Double.POSITIVE_INFINITY},
        new Object[] {"amounts", List.of(1.0, Double.NaN)});
    for (Object[] c : cases) {
      List<Object> args = new ArrayList<>(defaults());
      args.set(index((String) c[0]), c[1]);
      Object view = sample(args);
      String message = catchMessage(() -> tree(Kinds.SAMPLE, view));
      assertThat(message).startsWith("JSON has no representation for ");
      assertThatThrownBy(() -> Kinds.SAMPLE.toJson(view))
          .isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }
  }

  private static String catchMessage(Runnable r) {
    try {
      r.run();
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
    throw new AssertionError("expected an IllegalArgumentException");
  }

  @Property(tries = 400)
  void appendJsonIsByteIdenticalToWritingTheTree(@ForAll("samples") Object view) {
    assertThat(Kinds.SAMPLE.toJson(view)).isEqualTo(tree(Kinds.SAMPLE, view));
  }

  @Property(tries = 200)
  void nestedViewsAloneAreByteIdenticalToo(@ForAll("parts") Object part) {
    assertThat(Kinds.PART.toJson(part)).isEqualTo(tree(Kinds.PART, part));
  }

  // ------------------------------------------------------------------ values

  private static int index(String component) {
    RecordComponent[] cs = Kinds.SAMPLE.viewType().getRecordComponents();
    for (int i = 0; i < cs.length; i++) {
      if (cs[i].getName().equals(component)) {
        return i;
      }
    }
    throw new IllegalArgumentException(component);
  }

  private static Object sample(List<?> args) throws Exception {
    Constructor<?> ctor = Kinds.SAMPLE.viewType().getDeclaredConstructors()[0];
    return ctor.newInstance(args.toArray());
  }

  private static Object color(int ordinal) throws Exception {
    return Kinds.LOADER.loadClass("kinds.Color").getEnumConstants()[ordinal];
  }

  /** One ordinary value per component, in component order. */
  private static List<Object> defaults() throws Exception {
    Object part = Kinds.PART.viewType().getDeclaredConstructors()[0].newInstance("p", 1, 0.5);
    return new ArrayList<>(Arrays.asList("x", false, true, (byte) 1, (byte) 2, (short) 3, (short) 4,
        5, 6, 7L, 8L, 0.25f, 0.5f, 0.75, 1.5, BigInteger.TEN, BigDecimal.ONE, new UUID(1, 2),
        LocalDate.of(2026, 1, 1), Instant.EPOCH, OffsetDateTime.of(2026, 1, 1, 0, 0, 0, 0,
            ZoneOffset.UTC), color(0), part, List.of("a"), List.of(1), List.of(2.0),
        Set.of(color(1)), List.of(part), List.of(new UUID(3, 4)), List.of(BigDecimal.TEN),
        Set.of(LocalDate.of(2000, 2, 29)), Optional.of("o"), Optional.of(part), Optional.of(9L),
        Optional.of(color(2)), "note", part, List.of(color(0)), color(1), new UUID(5, 6), 10L,
        new BigDecimal("0.1"), 11, "ab"));
  }

  @Provide
  Arbitrary<Object> parts() {
    return arbitrary(Kinds.PART.viewType());
  }

  @Provide
  Arbitrary<Object> samples() {
    return arbitrary(Kinds.SAMPLE.viewType());
  }

  private static Arbitrary<Object> arbitrary(Class<?> record) {
    List<Arbitrary<Object>> components = new ArrayList<>();
    for (RecordComponent c : record.getRecordComponents()) {
      Arbitrary<Object> a = of(c.getGenericType());
      if (Kinds.NULLABLE.contains(c.getName()) || c.getType() == Optional.class) {
        a = a.injectNull(0.2);
      }
      components.add(a);
    }
    Constructor<?> ctor = record.getDeclaredConstructors()[0];
    return Combinators.combine(components).as(args -> {
      try {
        return ctor.newInstance(args.toArray());
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    });
  }

  private static final List<String> NASTY = List.of("", "\"", "\\", "\u0000", "\u001f", "\u007f",
      "\u2028\u2029", "\ud800", "\udfff", "\ud83d\udcca", "\udcca\ud83d", "\u00e9", "</script>");

  @SuppressWarnings("unchecked")
  private static Arbitrary<Object> of(Type type) {
    if (type instanceof ParameterizedType p) {
      Class<?> raw = (Class<?>) p.getRawType();
      Arbitrary<Object> element = of(p.getActualTypeArguments()[0]);
      if (raw == Optional.class) {
        return element.optional().map(o -> (Object) o);
      }
      Arbitrary<List<Object>> list = element.injectNull(0.1).list().ofMaxSize(4);
      if (raw == Set.class) {
        return list.map(l -> (Object) new LinkedHashSet<>(l));
      }
      return list.map(l -> (Object) l);
    }
    Class<?> c = (Class<?>) type;
    Arbitrary<?> a;
    if (c == String.class) {
      a = Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.strings().all().ofMaxLength(12)),
          Tuple.of(1, Arbitraries.of(NASTY).list().ofMaxSize(4).map(l -> String.join("", l))));
    } else if (c == boolean.class || c == Boolean.class) {
      a = Arbitraries.of(true, false);
    } else if (c == byte.class || c == Byte.class) {
      a = Arbitraries.bytes();
    } else if (c == short.class || c == Short.class) {
      a = Arbitraries.shorts();
    } else if (c == int.class || c == Integer.class) {
      a = Arbitraries.integers();
    } else if (c == long.class || c == Long.class) {
      a = Arbitraries.longs();
    } else if (c == float.class || c == Float.class) {
      // Every finite bit pattern: subnormals, -0.0, 1e-7-like and 1e21-like magnitudes.
      a = Arbitraries.integers().map(Float::intBitsToFloat).filter(Float::isFinite);
    } else if (c == double.class || c == Double.class) {
      a = Arbitraries.frequencyOf(
          Tuple.of(3, Arbitraries.longs().map(Double::longBitsToDouble).filter(Double::isFinite)),
          Tuple.of(1, Arbitraries.of(1e21, 1e-7, 1e7, 0.001, 100.0, -0.0, 0.1 + 0.2)));
    } else if (c == BigInteger.class) {
      a = Arbitraries.bigIntegers().between(new BigInteger("-1" + "0".repeat(40)),
          new BigInteger("1" + "0".repeat(40)));
    } else if (c == BigDecimal.class) {
      a = Combinators.combine(Arbitraries.bigIntegers().between(BigInteger.valueOf(-1_000_000_000L),
          BigInteger.valueOf(1_000_000_000L)), Arbitraries.integers().between(-12, 12))
          .as(BigDecimal::new);
    } else if (c == UUID.class) {
      a = Combinators.combine(Arbitraries.longs(), Arbitraries.longs()).as(UUID::new);
    } else if (c == LocalDate.class) {
      a = Arbitraries.longs().between(LocalDate.MIN.toEpochDay(), LocalDate.MAX.toEpochDay())
          .map(LocalDate::ofEpochDay);
    } else if (c == Instant.class) {
      a = Combinators.combine(
          Arbitraries.longs().between(Instant.MIN.getEpochSecond(), Instant.MAX.getEpochSecond()),
          Arbitraries.integers().between(0, 999_999_999)).as(Instant::ofEpochSecond);
    } else if (c == OffsetDateTime.class) {
      a = Combinators.combine(Arbitraries.longs().between(-100_000_000_000L, 100_000_000_000L),
          Arbitraries.integers().between(0, 999_999_999),
          Arbitraries.integers().between(-18 * 3600, 18 * 3600)).as((s, n, o) -> {
            ZoneOffset offset = ZoneOffset.ofTotalSeconds(o);
            return OffsetDateTime.of(LocalDateTime.ofEpochSecond(s, n, offset), offset);
          });
    } else if (c.isEnum()) {
      a = Arbitraries.of((Object[]) c.getEnumConstants());
    } else if (c.isRecord()) {
      a = arbitrary(c);
    } else {
      throw new IllegalArgumentException("no arbitrary for " + type);
    }
    return (Arbitrary<Object>) a;
  }
}
