package dev.mcpfusion.maven;

import dev.mcpfusion.lock.Contract;
import java.util.Optional;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Writes {@code mcpfusion.lock} from the compiled connector: {@code mvn compile fusion:lock}, then
 * commit the file. Unchanged code rewrites it byte for byte.
 */
@Mojo(name = "lock", requiresDependencyResolution = ResolutionScope.COMPILE, threadSafe = true)
public class LockMojo extends AbstractLockMojo {

  @Override
  public void execute() throws MojoExecutionException {
    if (skip) {
      getLog().info("mcpfusion lock skipped");
      return;
    }
    Optional<Contract> live = liveContract();
    if (live.isPresent()) {
      write(live.get());
    }
  }
}
