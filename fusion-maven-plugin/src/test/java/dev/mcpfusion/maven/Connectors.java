package dev.mcpfusion.maven;

import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.lock.Contract;
import dev.mcpfusion.lock.ContractLoader;
import dev.mcpfusion.lock.LockProfile;
import dev.mcpfusion.core.spi.RouterDescriptor;
import dev.mcpfusion.processor.FusionProcessor;
import jakarta.validation.constraints.NotBlank;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
 * Annotated connectors compiled in the test with javac and the real fusion processor, the way a
 * user's build compiles them, into a fresh classes directory.
 */
final class Connectors {
  private Connectors() {}

  /** The billing connector every test edits: a router whose static initialiser and constructor both throw. */
  static Map<String, String> billing() {
    Map<String, String> files = new LinkedHashMap<>();
    files.put("acme/Invoice.java", """
        package acme;

        import dev.mcpfusion.annotation.Describe;
        import dev.mcpfusion.annotation.Hidden;
        import dev.mcpfusion.annotation.Model;

        @Model(description = "A customer invoice")
        public record Invoice(
            @Describe("Invoice ID, e.g. INV-0042") String id,
            @Describe("Total in integer cents") long totalCents,
            @Describe("Customer name") String customer,
            @Hidden String secret) {}
        """);
    files.put("acme/InvoiceView.java", """
        package acme;

        import dev.mcpfusion.annotation.Presenter;
        import dev.mcpfusion.annotation.Rules;
        import java.util.List;

        @Presenter(model = Invoice.class, agentLimit = 50)
        @Rules("Money is in integer cents.")
        public record InvoiceView(String id, long totalCents) {
        }
        """);
    files.put("acme/InvoiceSummary.java", """
        package acme;

        import dev.mcpfusion.annotation.Presenter;
        import dev.mcpfusion.annotation.Rules;

        @Presenter(model = Invoice.class, agentLimit = 50)
        @Rules("Money is in integer cents.")
        public record InvoiceSummary(String id, long totalCents) {}
        """);
    files.put("acme/Guard.java", middleware("Guard"));
    files.put("acme/Audit.java", middleware("Audit"));
    files.put("acme/BillingTools.java", """
        package acme;

        import dev.mcpfusion.annotation.Action;
        import dev.mcpfusion.annotation.CacheControl;
        import dev.mcpfusion.annotation.CachePolicy;
        import dev.mcpfusion.annotation.Describe;
        import dev.mcpfusion.annotation.Invalidates;
        import dev.mcpfusion.annotation.Mutation;
        import dev.mcpfusion.annotation.Query;
        import dev.mcpfusion.annotation.Router;
        import dev.mcpfusion.annotation.Use;
        import jakarta.validation.constraints.NotBlank;
        import java.util.List;

        @Router(value = "billing", description = "Invoices: list, inspect and void them")
        @Use(Guard.class)
        public final class BillingTools {
          private static final String DATABASE = connect();

          public BillingTools() {
            throw new IllegalStateException("the lockfile must never construct a router");
          }

          private static String connect() {
            throw new IllegalStateException("the lockfile must never initialise a router class");
          }

          @Query(description = "List invoices, newest first", presenter = InvoiceView.class)
          @CacheControl(CachePolicy.NO_STORE)
          public List<Invoice> listInvoices(@Describe("Only invoices of this customer") String customer) {
            return List.of();
          }

          @Query(description = "Get one invoice", presenter = InvoiceView.class)
          public Invoice getInvoice(@NotBlank String id) {
            return null;
          }

          @Mutation(description = "Void an open invoice", presenter = InvoiceView.class)
          @Invalidates("billing.*")
          public Invoice voidInvoice(@NotBlank String id) {
            return null;
          }

          @Action(description = "Send the invoice by email")
          public void sendInvoice(@NotBlank String id) {
          }
        }
        """);
    return files;
  }

  private static String middleware(String name) {
    return """
        package acme;

        import dev.mcpfusion.core.FusionMiddleware;
        import dev.mcpfusion.core.Invocation;

        public final class NAME implements FusionMiddleware {
          @Override
          public Object invoke(Invocation call, Chain next) throws Exception {
            return next.proceed(call);
          }
        }
        """.replace("NAME", name);
  }

  /** {@code files} with {@code from} replaced by {@code to} in {@code file}; fails if {@code from} is absent. */
  static Map<String, String> edit(Map<String, String> files, String file, String from, String to) {
    String source = files.get(file);
    if (source == null || !source.contains(from)) {
      throw new IllegalArgumentException("no \"" + from + "\" in " + file);
    }
    Map<String, String> out = new LinkedHashMap<>(files);
    out.put(file, source.replace(from, to));
    return out;
  }

  /** Compiles {@code files} with the fusion processor into {@code dir}/classes; returns that directory. */
  static Path compile(Map<String, String> files, Path dir) {
    return compile(files, dir, compileClasspath());
  }

  /** The sources of a connector module ({@code src/main/java}), by path relative to it. */
  static Map<String, String> sources(Path sourceRoot) {
    try (java.util.stream.Stream<Path> walk = Files.walk(sourceRoot)) {
      Map<String, String> files = new java.util.TreeMap<>();
      for (Path p : walk.filter(f -> f.toString().endsWith(".java")).toList()) {
        files.put(sourceRoot.relativize(p).toString().replace('\\', '/'), Files.readString(p, StandardCharsets.UTF_8));
      }
      return files;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Compiles with the fusion processor against {@code classpath} into {@code dir}/classes. */
  static Path compile(Map<String, String> files, Path dir, String classpath) {
    try {
      Path src = Files.createDirectories(dir.resolve("src"));
      Path classes = Files.createDirectories(dir.resolve("classes"));
      Path generated = Files.createDirectories(dir.resolve("generated"));
      List<Path> sources = new ArrayList<>();
      for (Map.Entry<String, String> f : files.entrySet()) {
        Path p = src.resolve(f.getKey());
        Files.createDirectories(p.getParent());
        Files.writeString(p, f.getValue(), StandardCharsets.UTF_8);
        sources.add(p);
      }
      JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
      DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
      try (StandardJavaFileManager fm = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
        List<String> options = List.of("--release", "17", "-encoding", "UTF-8",
            "-classpath", classpath, "-d", classes.toString(), "-s", generated.toString());
        JavaCompiler.CompilationTask task = javac.getTask(null, fm, diagnostics, options, null,
            fm.getJavaFileObjectsFromPaths(sources));
        task.setProcessors(List.of(new FusionProcessor()));
        boolean ok = task.call();
        if (!ok) {
          throw new AssertionError("compilation failed:\n" + diagnostics.getDiagnostics().stream()
              .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
              .map(d -> d.getSource() + ":" + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT))
              .collect(Collectors.joining("\n")));
        }
      }
      return classes;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The annotations, the runtime SPI and jakarta.validation, wherever the test runner has them. */
  private static String compileClasspath() {
    return List.of(Router.class, RouterDescriptor.class, LockProfile.class, NotBlank.class).stream()
        .map(Connectors::location)
        .distinct()
        .collect(Collectors.joining(java.io.File.pathSeparator));
  }

  static String location(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The contract of the classes in {@code classes}, read as the plugin reads it. */
  static Contract contract(Path classes, LockProfile profile) {
    try (URLClassLoader loader = ContractLoader.classLoader(List.of(classes), Connectors.class.getClassLoader())) {
      return Contract.of(ContractLoader.load(classes, loader), profile);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
