package dev.mcpfusion.framework.egress;

import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.ProtocolVersions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The vault served over stdio by a child JVM ({@link VaultServer#main}, i.e.
 * {@code FusionServer.serveStdio()}), as an MCP client runs a connector: every line the process
 * writes to stdout is recorded, and requests are lines on its stdin. Both eras share the one stream
 * in production; each wire here has a process of its own, so the eras' records stay apart.
 */
final class StdioWire extends StreamWire {
  private final Process process;
  private final OutputStream stdin;
  private final Path stderr;
  private final Thread reader;
  private volatile boolean closing;

  StdioWire(boolean modern) {
    super("stdio " + (modern ? ProtocolVersions.MODERN : ProtocolVersions.LATEST_CLASSIC), modern);
    try {
      stderr = Files.createTempFile("vault-stdio-", ".log");
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      process = new ProcessBuilder(java, "-Xlog:disable", "-Xlog:all=warning:stderr",
          "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
          "-cp", System.getProperty("java.class.path"), VaultServer.class.getName())
          .redirectError(stderr.toFile())
          .start();
    } catch (IOException e) {
      throw new UncheckedIOException("could not start the vault's stdio process", e);
    }
    stdin = process.getOutputStream();
    reader = new Thread(this::readStdout, "vault-stdio-reader");
    reader.setDaemon(true);
    reader.start();
    try {
      // The process is ready when it answers: ping is answered at any time, before any handshake.
      exchange(JsonRpc.PING, Map.of());
      if (!modern) {
        initialize();
      }
    } catch (RuntimeException | Error e) {
      close();
      throw e;
    }
  }

  private void readStdout() {
    try (BufferedReader lines = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        received(new Received("stdout", line, line));
      }
      if (!closing) {
        failed("the server closed stdout; stderr:\n" + stderrTail());
      }
    } catch (IOException e) {
      if (!closing) {
        failed("reading stdout failed: " + e + "; stderr:\n" + stderrTail());
      }
    }
  }

  @Override
  synchronized void send(String json) {
    try {
      stdin.write((json + "\n").getBytes(StandardCharsets.UTF_8));
      stdin.flush();
    } catch (IOException e) {
      throw new AssertionError(name() + ": could not write to the server: " + e + "; stderr:\n"
          + stderrTail(), e);
    }
  }

  private String stderrTail() {
    try {
      List<String> lines = Files.readAllLines(stderr, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }

  @Override
  public void close() {
    closing = true;
    try {
      stdin.close(); // end of input: the server finishes what is in flight and exits
      if (!process.waitFor(Duration.ofSeconds(20).toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
      }
      reader.join(Duration.ofSeconds(5).toMillis());
    } catch (IOException e) {
      process.destroyForcibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    } finally {
      try {
        Files.deleteIfExists(stderr);
      } catch (IOException e) {
        // A temp file left behind is harmless.
      }
    }
  }
}
