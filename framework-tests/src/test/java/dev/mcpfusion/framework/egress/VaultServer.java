package dev.mcpfusion.framework.egress;

import dev.mcpfusion.annotation.Detector;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.Redaction;
import java.io.IOException;

/**
 * The vault connector as every transport of the egress property serves it: the server-wide
 * detectors for every kind the property plants, and {@link VaultTools}. Its {@link #main} is the
 * stdio process the property starts, exactly as a client would run a connector.
 */
public final class VaultServer {
  private VaultServer() {}

  /** The server-wide redaction: what the detectors find in every string. */
  static final Redaction REDACTION =
      Redaction.detecting(Detector.CARD, Detector.IBAN, Detector.API_KEY);

  /** A builder of a fresh vault server (its own, empty store). */
  public static FusionServer.Builder builder() {
    return FusionServer.builder("vault", "1.0.0")
        .register(new VaultTools())
        .redact(REDACTION);
  }

  /** Serves a fresh vault over stdio until stdin closes. */
  public static void main(String[] args) throws IOException {
    FusionServer.reserveStdout();
    builder().build().serveStdio();
  }
}
