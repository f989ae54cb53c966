package dev.mcpfusion.maven;

import dev.mcpfusion.maven.ApiModel.Unsupported;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * Generates a connector from an OpenAPI 3.0 or 3.1 document: a {@code @Model} record per schema
 * (write-only, secret-like and configured properties {@code @Hidden}), a view of the readable
 * properties, and one router with an action per operation, each calling the API through
 * fusion-outbound's {@code ProxyUpstreams} (the guarded client and the status mapping of
 * {@code @Proxy} actions). Runs in {@code generate-sources} and adds its output
 * directory to the compile sources; the same document and configuration write the same bytes.
 * A construct it cannot map fails the goal, naming the document's JSON pointer and the fix, unless
 * {@code skipUnsupported} is set.
 */
@Mojo(name = "openapi", defaultPhase = LifecyclePhase.GENERATE_SOURCES, threadSafe = true)
public class OpenApiMojo extends AbstractMojo {

  /** The OpenAPI document (YAML or JSON). */
  @Parameter(property = "mcpfusion.openapi.spec", required = true)
  File spec;

  /** The package of the generated sources. */
  @Parameter(property = "mcpfusion.openapi.package", required = true)
  String packageName;

  /** The router name ({@code [a-z][a-z0-9_]*}), the prefix of every tool; its class is {@code <Name>Tools}. */
  @Parameter(property = "mcpfusion.openapi.router", required = true)
  String routerName;

  /** Properties to hide beyond the write-only and secret-like ones: {@code property} or {@code Record.property}. */
  @Parameter
  List<String> hiddenFields = new ArrayList<>();

  /** operationIds of operations to leave out. */
  @Parameter
  List<String> excludeOperations = new ArrayList<>();

  /** Leaves out what cannot be mapped (logged, and listed in the router's Javadoc) instead of failing. */
  @Parameter(property = "mcpfusion.openapi.skipUnsupported", defaultValue = "false")
  boolean skipUnsupported;

  /** Where the sources are written; added to the compile source roots. */
  @Parameter(defaultValue = "${project.build.directory}/generated-sources/openapi", required = true)
  File outputDirectory;

  /** Skips the goal. */
  @Parameter(property = "mcpfusion.skip", defaultValue = "false")
  boolean skip;

  @Parameter(defaultValue = "${project}", readonly = true)
  MavenProject project;

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("mcpfusion openapi skipped");
      return;
    }
    OpenApiGenerator.Output output;
    try {
      output = OpenApiGenerator.generate(spec.toPath(), new OpenApiConfig(packageName, routerName,
          hiddenFields == null ? List.of() : hiddenFields, excludeOperations == null ? List.of() : excludeOperations));
    } catch (OpenApiGenerator.Refusal refusal) {
      throw new MojoFailureException(refusal.getMessage());
    }
    if (!output.unsupported().isEmpty()) {
      String report = unsupported(spec.getName(), output.unsupported());
      if (!skipUnsupported) {
        throw new MojoFailureException(report + "\nOr set <skipUnsupported>true</skipUnsupported> to generate"
            + " the rest and leave these out.");
      }
      getLog().warn(report);
    }
    try {
      write(outputDirectory.toPath(), output.sources());
    } catch (IOException e) {
      throw new MojoExecutionException("Cannot write the generated sources to " + outputDirectory + ": " + e, e);
    }
    if (project != null) {
      project.addCompileSourceRoot(outputDirectory.getPath());
    }
    getLog().info("Generated " + output.sources().size() + " sources from " + spec.getName() + " into "
        + outputDirectory);
  }

  /** The report of what the document holds that the goal does not map: one line per construct. */
  static String unsupported(String document, List<Unsupported> items) {
    StringBuilder out = new StringBuilder(document).append(" has ").append(items.size())
        .append(items.size() == 1 ? " construct" : " constructs").append(" the openapi goal does not map:");
    for (Unsupported u : items) {
      out.append("\n  ").append(document).append(u.pointer()).append(": ").append(u.what())
          .append(". Fix: ").append(u.fix()).append('.');
    }
    return out.toString();
  }

  /** Writes {@code sources} under {@code root} and deletes any other file under the package directories. */
  static void write(Path root, Map<String, String> sources) throws IOException {
    Set<Path> dirs = new TreeSet<>();
    for (Map.Entry<String, String> e : sources.entrySet()) {
      Path file = root.resolve(e.getKey());
      dirs.add(file.getParent());
      Files.createDirectories(file.getParent());
      if (!Files.isRegularFile(file) || !Files.readString(file, StandardCharsets.UTF_8).equals(e.getValue())) {
        Files.writeString(file, e.getValue(), StandardCharsets.UTF_8);
      }
    }
    for (Path dir : dirs) {
      try (Stream<Path> files = Files.list(dir)) {
        for (Path stale : files.filter(f -> f.toString().endsWith(".java")).toList()) {
          if (!sources.containsKey(root.relativize(stale).toString().replace('\\', '/'))) {
            Files.delete(stale);
          }
        }
      }
    }
  }
}
