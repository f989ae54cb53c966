package dev.mcpfusion.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Same sources, byte-identical output: in any source order, locale, encoding and time zone. */
class DeterminismTest {

  @Test
  void generatedCodeIsLintClean() {
    var c = Fixtures.compile(List.of("-Xlint:all,-processing", "-Werror"),
        Fixtures.all().toArray(new javax.tools.JavaFileObject[0]));
    com.google.testing.compile.CompilationSubject.assertThat(c).succeededWithoutWarnings();
  }

  @Test
  void generatedSourcesArePureAscii() {
    for (Map.Entry<String, byte[]> e : DumpGenerated.generate(false).entrySet()) {
      for (byte b : e.getValue()) {
        assertThat(b & 0xff).as(e.getKey()).isLessThan(0x7f);
      }
    }
  }

  @Test
  void reverseOrderOtherLocaleEncodingAndTimeZoneInASeparateJvmGiveTheSameBytes(@TempDir Path dir)
      throws Exception {
    assertSameBytesIn(System.getProperty("java.home"), dir);
  }

  /**
   * The same on another JDK, when one is named by {@code -Dfusion.otherJdk=/path/to/jdk} (for
   * example a JDK 21 or 25 next to the build's JDK 17); skipped otherwise.
   */
  @Test
  void anotherJdkGivesTheSameBytes(@TempDir Path dir) throws Exception {
    String other = System.getProperty("fusion.otherJdk", "");
    Assumptions.assumeTrue(!other.isEmpty(), "no -Dfusion.otherJdk given");
    assertSameBytesIn(other, dir);
  }

  private static void assertSameBytesIn(String javaHome, Path dir) throws Exception {
    Map<String, byte[]> here = DumpGenerated.generate(false);
    assertThat(here).containsKeys("billing/BillingTools_Fusion.java",
        "billing/InvoiceView_Presenter.java", "orders/OrderTools_Fusion.java",
        "shop/Views_OrderView_Presenter.java", "intl/CafeTools_Fusion.java");

    String java = Path.of(javaHome, "bin", "java").toString();
    List<String> command = new ArrayList<>(List.of(java,
        "-Duser.language=tr", "-Duser.country=TR", "-Dfile.encoding=ISO-8859-1",
        "-Dsun.jnu.encoding=ISO-8859-1", "-Duser.timezone=Pacific/Kiritimati",
        "-cp", System.getProperty("java.class.path"),
        DumpGenerated.class.getName(), dir.toString(), "reverse"));
    Process process = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("child.log").toFile())
        .start();
    assertThat(process.waitFor(180, TimeUnit.SECONDS)).as("child JVM finished").isTrue();
    assertThat(process.exitValue())
        .as(Files.readString(dir.resolve("child.log"), StandardCharsets.ISO_8859_1)).isZero();

    assertThat(Files.readString(dir.resolve("environment.txt")))
        .isEqualTo("tr_TR ISO-8859-1 Pacific/Kiritimati");
    Map<String, byte[]> there = new TreeMap<>();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
        there.put(dir.relativize(f).toString().replace(File.separatorChar, '/'), Files.readAllBytes(f));
      }
    }
    assertThat(there.keySet()).containsExactlyElementsOf(here.keySet());
    for (String name : here.keySet()) {
      assertThat(there.get(name)).as(name).isEqualTo(here.get(name));
    }
  }
}
