package dev.mcpfusion.core.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.FusionServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** fusion-core has no OpenTelemetry dependency; the tracing SPI is ours. */
class NoOpenTelemetryInCoreTest {
  @Test
  void openTelemetryIsNotOnCoresClasspathAtAll() {
    // fusion-core's whole dependency tree (test scope included) is on this classpath.
    for (String type : List.of("io.opentelemetry.api.OpenTelemetry",
        "io.opentelemetry.context.Context", "io.opentelemetry.api.trace.Span")) {
      assertThatThrownBy(() -> Class.forName(type, false, getClass().getClassLoader()))
          .isInstanceOf(ClassNotFoundException.class);
    }
  }

  @Test
  void noCompiledCoreClassReferencesOpenTelemetry() throws Exception {
    Path classes = Path.of(FusionServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    assertThat(classes).isDirectory();
    byte[] needle = "io/opentelemetry".getBytes(StandardCharsets.UTF_8);
    List<Path> offenders;
    int scanned;
    try (Stream<Path> files = Files.walk(classes)) {
      List<Path> all = files.filter(p -> p.toString().endsWith(".class")).toList();
      scanned = all.size();
      offenders = all.stream().filter(p -> contains(read(p), needle)).toList();
    }
    assertThat(scanned).as("classes scanned").isGreaterThan(50);
    assertThat(offenders).isEmpty();
  }

  private static byte[] read(Path p) {
    try {
      return Files.readAllBytes(p);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static boolean contains(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }
}
