package dev.mcpfusion.framework;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaGenericArrayType;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaParameterizedType;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.domain.JavaTypeVariable;
import com.tngtech.archunit.core.domain.JavaWildcardType;
import com.tngtech.archunit.core.domain.ThrowsDeclaration;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The public surface of every published module — each type in a package exported to every module
 * (all packages of a module without a descriptor, which runs as an automatic module) and its
 * public and protected members — written deterministically and compared with the checked-in
 * {@code public-surface.txt}. The surface grows only on purpose: a difference fails with the diff
 * and the command that rewrites the file, and every listed top-level type must be named in its
 * module's README (a member type, such as {@code FusionServer.Builder}, with the type that holds
 * it). Class files are read without loading them (ArchUnit), so a module whose dependencies this
 * build leaves out (the starter's Spring, the plugin's Maven API) is read all the same.
 */
class PublicSurfaceTest {
  static final String UPDATE = "fusion.updateSurface";
  static final String REWRITE = "mvn -B test -pl framework-tests -am -Dtest=PublicSurfaceTest"
      + " -Dsurefire.failIfNoSpecifiedTests=false -D" + UPDATE + "=true";
  private static final String SDK = "io.modelcontextprotocol";

  private static Path root;
  private static List<ModuleSurface> modules;

  /**
   * One published module: its directory, descriptor name (or artifact id), exported types (header
   * line to member lines) and which of them are member types of another.
   */
  record ModuleSurface(String artifactId, Path dir, String name, TreeMap<String, List<String>> types,
      Set<String> nested) {}

  @BeforeAll
  static void readTheBuiltModules() throws Exception {
    root = Path.of("").toAbsolutePath().getParent();
    modules = new ArrayList<>();
    Map<String, Path> built = builtModules();
    for (String artifactId : publishedArtifacts()) {
      Path location = built.get(artifactId);
      assertThat(location).as("%s's classes on the framework-tests class path", artifactId).isNotNull();
      modules.add(surface(artifactId, location));
    }
  }

  @Test
  void theSurfaceIsTheCheckedInList() throws IOException {
    String actual = render(modules);
    Path file = root.resolve("framework-tests/src/test/resources/public-surface.txt");
    if (Boolean.getBoolean(UPDATE)) {
      Files.writeString(file, actual, StandardCharsets.UTF_8);
    }
    assertThat(file).as("the checked-in surface; write it with: %s", REWRITE).exists();
    String expected = Files.readString(file, StandardCharsets.UTF_8);
    if (!expected.equals(actual)) {
      throw new AssertionError("The public surface differs from " + root.relativize(file) + ":\n"
          + diff(parse(expected), parse(actual))
          + "If the change is intended, name each new type in its module's README, then rewrite the"
          + " file:\n  " + REWRITE + "\nand commit it.");
    }
  }

  @Test
  void everyListedTypeIsNamedInItsModulesReadme() throws IOException {
    List<String> unnamed = new ArrayList<>();
    for (ModuleSurface module : modules) {
      Path readme = module.dir().resolve("README.md");
      String text = Files.isRegularFile(readme) ? Files.readString(readme, StandardCharsets.UTF_8) : "";
      for (String header : module.types().keySet()) {
        String type = header.substring(0, header.indexOf(" : "));
        if (module.nested().contains(type)) {
          continue; // a member type is described with the type that holds it
        }
        String simple = type.substring(type.lastIndexOf('.') + 1);
        if (!Pattern.compile("(?<![\\w$])" + Pattern.quote(simple) + "(?![\\w$])").matcher(text).find()) {
          unnamed.add(module.artifactId() + "/README.md does not name " + type);
        }
      }
    }
    assertThat(unnamed).as("exported types without a README line").isEmpty();
  }

  /** The test kit hands back its own types and plain trees; the user API carries no SDK type either. */
  @Test
  void noExportedSignatureNamesAnSdkType() {
    List<String> found = new ArrayList<>();
    for (ModuleSurface module : modules) {
      module.types().forEach((type, members) -> {
        if (type.contains(SDK)) {
          found.add(type);
        }
        members.stream().filter(m -> m.contains(SDK)).forEach(m -> found.add(type + ": " + m));
      });
    }
    assertThat(found).isEmpty();
  }

  /** A rule over nothing proves nothing: the modules whose API the rules above guard are read. */
  @Test
  void theModulesWithAnApiAreRead() {
    Map<String, Integer> counts = modules.stream()
        .collect(Collectors.toMap(ModuleSurface::artifactId, m -> m.types().size()));
    assertThat(counts).containsKeys("fusion-annotations", "fusion-wire", "fusion-redact", "fusion-core", "fusion-lock", "fusion-http",
        "fusion-testing", "fusion-otel", "fusion-processor");
    assertThat(counts.get("fusion-core")).isPositive();
    assertThat(counts.get("fusion-testing")).isPositive();
    assertThat(counts.get("fusion-processor")).as("the processor exports nothing").isZero();
    assertThat(counts.get("fusion-wire")).as("the wire vocabulary is exported to framework modules only")
        .isZero();
    assertThat(counts.get("fusion-redact")).as("the redaction engine is exported to framework modules only")
        .isZero();
  }

  // ---- reading the modules -------------------------------------------------------------------

  /** The dev.mcpfusion artifacts fusion-bom manages: the modules we publish for others to use. */
  static List<String> publishedArtifacts() throws Exception {
    var bom = DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(root.resolve("fusion-bom/pom.xml").toFile());
    List<String> out = new ArrayList<>();
    var dependencies = bom.getElementsByTagName("dependency");
    for (int i = 0; i < dependencies.getLength(); i++) {
      Element d = (Element) dependencies.item(i);
      if ("dev.mcpfusion".equals(child(d, "groupId"))) {
        out.add(child(d, "artifactId"));
      }
    }
    return out;
  }

  /** Each class path entry of this repository by the artifact id of the module that built it. */
  private static Map<String, Path> builtModules() throws Exception {
    Map<String, Path> out = new LinkedHashMap<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path path = Path.of(entry).toAbsolutePath();
      if (!path.startsWith(root) || !Files.exists(path)) {
        continue;
      }
      Path dir = path.getParent();
      while (dir != null && !Files.isRegularFile(dir.resolve("pom.xml"))) {
        dir = dir.getParent();
      }
      if (dir != null) {
        var pom = DocumentBuilderFactory.newInstance().newDocumentBuilder()
            .parse(dir.resolve("pom.xml").toFile());
        out.putIfAbsent(child(pom.getDocumentElement(), "artifactId"), path);
      }
    }
    return out;
  }

  private static String child(Element parent, String tag) {
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(tag)) {
        return e.getTextContent().strip();
      }
    }
    return null;
  }

  private static ModuleSurface surface(String artifactId, Path location) throws Exception {
    Path dir = location.getParent();
    while (!Files.isRegularFile(dir.resolve("pom.xml"))) {
      dir = dir.getParent();
    }
    Optional<ModuleDescriptor> descriptor = descriptor(location);
    TreeSet<String> exported = new TreeSet<>();
    if (descriptor.isPresent()) {
      descriptor.get().exports().stream().filter(e -> !e.isQualified())
          .forEach(e -> exported.add(e.source()));
    } else {
      // No descriptor: on the module path it is an automatic module, which exports every package.
      for (String file : classFiles(location)) {
        int slash = file.lastIndexOf('/');
        if (slash > 0) {
          exported.add(file.substring(0, slash).replace('/', '.'));
        }
      }
    }
    TreeMap<String, List<String>> types = new TreeMap<>();
    ClassFileImporter importer = new ClassFileImporter();
    Iterable<JavaClass> classes;
    if (Files.isDirectory(location)) {
      classes = importer.importPath(location);
    } else {
      try (JarFile jar = new JarFile(location.toFile())) {
        classes = importer.importJar(jar);
      }
    }
    Set<String> nested = new TreeSet<>();
    for (JavaClass type : classes) {
      if (type.isTopLevelClass() && exported.contains(type.getPackageName())
          && type.getModifiers().contains(JavaModifier.PUBLIC)
          && !type.getSimpleName().equals("module-info") && !type.getSimpleName().equals("package-info")) {
        addType(type, types);
      } else if (type.isMemberClass()) {
        nested.add(type.getName().replace('$', '.'));
      }
    }
    return new ModuleSurface(artifactId, dir, descriptor.map(ModuleDescriptor::name).orElse(artifactId),
        types, nested);
  }

  private static List<String> classFiles(Path location) throws IOException {
    List<String> out = new ArrayList<>();
    if (Files.isDirectory(location)) {
      try (var walk = Files.walk(location)) {
        walk.filter(p -> p.toString().endsWith(".class"))
            .forEach(p -> out.add(location.relativize(p).toString().replace(File.separatorChar, '/')));
      }
    } else {
      try (JarFile jar = new JarFile(location.toFile())) {
        jar.stream().map(JarEntry::getName).filter(n -> n.endsWith(".class")).forEach(out::add);
      }
    }
    out.sort(null);
    return out;
  }

  private static Optional<ModuleDescriptor> descriptor(Path location) throws IOException {
    if (Files.isDirectory(location)) {
      Path info = location.resolve("module-info.class");
      if (!Files.isRegularFile(info)) {
        return Optional.empty();
      }
      try (InputStream in = Files.newInputStream(info)) {
        return Optional.of(ModuleDescriptor.read(in));
      }
    }
    try (JarFile jar = new JarFile(location.toFile())) {
      JarEntry info = jar.getJarEntry("module-info.class");
      if (info == null) {
        return Optional.empty();
      }
      try (InputStream in = jar.getInputStream(info)) {
        return Optional.of(ModuleDescriptor.read(in));
      }
    }
  }

  // ---- rendering -----------------------------------------------------------------------------

  /** A type, then its public and protected members, then its accessible member types. */
  private static void addType(JavaClass type, TreeMap<String, List<String>> types) {
    TreeSet<String> members = new TreeSet<>();
    for (JavaField f : type.getFields()) {
      if (visible(f.getModifiers())) {
        members.add(modifiers(f.getModifiers()) + name(f.getType()) + " " + f.getName());
      }
    }
    for (JavaCodeUnit c : type.getConstructors()) {
      if (visible(c.getModifiers())) {
        members.add(modifiers(c.getModifiers()) + typeParameters(c.getTypeParameters())
            + type.getSimpleName() + signature(c));
      }
    }
    for (JavaCodeUnit m : type.getMethods()) {
      Set<JavaModifier> modifiers = m.getModifiers();
      if (visible(modifiers)) {
        boolean isDefault = type.isInterface() && !modifiers.contains(JavaModifier.ABSTRACT)
            && !modifiers.contains(JavaModifier.STATIC);
        String text = modifiers(modifiers, type.isInterface() ? JavaModifier.ABSTRACT : null);
        members.add((isDefault ? text + "default " : text) + typeParameters(m.getTypeParameters())
            + name(m.getReturnType()) + " " + m.getName() + signature(m));
      }
    }
    types.put(header(type), List.copyOf(members));
    for (JavaClass nested : nestedOf(type)) {
      if (visible(nested.getModifiers())) {
        addType(nested, types);
      }
    }
  }

  /** The member types of {@code type}, found among the classes of its own package. */
  private static Set<JavaClass> nestedOf(JavaClass type) {
    return type.getPackage().getClasses().stream()
        .filter(c -> c.isMemberClass() && c.getEnclosingClass().map(type::equals).orElse(false))
        .collect(Collectors.toSet());
  }

  private static String header(JavaClass type) {
    String kind = type.isAnnotation() ? "@interface" : type.isInterface() ? "interface"
        : type.isEnum() ? "enum" : type.isRecord() ? "record" : "class";
    Set<JavaModifier> modifiers = new java.util.HashSet<>(type.getModifiers());
    if (type.isInterface()) {
      modifiers.remove(JavaModifier.ABSTRACT);
    }
    if (type.isEnum() || type.isRecord() || type.isInterface()) {
      modifiers.remove(JavaModifier.STATIC);
    }
    if (type.isEnum() || type.isRecord()) {
      modifiers.remove(JavaModifier.FINAL);
    }
    StringBuilder out = new StringBuilder(type.getName().replace('$', '.'));
    out.append(" : ").append(modifiers(modifiers)).append(kind)
        .append(typeParameters(type.getTypeParameters()).stripTrailing());
    type.getSuperclass().ifPresent(superclass -> {
      String name = name(superclass);
      if (!name.equals("java.lang.Object") && !type.isEnum() && !type.isRecord()) {
        out.append(" extends ").append(name);
      }
    });
    List<String> interfaces = type.getInterfaces().stream().map(PublicSurfaceTest::name)
        .filter(i -> !type.isAnnotation()).sorted().toList();
    if (!interfaces.isEmpty()) {
      out.append(type.isInterface() ? " extends " : " implements ").append(String.join(", ", interfaces));
    }
    return out.toString();
  }

  private static boolean visible(Set<JavaModifier> modifiers) {
    return (modifiers.contains(JavaModifier.PUBLIC) || modifiers.contains(JavaModifier.PROTECTED))
        && !modifiers.contains(JavaModifier.SYNTHETIC) && !modifiers.contains(JavaModifier.BRIDGE);
  }

  private static final List<JavaModifier> SHOWN = List.of(JavaModifier.PUBLIC, JavaModifier.PROTECTED,
      JavaModifier.STATIC, JavaModifier.FINAL, JavaModifier.ABSTRACT);

  private static String modifiers(Set<JavaModifier> modifiers) {
    return modifiers(modifiers, null);
  }

  private static String modifiers(Set<JavaModifier> modifiers, JavaModifier leftOut) {
    StringBuilder out = new StringBuilder();
    for (JavaModifier m : SHOWN) {
      if (modifiers.contains(m) && m != leftOut) {
        out.append(m.name().toLowerCase(java.util.Locale.ROOT)).append(' ');
      }
    }
    return out.toString();
  }

  private static String typeParameters(List<? extends JavaTypeVariable<?>> variables) {
    if (variables.isEmpty()) {
      return "";
    }
    return variables.stream().map(v -> {
      List<String> bounds = v.getUpperBounds().stream().map(PublicSurfaceTest::name)
          .filter(b -> !b.equals("java.lang.Object")).toList();
      return bounds.isEmpty() ? v.getName() : v.getName() + " extends " + String.join(" & ", bounds);
    }).collect(Collectors.joining(", ", "<", "> "));
  }

  private static String signature(JavaCodeUnit unit) {
    String parameters = unit.getParameterTypes().stream().map(PublicSurfaceTest::name)
        .collect(Collectors.joining(", ", "(", ")"));
    List<String> thrown = new ArrayList<>();
    for (ThrowsDeclaration<?> t : unit.getThrowsClause()) {
      thrown.add(name(t.getRawType()));
    }
    return thrown.isEmpty() ? parameters : parameters + " throws " + String.join(", ", thrown);
  }

  /** A type as written in source: canonical names, nested types with a dot. */
  private static String name(JavaType type) {
    if (type instanceof JavaClass c) {
      return c.isArray() ? name(c.getComponentType()) + "[]" : c.getName().replace('$', '.');
    }
    if (type instanceof JavaParameterizedType p) {
      return name(p.toErasure()) + p.getActualTypeArguments().stream().map(PublicSurfaceTest::name)
          .collect(Collectors.joining(", ", "<", ">"));
    }
    if (type instanceof JavaWildcardType w) {
      List<String> upper = w.getUpperBounds().stream().map(PublicSurfaceTest::name)
          .filter(b -> !b.equals("java.lang.Object")).toList();
      List<String> lower = w.getLowerBounds().stream().map(PublicSurfaceTest::name).toList();
      return "?" + (upper.isEmpty() ? "" : " extends " + String.join(" & ", upper))
          + (lower.isEmpty() ? "" : " super " + String.join(" & ", lower));
    }
    if (type instanceof JavaGenericArrayType a) {
      return name(a.getComponentType()) + "[]";
    }
    if (type instanceof JavaTypeVariable<?> v) {
      return v.getName();
    }
    throw new IllegalStateException("unknown kind of type " + type);
  }

  static String render(List<ModuleSurface> modules) {
    StringBuilder out = new StringBuilder();
    out.append("# The public surface of the published modules: every type in a package exported to\n")
        .append("# every module, with its public and protected members. Written by PublicSurfaceTest;\n")
        .append("# rewrite with: ").append(REWRITE).append('\n');
    for (ModuleSurface module : modules) {
      out.append("\n## ").append(module.artifactId()).append(" (").append(module.name()).append(")\n");
      if (module.types().isEmpty()) {
        out.append("(exports nothing)\n");
      }
      module.types().forEach((type, members) -> {
        out.append(type).append('\n');
        members.forEach(m -> out.append("  ").append(m).append('\n'));
      });
    }
    return out.toString();
  }

  // ---- diff ----------------------------------------------------------------------------------

  /** Each type line of the file with its member lines, in file order. */
  static Map<String, List<String>> parse(String text) {
    Map<String, List<String>> types = new LinkedHashMap<>();
    List<String> current = null;
    for (String line : text.split("\n")) {
      if (line.startsWith("#") || line.isBlank() || line.startsWith("(")) {
        continue;
      }
      if (line.startsWith("  ")) {
        if (current != null) {
          current.add(line.strip());
        }
      } else {
        current = new ArrayList<>();
        types.put(line, current);
      }
    }
    return types;
  }

  /** Types added and removed, and for a type in both, the members added and removed. */
  static String diff(Map<String, List<String>> expected, Map<String, List<String>> actual) {
    StringBuilder out = new StringBuilder();
    TreeSet<String> all = new TreeSet<>(expected.keySet());
    all.addAll(actual.keySet());
    for (String type : all) {
      List<String> before = expected.get(type);
      List<String> after = actual.get(type);
      if (before == null) {
        out.append("+ ").append(type).append('\n');
        after.forEach(m -> out.append("    + ").append(m).append('\n'));
      } else if (after == null) {
        out.append("- ").append(type).append('\n');
      } else if (!before.equals(after)) {
        out.append("~ ").append(type).append('\n');
        before.stream().filter(m -> !after.contains(m)).forEach(m -> out.append("    - ").append(m).append('\n'));
        after.stream().filter(m -> !before.contains(m)).forEach(m -> out.append("    + ").append(m).append('\n'));
      }
    }
    return out.toString();
  }
}
