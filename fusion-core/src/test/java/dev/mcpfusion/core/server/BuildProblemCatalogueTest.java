package dev.mcpfusion.core.server;

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
 * The {@link BuildProblem} enum, the {@code build()} table of {@code docs/diagnostics.md} (the one
 * catalogue a user reads) and the build tests stay in step: every code is documented with a real
 * example and asserted by a test.
 */
class BuildProblemCatalogueTest {
  private static final Pattern ROW = Pattern.compile(
      "^\\| `([A-Za-z]+)` \\| `(\\[fusion/([A-Za-z]+)\\] .*)` \\|$");

  /** The catalogue, read from the module's directory, where Surefire runs the tests. */
  private static final Path CATALOGUE = Path.of("..", "docs", "diagnostics.md");

  /** The catalogue's {@code build()} rows: code → example. */
  private static Map<String, String> catalogueRows() {
    Map<String, String> rows = new LinkedHashMap<>();
    for (String line : read(CATALOGUE).split("\n")) {
      Matcher m = ROW.matcher(line);
      if (m.matches()) {
        assertThat(m.group(3)).as("the example of %s shows its own code", m.group(1))
            .isEqualTo(m.group(1));
        rows.put(m.group(1), m.group(2).replace("\\|", "|"));
      }
    }
    return rows;
  }

  @Test
  void everyCodeHasACatalogueRowWithAnExampleOfOneOfItsWordings() {
    Map<String, String> rows = catalogueRows();
    for (BuildProblem p : BuildProblem.values()) {
      assertThat(rows).as("catalogue row for %s", p.code()).containsKey(p.code());
    }
    for (Map.Entry<String, String> row : rows.entrySet()) {
      List<BuildProblem> wordings = Stream.of(BuildProblem.values())
          .filter(p -> p.code().equals(row.getKey())).collect(Collectors.toList());
      assertThat(wordings).as("the catalogue documents %s, which build() never reports", row.getKey())
          .isNotEmpty();
      assertThat(wordings).as("the catalogue example of %s matches one of its wordings",
          row.getKey()).anyMatch(p -> wording(p).matcher(row.getValue()).matches());
    }
  }

  @Test
  void everyCodeIsAssertedByABuildTest() throws IOException {
    // A build problem may be exercised where its feature is (a sample's test, say): every
    // module's tests count.
    String tests;
    try (Stream<Path> files = Files.walk(Path.of(".."))) {
      tests = files.filter(p -> p.toString().endsWith(".java"))
          .filter(p -> p.toString().contains("/src/test/java/"))
          .filter(p -> !p.getFileName().toString().equals("BuildProblemCatalogueTest.java"))
          .map(BuildProblemCatalogueTest::read).collect(Collectors.joining("\n"));
    }
    TreeSet<String> untested = new TreeSet<>();
    for (BuildProblem p : BuildProblem.values()) {
      if (!tests.contains("\"[fusion/" + p.code() + "]")) {
        untested.add(p.code());
      }
    }
    assertThat(untested).as("codes no build test asserts").isEmpty();
  }

  private static Pattern wording(BuildProblem p) {
    String format = "[fusion/" + p.code() + "] " + p.problem()
        + (p.fix().isEmpty() ? "" : " " + p.fix());
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
