package dev.mcpfusion.maven;

import dev.mcpfusion.lock.Contract;
import dev.mcpfusion.lock.ContractLoader;
import dev.mcpfusion.lock.LockProfile;
import dev.mcpfusion.lock.Lockfile;
import dev.mcpfusion.core.spi.RouterDescriptor;
import java.io.File;
import java.io.IOException;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.Parameter;

/** What both goals share: where the classes are and how the live contract is computed from them. */
abstract class AbstractLockMojo extends AbstractMojo {

  /** The compiled classes holding the generated {@code *_Fusion} routers. */
  @Parameter(defaultValue = "${project.build.outputDirectory}", required = true, readonly = true)
  File classesDirectory;

  /** The compile class path (the classes directory and every dependency). */
  @Parameter(defaultValue = "${project.compileClasspathElements}", required = true, readonly = true)
  List<String> classpathElements;

  /** The lockfile, at the connector's root by default. */
  @Parameter(property = "mcpfusion.lockfile", defaultValue = "${project.basedir}/mcpfusion.lock", required = true)
  File lockfile;

  /**
   * A class with {@code public static LockProfile lockProfile()} declaring the serving profile
   * (exposition, separator, server-wide middleware); FLAT, {@code "_"}, no middleware when unset.
   */
  @Parameter(property = "mcpfusion.profileClass")
  String profileClass;

  /** Skips the goal. */
  @Parameter(property = "mcpfusion.skip", defaultValue = "false")
  boolean skip;

  /** Writes the lockfile of {@code contract} (unless it is already byte-identical) and logs it. */
  void write(Contract contract) throws MojoExecutionException {
    String text = Lockfile.write(contract);
    try {
      if (lockfile.isFile() && Files.readString(lockfile.toPath(), StandardCharsets.UTF_8).equals(text)) {
        getLog().info(lockfile + " is up to date (" + contract.tools().size() + " tools, "
            + contract.digest() + ")");
        return;
      }
      Files.writeString(lockfile.toPath(), text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new MojoExecutionException("Cannot write " + lockfile + ": " + e, e);
    }
    getLog().info("Wrote " + lockfile + " (" + contract.tools().size() + " tools, " + contract.digest()
        + "); commit it");
  }

  /**
   * The contract of the compiled connector: generated descriptors read through a class loader over
   * the project's class path; no class of the user's is instantiated. Empty when the module has no
   * generated router and no lockfile (a module of a multi-module build that is no connector).
   *
   * @throws MojoExecutionException when the module has a lockfile but no generated router (the
   *     processor did not run), or a generated class cannot be read
   */
  Optional<Contract> liveContract() throws MojoExecutionException {
    Path classes = classesDirectory.toPath();
    Set<Path> entries = new LinkedHashSet<>();
    entries.add(classes);
    if (classpathElements != null) {
      classpathElements.forEach(e -> entries.add(Path.of(e)));
    }
    try (URLClassLoader loader = ContractLoader.classLoader(new ArrayList<>(entries),
        Contract.class.getClassLoader())) {
      List<RouterDescriptor> routers = ContractLoader.load(classes, loader);
      List<dev.mcpfusion.core.spi.FeaturesDescriptor> features =
          ContractLoader.loadFeatures(classes, loader);
      if (routers.isEmpty() && features.isEmpty()) {
        if (!lockfile.isFile()) {
          getLog().info("No generated router (*_Fusion.class) in " + classes + " and no "
              + lockfile.getName() + ": nothing to lock in this module");
          return Optional.empty();
        }
        throw new MojoExecutionException("No generated router (*_Fusion.class) in " + classes
            + " but " + lockfile + " exists. Compile first (the goal runs after compile), and add"
            + " fusion-processor to the maven-compiler-plugin annotationProcessorPaths.");
      }
      LockProfile profile = ContractLoader.profile(profileClass, loader);
      return Optional.of(Contract.of(routers, features, profile));
    } catch (IllegalStateException | IllegalArgumentException e) {
      throw new MojoExecutionException(e.getMessage(), e);
    } catch (LinkageError e) {
      throw new MojoExecutionException("A class the generated code refers to is missing from the"
          + " compile class path (" + e + "); the lockfile reads types, it never runs them", e);
    } catch (IOException e) {
      throw new MojoExecutionException("Cannot close the class loader over " + classes + ": " + e, e);
    }
  }
}
