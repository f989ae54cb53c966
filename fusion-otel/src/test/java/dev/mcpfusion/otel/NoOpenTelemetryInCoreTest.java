package dev.mcpfusion.otel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * fusion-core has no OpenTelemetry dependency. Seen from here, where OpenTelemetry
 * is on the classpath: neither fusion-core's pom nor any of its compiled classes names it (the
 * test beside the SPI, in fusion-core, proves its classpath lacks it).
 */
class NoOpenTelemetryInCoreTest {
  @Test
  void noFusionCoreClassReferencesOpenTelemetry() throws Exception {
    Path classes = Path.of(FusionServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    String needle = "io/opentelemetry";
    // The reactor hands over target/classes after `test` and the packaged jar after `verify`.
    java.util.Map<String, byte[]> all = new java.util.TreeMap<>();
    if (Files.isDirectory(classes)) {
      try (Stream<Path> files = Files.walk(classes)) {
        for (Path p : files.filter(f -> f.toString().endsWith(".class")).toList()) {
          all.put(p.toString(), Files.readAllBytes(p));
        }
      }
    } else {
      try (java.util.jar.JarFile jar = new java.util.jar.JarFile(classes.toFile())) {
        for (java.util.jar.JarEntry e : java.util.Collections.list(jar.entries())) {
          if (e.getName().endsWith(".class")) {
            try (java.io.InputStream in = jar.getInputStream(e)) {
              all.put(e.getName(), in.readAllBytes());
            }
          }
        }
      }
    }
    assertThat(all).hasSizeGreaterThan(50);
    for (java.util.Map.Entry<String, byte[]> e : all.entrySet()) {
      String text = new String(e.getValue(), StandardCharsets.ISO_8859_1);
      assertThat(text).as(e.getKey()).doesNotContain(needle);
    }
  }

  @Test
  void fusionCoresPomDeclaresNoOpenTelemetryArtifact() throws Exception {
    Path classes = Path.of(FusionServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    // <module>/<target dir>/classes or <module>/<target dir>/<name>.jar -> <module>/pom.xml
    Path pom = classes.getParent().getParent().resolve("pom.xml");
    assertThat(pom).exists();
    assertThat(Files.readString(pom)).contains("<artifactId>fusion-core</artifactId>")
        .doesNotContain("opentelemetry");
  }
}
