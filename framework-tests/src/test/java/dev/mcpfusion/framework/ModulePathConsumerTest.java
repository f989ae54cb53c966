package dev.mcpfusion.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A connector written as a named module, compiled against the built fusion modules on the module
 * path: it reaches the user API and the code the processor generates for it, and nothing else.
 */
class ModulePathConsumerTest {
  private static final String MODULE_INFO = """
      module consumer {
        requires dev.mcpfusion.core;
        exports consumer.tools to dev.mcpfusion.core;
        exports consumer;
      }
      """;

  private static final String ROUTER = """
      package consumer.tools;

      import dev.mcpfusion.annotation.Query;
      import dev.mcpfusion.annotation.Router;
      import jakarta.validation.constraints.NotBlank;

      @Router(value = "greeter", description = "Greets people")
      public final class GreeterTools {
        @Query(description = "Greet someone by name")
        public String greet(@NotBlank String name) {
          return "Hello, " + name;
        }
      }
      """;

  private static final String MAIN = """
      package consumer;

      import dev.mcpfusion.core.FusionServer;
      import consumer.tools.GreeterTools;

      public final class Main {
        public static String serverName() {
          return FusionServer.builder("greeter", "1.0.0").register(new GreeterTools()).build().name();
        }
      }
      """;

  /** The test classpath's jars and module directories: the fusion modules and their dependencies. */
  private static List<Path> modulePath;

  @BeforeAll
  static void modulePathFromTheBuild() {
    modulePath = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path path = Path.of(entry);
      boolean jar = entry.endsWith(".jar") && Files.isRegularFile(path);
      boolean moduleDirectory = Files.isRegularFile(path.resolve("module-info.class"));
      if (jar || moduleDirectory) {
        modulePath.add(path);
      }
    }
    assertThat(ModuleFinder.of(modulePath.toArray(Path[]::new)).find("dev.mcpfusion.core"))
        .as("fusion-core as a module on the test classpath %s", modulePath)
        .isPresent();
  }

  @Test
  void aConsumerModuleCompilesAgainstTheUserApiAndItsGeneratedCode(@TempDir Path dir)
      throws IOException {
    Result result = compile(dir, MAIN);

    assertThat(result.errors()).isEmpty();
    assertThat(dir.resolve("out/consumer/tools/GreeterTools_Fusion.class")).isRegularFile();
  }

  @Test
  void aConsumerModuleCannotImportAnInternalPackage(@TempDir Path dir) throws IOException {
    Result result = compile(dir, """
        package consumer;

        import dev.mcpfusion.core.server.Pipeline;

        public final class Main {
          public static String serverName() {
            return Pipeline.class.getName();
          }
        }
        """);

    assertThat(result.errors())
        .anyMatch(e -> e.contains("package dev.mcpfusion.core.server is not visible")
            && e.contains("declared in module dev.mcpfusion.core, which does not export it"));
  }

  @Test
  void aConsumerModuleRunsOnTheModulePath(@TempDir Path dir) throws Exception {
    Result result = compile(dir, MAIN);
    assertThat(result.errors()).isEmpty();

    List<Path> runtimePath = new ArrayList<>(modulePath);
    runtimePath.add(0, dir.resolve("out"));
    ModuleFinder finder = ModuleFinder.of(runtimePath.toArray(Path[]::new));
    Configuration configuration = ModuleLayer.boot().configuration()
        .resolve(finder, ModuleFinder.of(), Set.of("consumer"));
    ModuleLayer layer = ModuleLayer.boot()
        .defineModulesWithOneLoader(configuration, ClassLoader.getPlatformClassLoader());
    ClassLoader loader = layer.findLoader("consumer");

    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(loader);
    try {
      Method serverName = loader.loadClass("consumer.Main").getMethod("serverName");
      assertThat(serverName.invoke(null)).isEqualTo("greeter");
      assertThat(layer.findModule("dev.mcpfusion.core")).get()
          .matches(Module::isNamed)
          .matches(m -> !m.isExported("dev.mcpfusion.core.server"), "exports no internals")
          .matches(m -> m.isExported("dev.mcpfusion.core.spi"), "exports the SPI");
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  /**
   * The published processor jar shades JavaPoet; its module descriptor must hold without it. Its
   * one dependency, fusion-annotations (the shared "did you mean"), comes along, as Maven's
   * annotationProcessorPaths brings a path's dependencies.
   */
  @Test
  void theShadedProcessorRunsFromTheProcessorModulePath(@TempDir Path dir) throws IOException {
    ModuleFinder finder = ModuleFinder.of(modulePath.toArray(Path[]::new));
    Path processor = finder.find("dev.mcpfusion.processor")
        .flatMap(m -> m.location()).map(Path::of).orElseThrow();
    assumeTrue(processor.toString().endsWith(".jar"),
        "the shaded jar exists from the package phase on; this run has " + processor);
    Path annotations = finder.find("dev.mcpfusion.annotation")
        .flatMap(m -> m.location()).map(Path::of).orElseThrow();

    Result result = compile(dir, MAIN, "--processor-module-path",
        processor + java.io.File.pathSeparator + annotations);

    assertThat(result.errors()).isEmpty();
    assertThat(dir.resolve("out/consumer/tools/GreeterTools_Fusion.class")).isRegularFile();
  }

  private record Result(List<String> errors) {}

  /** Compiles the consumer module with {@code main} as its {@code consumer.Main}, the processor on. */
  private static Result compile(Path dir, String main) throws IOException {
    // The processor runs from the processor path, as Maven's annotationProcessorPaths puts it.
    return compile(dir, main, "--processor-path", join(modulePath));
  }

  private static Result compile(Path dir, String main, String processorPathOption, String processorPath)
      throws IOException {
    Path src = dir.resolve("src");
    write(src.resolve("module-info.java"), MODULE_INFO);
    write(src.resolve("consumer/tools/GreeterTools.java"), ROUTER);
    write(src.resolve("consumer/Main.java"), main);
    Path out = Files.createDirectories(dir.resolve("out"));

    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
      // In-process javac would otherwise take java.class.path as the class path: the unnamed
      // module would then hold every fusion package, and the error would name it instead.
      files.setLocationFromPaths(StandardLocation.CLASS_PATH, List.of());
      List<File> sources;
      try (var walk = Files.walk(src)) {
        sources = walk.filter(p -> p.toString().endsWith(".java")).map(Path::toFile).toList();
      }
      List<String> options = List.of(
          "--release", "17",
          "--module-path", join(modulePath),
          processorPathOption, processorPath,
          "-processor", "dev.mcpfusion.processor.FusionProcessor",
          "-d", out.toString());
      boolean ok = javac.getTask(null, files, diagnostics, options, null,
          files.getJavaFileObjectsFromFiles(sources)).call();
      List<String> errors = diagnostics.getDiagnostics().stream()
          .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
          .map(d -> d.getMessage(Locale.ROOT))
          .collect(Collectors.toList());
      assertThat(ok).as("javac result agrees with its errors %s", errors).isEqualTo(errors.isEmpty());
      return new Result(errors);
    }
  }

  private static String join(List<Path> paths) {
    return paths.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }
}
