package dev.mcpfusion.processor;

import com.google.testing.compile.Compilation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.tools.JavaFileObject;

/**
 * Compiles every fixture and writes the generated sources' bytes to a folder. Run in a second JVM
 * by {@link DeterminismTest} (other locale, encoding, time zone, source order).
 */
public final class DumpGenerated {
  private DumpGenerated() {}

  /** {@code args[0]}: output folder; {@code args[1]}: {@code reverse} to compile in reverse order. */
  public static void main(String[] args) throws IOException {
    Path out = Path.of(args[0]);
    boolean reverse = args.length > 1 && args[1].equals("reverse");
    Files.createDirectories(out);
    Files.writeString(out.resolve("environment.txt"), java.util.Locale.getDefault() + " "
        + java.nio.charset.Charset.defaultCharset() + " " + java.util.TimeZone.getDefault().getID());
    for (Map.Entry<String, byte[]> e : generate(reverse).entrySet()) {
      Path file = out.resolve(e.getKey());
      Files.createDirectories(file.getParent());
      Files.write(file, e.getValue());
    }
  }

  /** Generated source path → bytes, sorted by path. */
  static Map<String, byte[]> generate(boolean reverse) {
    List<JavaFileObject> sources = new ArrayList<>(Fixtures.all());
    if (reverse) {
      Collections.reverse(sources);
    }
    Compilation c = Fixtures.compile(sources.toArray(new JavaFileObject[0]));
    if (c.status() != Compilation.Status.SUCCESS) {
      throw new IllegalStateException("fixtures did not compile: " + c.diagnostics());
    }
    Map<String, byte[]> files = new TreeMap<>();
    for (JavaFileObject f : c.generatedSourceFiles()) {
      String name = f.getName();
      name = name.substring(name.indexOf("SOURCE_OUTPUT/") + "SOURCE_OUTPUT/".length());
      try (InputStream in = f.openInputStream()) {
        files.put(name, in.readAllBytes());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return files;
  }
}
