package dev.mcpfusion.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The {@link Diagnostic} enum, the compile-time table of {@code docs/diagnostics.md} (the one
 * catalogue a user reads) and the compile tests stay in step: every code is documented with its
 * kind and a real example, and asserted by a compile test.
 */
class DiagnosticCatalogueTest {
  private static final Pattern ROW = Pattern.compile(
      "^\\| `([A-Za-z]+)` \\| (error|warning) \\| `(\\[fusion/([A-Za-z]+)\\] .*)` \\|$");

  /** The catalogue, read from the module's directory, where Surefire runs the tests. */
  private static final Path CATALOGUE = Path.of("..", "docs", "diagnostics.md");

  /** The catalogue's compile-time rows: code → {kind, example}. */
  private static Map<String, String[]> catalogueRows() {
    Map<String, String[]> rows = new LinkedHashMap<>();
    for (String line : read(CATALOGUE).split("\n")) {
      Matcher m = ROW.matcher(line);
      if (m.matches()) {
        assertThat(m.group(4)).as("the example of %s shows its own code", m.group(1))
            .isEqualTo(m.group(1));
        rows.put(m.group(1), new String[] {m.group(2), m.group(3).replace("\\|", "|")});
      }
    }
    return rows;
  }

  @Test
  void everyCodeHasACatalogueRowWithItsKindAndAnExampleOfOneOfItsWordings() {
    Map<String, String[]> rows = catalogueRows();
    for (Diagnostic d : Diagnostic.values()) {
      assertThat(rows).as("catalogue row for %s", d.code()).containsKey(d.code());
      assertThat(rows.get(d.code())[0]).as("kind of %s", d.code())
          .isEqualTo(d.kind().name().toLowerCase(java.util.Locale.ROOT));
    }
    for (Map.Entry<String, String[]> row : rows.entrySet()) {
      List<Diagnostic> wordings = Stream.of(Diagnostic.values())
          .filter(d -> d.code().equals(row.getKey())).collect(Collectors.toList());
      assertThat(wordings).as("the catalogue documents %s, which the processor never reports",
          row.getKey()).isNotEmpty();
      assertThat(wordings).as("the catalogue example of %s matches one of its wordings",
          row.getKey()).anyMatch(d -> wording(d).matcher(row.getValue()[1]).matches());
    }
  }

  @Test
  void everyCodeIsAssertedByACompileTest() throws IOException {
    String tests;
    try (Stream<Path> files = Files.walk(Path.of("src/test/java"))) {
      tests = files.filter(p -> p.toString().endsWith(".java"))
          .filter(p -> !p.getFileName().toString().equals("DiagnosticCatalogueTest.java"))
          .map(DiagnosticCatalogueTest::read).collect(Collectors.joining("\n"));
    }
    TreeSet<String> untested = new TreeSet<>();
    for (Diagnostic d : Diagnostic.values()) {
      if (!tests.contains("\"[fusion/" + d.code() + "]")) {
        untested.add(d.code());
      }
    }
    assertThat(untested).as("codes no compile test asserts").isEmpty();
  }

  @Test
  void aWordingFormatsItsArgumentsIntoProblemThenFix() {
    assertThat(Diagnostic.HIDDEN_FIELD_EXPOSED.text("LeakyView", "webhookSecret", "Item", "@Hidden"))
        .isEqualTo("[fusion/HiddenFieldExposed] LeakyView exposes 'webhookSecret', which Item"
            + " marks @Hidden. Remove it from the view or drop @Hidden.");
  }

  /** The whole text of a wording as a pattern: its arguments may be any text. */
  private static Pattern wording(Diagnostic d) {
    String format = "[fusion/" + d.code() + "] " + d.problem() + " " + d.fix();
    StringBuilder regex = new StringBuilder();
    Matcher arg = Pattern.compile("%(\\d+\\$)?s").matcher(format);
    int last = 0;
    while (arg.find()) {
      regex.append(Pattern.quote(format.substring(last, arg.start()))).append("(.*)");
      last = arg.end();
    }
    regex.append(Pattern.quote(format.substring(last)));
    return Pattern.compile(regex.toString(), Pattern.DOTALL);
  }

  private static String read(Path path) {
    try {
      return Files.readString(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
