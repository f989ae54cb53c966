package dev.mcpfusion.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.fixtures.Ops;
import dev.mcpfusion.http.hostile.HostileCorpus;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The hostile HTTP corpus ({@link HostileCorpus}) against an endpoint without auth: every request
 * gets its specific answer, below 500, nothing echoed, nothing logged at ERROR, and the endpoint
 * serves a good call afterwards. fusion-auth replays the same corpus with auth on.
 */
class HostileCorpusHttpTest {
  FusionHttpServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void everyHostileRequestGetsItsCleanSpecificAnswer() throws Exception {
    server = FusionHttp.serve(FusionServer.builder("ops", "1.0.0")
        .register(Ops.OpsTools_Fusion.bind(new Ops.OpsTools()))
        .context(Ops.Caller.class, Ops.Caller::from).build(),
        HttpOptions.port(0).stopOnShutdownSignal(false).maxBodyBytes(HostileCorpus.MAX_BODY_BYTES));
    int port = server.port();
    String session = HostileCorpus.openSession(port, null);
    // Without auth every caller may use every session: the one "another caller's" stands for was closed.
    String closed = HostileCorpus.openSession(port, null);
    HostileCorpus.closeSession(port, null, closed);

    PrintStream err = System.err;
    ByteArrayOutputStream logged = new ByteArrayOutputStream();
    System.setErr(new PrintStream(logged, true, StandardCharsets.UTF_8));
    List<String> problems;
    try {
      problems = HostileCorpus.replayAdmitted(port, null, Map.of("session", session,
          "foreign-session", closed, "tool", "ops_echo", "arg", "text"));
    } finally {
      System.setErr(err);
    }
    assertThat(HostileCorpus.requests()).hasSizeGreaterThanOrEqualTo(50);
    assertThat(problems).isEmpty();
    assertThat(logged.toString(StandardCharsets.UTF_8)).doesNotContain("ERROR");

    HostileCorpus.Answer good = HostileCorpus.send(port, HostileCorpus.goodCall(),
        null, Map.of("tool", "ops_echo", "arg", "text"));
    assertThat(good.status()).as(good.everything()).isEqualTo(200);
    assertThat(good.body()).contains("still serving");
  }
}
