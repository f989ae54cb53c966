package dev.mcpfusion.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The processor stays readable: validation, models and writers in separate classes, none of them
 * large enough to hide a second responsibility.
 */
class ProcessorShapeTest {
  private static final int MAX_LINES = 400;
  /**
   * The diagnostic catalogue is data, one entry per code, and grows with the codes; the cap is for
   * files that hold logic.
   */
  private static final String CATALOGUE = "Diagnostic.java";

  @Test
  void noProcessorSourceFileIsLongerThanFourHundredLines() throws IOException {
    Map<String, Integer> tooLong = new TreeMap<>();
    try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
        int lines = Files.readAllLines(f).size();
        if (lines > MAX_LINES && !f.getFileName().toString().equals(CATALOGUE)) {
          tooLong.put(f.getFileName().toString(), lines);
        }
      }
    }
    assertThat(tooLong).as("files over %d lines", MAX_LINES).isEmpty();
  }
}
