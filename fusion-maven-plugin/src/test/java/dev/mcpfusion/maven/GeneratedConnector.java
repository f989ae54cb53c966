package dev.mcpfusion.maven;

import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.core.spi.RouterDescriptor;
import dev.mcpfusion.outbound.OutboundHttp;
import dev.mcpfusion.outbound.ProxyUpstreams;
import dev.mcpfusion.processor.FusionProcessor;
import jakarta.validation.constraints.NotBlank;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * A connector generated from one of the test documents, compiled with javac, every lint and the
 * real fusion processor the way a user's build compiles it, and loaded in its own class loader.
 */
final class GeneratedConnector {
  static final Path DOCUMENTS = Path.of(System.getProperty("basedir", "."), "src/test/resources/openapi");

  final OpenApiGenerator.Output output;
  final List<String> warnings;
  final URLClassLoader loader;
  final String pkg;

  private GeneratedConnector(OpenApiGenerator.Output output, List<String> warnings, URLClassLoader loader, String pkg) {
    this.output = output;
    this.warnings = warnings;
    this.loader = loader;
    this.pkg = pkg;
  }

  static OpenApiGenerator.Output generate(String document, OpenApiConfig config) {
    try {
      return OpenApiGenerator.generate(DOCUMENTS.resolve(document), config);
    } catch (OpenApiGenerator.Refusal refusal) {
      throw new AssertionError(refusal.getMessage(), refusal);
    }
  }

  /** Generates {@code document} with {@code config}, compiles it into {@code dir} and loads it. */
  static GeneratedConnector build(String document, OpenApiConfig config, Path dir) {
    OpenApiGenerator.Output output = generate(document, config);
    List<String> warnings = compile(output.sources(), dir);
    try {
      URLClassLoader loader = new URLClassLoader(new URL[] {dir.resolve("classes").toUri().toURL()},
          GeneratedConnector.class.getClassLoader());
      return new GeneratedConnector(output, warnings, loader, config.packageName());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The classes compiled into {@code dir} by {@link #compile}, loaded. */
  static GeneratedConnector loaded(Path dir, String pkg) {
    try {
      URLClassLoader loader = new URLClassLoader(new URL[] {dir.resolve("classes").toUri().toURL()},
          GeneratedConnector.class.getClassLoader());
      return new GeneratedConnector(null, List.of(), loader, pkg);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Compiles {@code sources}; fails on an error, answers the warnings (lint included). */
  static List<String> compile(Map<String, String> sources, Path dir) {
    try {
      Path src = Files.createDirectories(dir.resolve("src"));
      Path classes = Files.createDirectories(dir.resolve("classes"));
      Path generated = Files.createDirectories(dir.resolve("generated"));
      OpenApiMojo.write(src, sources);
      List<Path> files;
      try (var walk = Files.walk(src)) {
        files = walk.filter(f -> f.toString().endsWith(".java")).sorted().toList();
      }
      JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
      DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
      try (StandardJavaFileManager fm = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
        List<String> options = List.of("--release", "17", "-encoding", "UTF-8", "-Xlint:all,-processing",
            "-classpath", classpath(), "-d", classes.toString(), "-s", generated.toString());
        JavaCompiler.CompilationTask task = javac.getTask(null, fm, diagnostics, options, null,
            fm.getJavaFileObjectsFromPaths(files));
        task.setProcessors(List.of(new FusionProcessor()));
        boolean ok = task.call();
        List<String> warnings = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
          if (d.getKind() == Diagnostic.Kind.WARNING || d.getKind() == Diagnostic.Kind.MANDATORY_WARNING) {
            warnings.add(d.getSource() + ":" + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT));
          }
        }
        if (!ok) {
          throw new AssertionError("the generated connector does not compile:\n" + diagnostics.getDiagnostics().stream()
              .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
              .map(d -> d.getSource() + ":" + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT))
              .collect(Collectors.joining("\n")));
        }
        return warnings;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * What a connector built on the generated sources has: annotations, runtime, outbound, jakarta —
   * no JSON library, which the generated code does not use.
   */
  private static String classpath() {
    return List.of(Router.class, RouterDescriptor.class, NotBlank.class, OutboundHttp.class,
            dev.mcpfusion.resilience.Upstreams.class).stream()
        .map(Connectors::location)
        .distinct()
        .collect(Collectors.joining(java.io.File.pathSeparator));
  }

  /**
   * Upstreams that configure the generated router {@code simpleName}'s {@code UPSTREAM} at
   * {@code baseUrl}, called through {@code http}: how a connector wires the generated code.
   */
  ProxyUpstreams upstreams(String simpleName, OutboundHttp http, String baseUrl) {
    try {
      String name = (String) loader.loadClass(pkg + "." + simpleName).getField("UPSTREAM").get(null);
      return ProxyUpstreams.builder().upstream(name, baseUrl, http).build();
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  /** A new instance of the generated router {@code simpleName} over {@code upstreams}. */
  Object router(String simpleName, ProxyUpstreams upstreams) {
    try {
      return loader.loadClass(pkg + "." + simpleName).getConstructor(ProxyUpstreams.class).newInstance(upstreams);
    } catch (java.lang.reflect.InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException thrown) {
        throw thrown;
      }
      throw new AssertionError(e);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }
}
