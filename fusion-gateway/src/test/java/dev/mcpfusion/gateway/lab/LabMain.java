package dev.mcpfusion.gateway.lab;

import dev.mcpfusion.core.FusionServer;

/** Runs the lab upstream over stdio (the tests start it as a child JVM). */
public final class LabMain {
  private LabMain() {}

  public static void main(String[] args) throws Exception {
    FusionServer.reserveStdout();
    server().serveStdio();
  }

  /** The lab server. */
  public static FusionServer server() {
    return FusionServer.builder("lab", "1.0.0").register(new LabTools()).build();
  }
}
