package dev.mcpfusion.maven;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.opentest4j.AssertionFailedError;

/**
 * The generated connector of each published document, pinned file by file under
 * {@code src/test/resources/openapi/golden/<document>/}. After an intended change, regenerate with
 * {@code mvn -B -o test -pl fusion-maven-plugin -am -Dtest=OpenApiGoldenTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dfusion.updateGolden=true} and review the diff in git.
 */
class OpenApiGoldenTest {
  static final String UPDATE = "fusion.updateGolden";

  @ParameterizedTest
  @ValueSource(strings = {OpenApiDocuments.PETSTORE, OpenApiDocuments.USPTO})
  void theGeneratedSourcesAreTheGoldenFiles(String document) throws IOException {
    SortedMap<String, String> sources = GeneratedConnector.generate(document, OpenApiDocuments.config(document)).sources();
    Path golden = GeneratedConnector.DOCUMENTS.resolve("golden").resolve(document.replaceAll("\\.[a-z]+$", ""));
    if (Boolean.getBoolean(UPDATE)) {
      if (Files.isDirectory(golden)) {
        try (Stream<Path> old = Files.walk(golden)) {
          for (Path p : old.sorted(java.util.Comparator.reverseOrder()).toList()) {
            Files.delete(p);
          }
        }
      }
      for (Map.Entry<String, String> e : sources.entrySet()) {
        Path file = golden.resolve(e.getKey());
        Files.createDirectories(file.getParent());
        Files.writeString(file, e.getValue(), StandardCharsets.UTF_8);
      }
    }
    assertThat(golden).as("golden files (write them with -D%s=true)", UPDATE).isDirectory();
    SortedMap<String, String> pinned = new TreeMap<>();
    try (Stream<Path> files = Files.walk(golden)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        pinned.put(golden.relativize(f).toString().replace('\\', '/'), Files.readString(f, StandardCharsets.UTF_8));
      }
    }
    assertThat(sources.keySet()).as("the generated files").containsExactlyElementsOf(pinned.keySet());
    for (Map.Entry<String, String> e : sources.entrySet()) {
      String expected = pinned.get(e.getKey());
      if (!expected.equals(e.getValue())) {
        throw new AssertionFailedError(e.getKey() + " differs from its golden file (regenerate with -D" + UPDATE
            + "=true and review the diff)", expected, e.getValue());
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {OpenApiDocuments.PETSTORE, OpenApiDocuments.USPTO})
  void theSameDocumentGivesTheSameBytesAndEveryLineIsAscii(String document) {
    SortedMap<String, String> first = GeneratedConnector.generate(document, OpenApiDocuments.config(document)).sources();
    SortedMap<String, String> second = GeneratedConnector.generate(document, OpenApiDocuments.config(document)).sources();
    assertThat(second).isEqualTo(first);
    first.forEach((file, text) -> assertThat(text.chars().allMatch(c -> c == '\n' || (c >= 0x20 && c < 0x7f)))
        .as("%s is printable ASCII", file).isTrue());
  }

  @ParameterizedTest
  @ValueSource(strings = {OpenApiDocuments.PETSTORE, OpenApiDocuments.USPTO})
  void theGeneratedConnectorCompilesUnderTheProcessorWithNoWarning(String document, @TempDir Path dir) {
    GeneratedConnector connector = GeneratedConnector.build(document, OpenApiDocuments.config(document), dir);
    assertThat(connector.warnings).as("javac -Xlint:all and fusion processor warnings").isEmpty();
    assertThat(dir.resolve("generated")).isDirectoryRecursivelyContaining(
        "glob:**/" + OpenApiDocuments.routerClass(document) + "_Fusion.java");
  }
}
