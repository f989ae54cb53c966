package dev.mcpfusion.gateway;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** How the tests start upstreams: a main class of the test class path in a child JVM. */
final class TestServers {
  static final String BILLING_MAIN = "dev.mcpfusion.samples.billing.BillingMain";
  static final String LAB_MAIN = "dev.mcpfusion.gateway.lab.LabMain";

  private TestServers() {}

  /** The command that runs {@code mainClass} with this JVM's class path; logging on stderr only. */
  static List<String> java(String mainClass, String... args) {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xlog:disable", "-Xlog:all=warning:stderr", "-XX:TieredStopAtLevel=1", "-Xss512k",
        "-cp", System.getProperty("java.class.path"), mainClass));
    command.addAll(List.of(args));
    return command;
  }
}
