package dev.mcpfusion.framework;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The documentation keeps its promises to its readers: the README stays a user guide, a module
 * README stays a screen long, every link leads somewhere inside the repository, and every test,
 * class and package the docs name exists — so a rename or a move that leaves a page behind fails
 * the build and names the page and the stale name.
 */
class DocsTest {
  /** The README is a user guide: one paragraph per feature, the detail in {@code docs/}. */
  private static final int README_LINES = 300;
  /** A module README says what the module owns, may import and must not, in a screen. */
  private static final int MODULE_README_LINES = 60;

  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern CODE_SPAN = Pattern.compile("`([^`\\n]+)`");
  private static final Pattern STRING_LITERAL = Pattern.compile("\"[^\"]*\"");
  private static final Pattern TEST_NAME = Pattern.compile(
      "(?<![\\w.])([A-Z][A-Za-z0-9]*Test)(?![A-Za-z0-9])(?:[.#]([a-z][A-Za-z0-9]*)(…)?)?");
  private static final Pattern PACKAGE_NAME = Pattern.compile(
      "(?<![\\w.])(dev\\.mcpfusion(?:\\.[a-z][a-z0-9]*)+)(?![\\w])");
  /** A type name of two humps or more ({@code FusionServer}), wherever it stands in a code span. */
  private static final Pattern CAMEL = Pattern.compile(
      "(?<![\\w.$-])([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+)(?![\\w-])");
  /** A one-hump type name used as a type: a span of its own, or followed by a member. */
  private static final Pattern ONE_HUMP = Pattern.compile(
      "^@?([A-Z][a-z0-9]+)$|(?<![\\w.$-])([A-Z][a-z0-9]+)(?=\\.[a-z]|#[a-z]|::)");

  /**
   * Types the docs name that the project does not declare: the JDK's, the libraries' and the
   * protocol's. A project type is never listed here, so its rename or removal fails the test.
   */
  private static final Set<String> EXTERNAL_TYPES = Set.of(
      // JDK
      "AutoCloseable", "BigDecimal", "BigInteger", "CyclicBarrier", "IllegalArgumentException",
      "IllegalStateException", "InterruptedException", "LinkedHashMap", "LocalDate", "OffsetDateTime",
      "Instant", "Locale", "Optional", "String", "Map", "List", "Set", "Stream", "Iterable", "Object",
      "Class", "Duration", "Thread", "System", "Path", "UUID", "Generated", "Long",
      "UnsupportedOperationException", "OutputDirectoryCreator", "SuppressWarnings",
      "CompletionStage", "CompletableFuture",
      // HotSpot options the launch names (-XX:...)
      "UseSerialGC", "TieredStopAtLevel", "CompileThresholdScaling",
      // JUnit, AssertJ, jqwik
      "ParameterResolver", "AfterEachCallback", "RegisterExtension",
      // Jackson, MCP SDK, Reactor
      "JsonNode", "ObjectMapper", "JsonMapper", "McpSchema", "McpServer", "McpSyncClient", "CallToolResult",
      "CreateTaskResult",
      "HttpServletStreamableServerTransportProvider", "StdioServerTransportProvider",
      "HttpServletMcpTransport", "ToolsFeature", "ValueEncoder", "JToon",
      // HTTP headers, Servlet, Jetty, Spring
      "Accept", "Host", "Origin", "HttpServlet", "ServletRegistrationBean", "Component", "Bean", "Transactional",
      "ConfigurationProperties",
      // OpenTelemetry
      "OpenTelemetry", "Baggage", "Span", "Context", "W3CTraceContextPropagator",
      "W3CBaggagePropagator",
      // jakarta.validation
      "NotNull", "NotBlank", "NotEmpty", "Size", "Min", "Max", "DecimalMin", "DecimalMax",
      "Positive", "PositiveOrZero", "Negative", "NegativeOrZero", "Pattern", "Email", "Constraint",
      "Valid", "Nullable");

  private static Path root;
  /** Each page's prose (fenced code blocks left out), by file. */
  private static Map<Path, String> docs;
  private static String readme;
  private static Set<String> declaredTypes;
  private static String testSources;

  @BeforeAll
  static void readTheDocsAndTheSources() throws IOException {
    root = Path.of("").toAbsolutePath().getParent();
    docs = new LinkedHashMap<>();
    readme = read(root.resolve("README.md"));
    docs.put(root.resolve("README.md"), prose(readme));
    try (Stream<Path> files = Files.walk(root.resolve("docs"))) {
      files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(p -> docs.put(p, prose(read(p))));
    }
    for (Path module : moduleReadmes()) {
      docs.put(module, prose(read(module)));
    }
    declaredTypes = new HashSet<>();
    StringBuilder tests = new StringBuilder();
    Pattern declaration = Pattern.compile("\\b(?:class|interface|enum|record|@interface)\\s+(\\w+)");
    for (Path source : javaSources()) {
      String text = read(source);
      Matcher m = declaration.matcher(text);
      while (m.find()) {
        declaredTypes.add(m.group(1));
      }
      if (source.toString().contains("/src/test/") || source.getFileName().toString().endsWith("Test.java")) {
        tests.append(text).append('\n');
      }
    }
    testSources = tests.toString();
  }

  @Test
  void theReadmeIsAUserGuideOfAtMost300Lines() {
    assertThat(lines(readme)).isLessThanOrEqualTo(README_LINES);
  }

  @Test
  void everyModuleReadmeIsAScreenLong() {
    List<String> long_ = new ArrayList<>();
    for (Path readme : moduleReadmes()) {
      int n = lines(read(readme));
      if (n > MODULE_README_LINES) {
        long_.add(root.relativize(readme) + " (" + n + " lines)");
      }
    }
    assertThat(moduleReadmes()).as("module READMEs found").isNotEmpty();
    assertThat(long_).as("module READMEs over %d lines", MODULE_README_LINES).isEmpty();
  }

  @Test
  void everyRelativeLinkLeadsToAFileOrHeadingInsideTheRepository() {
    List<String> broken = new ArrayList<>();
    docs.forEach((doc, text) -> {
      Matcher m = LINK.matcher(text);
      while (m.find()) {
        String target = m.group(1);
        if (target.matches("^[a-z]+:.*")) {
          continue;
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path resolved = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
        String where = root.relativize(doc) + " → " + target;
        if (!resolved.startsWith(root)) {
          broken.add(where + " (outside the repository)");
        } else if (!Files.exists(resolved)) {
          broken.add(where + " (no such file)");
        } else if (anchor != null && resolved.toString().endsWith(".md")
            && !anchors(read(resolved)).contains(anchor)) {
          broken.add(where + " (no such heading)");
        }
      }
    });
    assertThat(broken).isEmpty();
  }

  @Test
  void everyTestTheDocsNameExists() {
    List<String> missing = new ArrayList<>();
    forEachMatch(TEST_NAME, (doc, m) -> {
      String type = m.group(1);
      String method = m.group(2);
      if (!declaredTypes.contains(type)) {
        missing.add(doc + ": " + type);
      } else if (method != null) {
        boolean prefix = m.group(3) != null;
        Pattern declared = Pattern.compile("void " + Pattern.quote(method) + (prefix ? "\\w*" : "") + "\\(");
        if (!declared.matcher(testSources).find()) {
          missing.add(doc + ": " + type + "." + method + (prefix ? "…" : ""));
        }
      }
    });
    assertThat(missing).isEmpty();
  }

  @Test
  void everyPackageTheDocsNameExists() {
    Set<String> packages = new HashSet<>();
    for (Path source : javaSources()) {
      Path dir = source.getParent();
      String path = dir.toString().replace('\\', '/');
      int at = path.indexOf("/dev/mcpfusion");
      if (at >= 0) {
        String pkg = path.substring(at + 1).replace('/', '.');
        for (String p = pkg; p.contains("."); p = p.substring(0, p.lastIndexOf('.'))) {
          packages.add(p);
        }
      }
    }
    List<String> missing = new ArrayList<>();
    forEachMatch(PACKAGE_NAME, (doc, m) -> {
      String name = m.group(1);
      // The shaded JavaPoet exists only inside the published processor jar.
      if (!packages.contains(name) && !name.startsWith("dev.mcpfusion.processor.shaded")) {
        missing.add(doc + ": " + name);
      }
    });
    assertThat(missing).isEmpty();
  }

  @Test
  void everyTypeTheDocsNameExists() {
    // Diagnostic codes look like type names; the catalogue tests hold them.
    Set<String> codes = new HashSet<>();
    Matcher row = Pattern.compile("(?m)^\\| `([A-Za-z]+)` \\|").matcher(read(root.resolve("docs/diagnostics.md")));
    while (row.find()) {
      codes.add(row.group(1));
    }
    assertThat(codes).as("codes of docs/diagnostics.md").contains("HiddenFieldExposed", "ContextNotProvided");
    List<String> missing = new ArrayList<>();
    for (Map.Entry<Path, String> doc : docs.entrySet()) {
      for (String type : typesNamedIn(doc.getValue())) {
        if (!declaredTypes.contains(type) && !EXTERNAL_TYPES.contains(type) && !codes.contains(type)) {
          missing.add(root.relativize(doc.getKey()) + ": " + type);
        }
      }
    }
    assertThat(missing).isEmpty();
  }

  @Test
  void everyRepositoryPathTheDocsNameExists() throws IOException {
    Set<String> top = new HashSet<>();
    try (Stream<Path> entries = Files.list(root)) {
      entries.forEach(p -> top.add(p.getFileName().toString()));
    }
    List<String> missing = new ArrayList<>();
    forEachMatch(CODE_SPAN, (doc, m) -> {
      String path = m.group(1);
      int slash = path.indexOf('/');
      // A path as the docs write one: from the repository's root, no placeholders, globs or
      // build output.
      if (slash > 0 && top.contains(path.substring(0, slash)) && !path.matches(".*[\\s<>*…{}$].*")
          && !path.contains("target/")
          && !Files.exists(root.resolve(path))) {
        missing.add(doc + ": " + path);
      }
    });
    assertThat(missing).isEmpty();
  }

  /**
   * The type names of a page's code spans: string literals left out, since they are wire text, and
   * so are diagnostics' examples.
   */
  static Set<String> typesNamedIn(String text) {
    Set<String> types = new TreeSet<>();
    Matcher span = CODE_SPAN.matcher(text);
    while (span.find()) {
      if (span.group(1).startsWith("[fusion/")) {
        continue; // a diagnostic's example names the example's own classes
      }
      String code = STRING_LITERAL.matcher(span.group(1)).replaceAll("\"\"");
      Matcher camel = CAMEL.matcher(code);
      while (camel.find()) {
        types.add(camel.group(1));
      }
      Matcher one = ONE_HUMP.matcher(code);
      while (one.find()) {
        types.add(one.group(1) != null ? one.group(1) : one.group(2));
      }
    }
    return types;
  }

  private static void forEachMatch(Pattern pattern, java.util.function.BiConsumer<Path, Matcher> each) {
    docs.forEach((doc, text) -> {
      Matcher m = pattern.matcher(text);
      while (m.find()) {
        each.accept(root.relativize(doc), m);
      }
    });
  }

  /** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
  private static Set<String> anchors(String markdown) {
    Set<String> anchors = new HashSet<>();
    boolean fenced = false;
    for (String line : markdown.split("\n")) {
      if (line.startsWith("```")) {
        fenced = !fenced;
      } else if (!fenced && line.startsWith("#")) {
        String heading = line.replaceFirst("^#+\\s*", "").strip().toLowerCase(Locale.ROOT);
        anchors.add(heading.replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
      }
    }
    return anchors;
  }

  /** The README of every module the root POM lists (samples and benchmarks included). */
  private static List<Path> moduleReadmes() {
    Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(read(root.resolve("pom.xml")));
    List<Path> readmes = new ArrayList<>();
    while (m.find()) {
      Path readme = root.resolve(m.group(1).strip()).resolve("README.md");
      if (Files.exists(readme)) {
        readmes.add(readme);
      }
    }
    return readmes;
  }

  /** Every Java source under a {@code src} folder, build output and npm folders not entered. */
  private static List<Path> javaSources() {
    List<Path> sources = new ArrayList<>();
    try {
      Files.walkFileTree(root, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
          String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
          return name.equals("target") || name.equals("node_modules") || name.equals(".git")
              ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
          String path = file.toString().replace('\\', '/');
          if (path.endsWith(".java") && path.contains("/src/")) {
            sources.add(file);
          }
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return sources;
  }

  /** A page without its fenced code blocks: examples name the reader's own types, not ours. */
  private static String prose(String markdown) {
    StringBuilder prose = new StringBuilder();
    boolean fenced = false;
    for (String line : markdown.split("\n", -1)) {
      if (line.startsWith("```")) {
        fenced = !fenced;
      } else if (!fenced) {
        prose.append(line).append('\n');
      }
    }
    return prose.toString();
  }

  private static int lines(String text) {
    return (int) text.lines().count();
  }

  private static String read(Path path) {
    try {
      return Files.readString(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
