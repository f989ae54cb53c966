package dev.mcpfusion.samples.billing;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The billing sample in a process of its own, started as a user starts it: {@link BillingMain}
 * (the jar's main class) with command-line options, stdout and stderr to a log file.
 */
final class BillingProcess {
  private BillingProcess() {}

  /** Starts it and returns once it says it listens; fails with its log if it exits or takes 60 s. */
  static Process listening(Path log, String... args) throws Exception {
    Process process = start(log, args);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Files.readString(log, StandardCharsets.UTF_8).contains("billing MCP server listening on")) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        process.destroyForcibly();
        throw new AssertionError("the billing sample did not start listening within 60 s (exit "
            + (process.isAlive() ? "-" : process.exitValue()) + "): "
            + Files.readString(log, StandardCharsets.UTF_8));
      }
      Thread.sleep(100);
    }
    return process;
  }

  /** Runs it to its end (at most 60 s) and returns its exit status. */
  static int exitStatus(Path log, String... args) throws Exception {
    Process process = start(log, args);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("the billing sample did not exit within 60 s: "
          + Files.readString(log, StandardCharsets.UTF_8));
    }
    return process.exitValue();
  }

  /** Stops it as SIGTERM does, then for good after 30 s. */
  static void stop(Process process) throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }

  private static Process start(Path log, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), BillingMain.class.getName()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }
}
