package dev.mcpfusion.core.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The fixtures that stand in for generated code in this module's tests (this module's tests cannot
 * run fusion-processor) say so, and say where the processor's real output is tested instead: none
 * claims to be what the processor generates, and the tests they point to exist.
 */
class HandWrittenFixturesTest {
  private static final Path FIXTURES = Path.of("src", "test", "java", "dev", "mcpfusion", "core",
      "server", "fixture");
  private static final Path ON_GENERATED_CODE = Path.of("..", "samples", "billing", "src", "test",
      "java", "dev", "mcpfusion", "samples", "billing", "GeneratedDescriptionsTest.java");

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void everyStandInForGeneratedCodeSaysItIsHandWrittenAndWhereTheRealOutputIsTested() throws IOException {
    List<Path> standIns;
    try (Stream<Path> files = Files.list(FIXTURES)) {
      standIns = files.filter(f -> {
        String text = read(f);
        return text.contains("implements GeneratedRouter") || text.contains("implements PresenterBinding");
      }).sorted().toList();
    }
    assertThat(standIns).hasSizeGreaterThanOrEqualTo(6);
    for (Path standIn : standIns) {
      assertThat(read(standIn)).as("%s", standIn.getFileName())
          .doesNotContainIgnoringCase("exactly as fusion-processor generates")
          .contains("A hand-written stand-in for the")
          .contains("{@code GeneratedDescriptionsTest}");
    }
    assertThat(ON_GENERATED_CODE).isRegularFile();
  }
}
