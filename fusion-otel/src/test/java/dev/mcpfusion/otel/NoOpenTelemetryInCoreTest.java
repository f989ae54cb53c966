package dev.mcpfusion.otel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * DESIGN §2: fusion-core has no OpenTelemetry dependency. Seen from here, where OpenTelemetry
 * is on the classpath: neither fusion-core's pom nor any of its compiled classes names it (the
 * test beside the SPI, in fusion-core, proves its classpath lacks it).
 */
class NoOpenTelemetryInCoreTest {
  @Test
  void noFusionCoreClassReferencesOpenTelemetry() throws Exception {
    Path classes = Path.of(FusionServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    byte[] needle = "io/opentelemetry".getBytes(StandardCharsets.UTF_8);
    List<Path> all;
    if (Files.isDirectory(classes)) {
      try (Stream<Path> files = Files.walk(classes)) {
        all = files.filter(p -> p.toString().endsWith(".class")).toList();
      }
    } else {
      throw new AssertionError("fusion-core is expected as a reactor classes directory, was " + classes);
    }
    assertThat(all).hasSizeGreaterThan(50);
    for (Path p : all) {
      String text = new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1);
      assertThat(text).as(p.toString()).doesNotContain(new String(needle, StandardCharsets.ISO_8859_1));
    }
  }

  @Test
  void fusionCoresPomDeclaresNoOpenTelemetryArtifact() throws Exception {
    Path classes = Path.of(FusionServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    // <module>/<target dir>/classes -> <module>/pom.xml
    Path pom = classes.getParent().getParent().resolve("pom.xml");
    assertThat(pom).exists();
    assertThat(Files.readString(pom)).contains("<artifactId>fusion-core</artifactId>")
        .doesNotContain("opentelemetry");
  }
}
