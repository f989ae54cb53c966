package dev.mcpfusion.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.Caller;
import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.gateway.UpstreamFailureTest.MutableClock;
import dev.mcpfusion.gateway.lab.LabTools;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolResult;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Handoff and return through the gateway; expired, forged, replayed and misaddressed tokens refused. */
class DelegationTest {
  private final MutableClock clock = new MutableClock();

  @Test
  void aHandoffCarriesStateToTheSpecialistAndTheReturnReconcilesWhatItProduced() {
    try (Gateway gateway = Gateway.builder().stdio("lab", TestServers.java(TestServers.LAB_MAIN))
        .delegation(LabTools.KEY, Duration.ofSeconds(60)).build();
        FusionTester tester = FusionTester.of(gateway.register(FusionServer.builder("g", "1")))
            .caller(Caller.of("alice", List.of()))) {
      assertThat(gateway.toolNames()).endsWith("gateway_handoff", "gateway_return");
      assertThat(tester.callTool("lab_lab_delegated", Map.of()).dataText()).isEqualTo("none");

      ToolResult handoff = tester.callTool("gateway_handoff",
          Map.of("target", "lab", "state", Map.of("invoice", "INV-0042")));
      assertThat(handoff.dataText()).isEqualTo("Handed off to lab. Its tools (lab_*) now act for"
          + " you under a signed delegation carrying this state: {\"invoice\":\"INV-0042\"}. Call"
          + " gateway_return when lab's part is done.");
      // Every call to the specialist carries a fresh token: the second is not a replay.
      for (int i = 0; i < 2; i++) {
        assertThat(tester.callTool("lab_lab_delegated", Map.of()).dataText())
            .isEqualTo("subject=alice target=lab issuer=gateway state={invoice=INV-0042}");
      }

      ToolResult back = tester.callTool("gateway_return", Map.of("state",
          Map.of("refund", "R-9", "invoice", "INV-0042")));
      assertThat(back.dataText()).isEqualTo("Back at the gateway from lab. State:"
          + " {\"invoice\":\"INV-0042\",\"refund\":\"R-9\"}; set by lab: refund.");
      assertThat(tester.callTool("lab_lab_delegated", Map.of()).dataText()).isEqualTo("none");

      // The reconciled state goes with the next handoff.
      tester.callTool("gateway_handoff", Map.of("target", "lab"));
      assertThat(tester.callTool("lab_lab_delegated", Map.of()).dataText())
          .isEqualTo("subject=alice target=lab issuer=gateway state={invoice=INV-0042, refund=R-9}");
    }
  }

  @Test
  void aReturnWithoutAHandoffIsRefusedSayingWhatToDo() {
    try (Gateway gateway = Gateway.builder().stdio("lab", TestServers.java(TestServers.LAB_MAIN))
        .delegation(LabTools.KEY, Duration.ofSeconds(60)).build();
        FusionTester tester = FusionTester.of(gateway.register(FusionServer.builder("g", "1")))) {
      ToolResult refused = tester.callTool("gateway_return", Map.of());
      assertThat(refused.errorCode()).isEqualTo("CONFLICT");
      assertThat(refused.errorText()).contains("This session is not handed off to a specialist")
          .contains("Call gateway_handoff first");
    }
  }

  @Test
  void anExpiredTokenIsRefused() {
    String token = minter().mint("alice", "lab", Map.of(), null);
    clock.advance(Duration.ofSeconds(61));
    assertRefused(() -> verifier().verify(token), "The delegation token expired 1 second ago.");
  }

  @Test
  void aForgedTokenIsRefused() {
    String token = minter().mint("alice", "lab", Map.of("role", "clerk"), null);
    String[] parts = token.split("\\.");
    String claims = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
        .replace("clerk", "admin");
    String altered = parts[0] + "." + Base64.getUrlEncoder().withoutPadding()
        .encodeToString(claims.getBytes(StandardCharsets.UTF_8)) + "." + parts[2];
    String otherKey = new DelegationMinter("another key of at least 32 bytes!".getBytes(
        StandardCharsets.UTF_8), "gateway", Duration.ofSeconds(60), clock)
        .mint("alice", "lab", Map.of(), null);
    String expected = "The delegation token's signature does not match: the gateway did not issue"
        + " it, or it was altered.";
    assertRefused(() -> verifier().verify(altered), expected);
    assertRefused(() -> verifier().verify(otherKey), expected);
    assertRefused(() -> verifier().verify("not-a-token"),
        "The delegation token is malformed: expected v1.<claims>.<signature>.");
  }

  @Test
  void aReplayedTokenIsRefusedAndSeenIdsAreForgottenOnceExpired() {
    DelegationVerifier verifier = verifier();
    String token = minter().mint("alice", "lab", Map.of(), null);
    assertThat(verifier.verify(token).subject()).isEqualTo("alice");
    assertRefused(() -> verifier.verify(token),
        "The delegation token was already used: each token is accepted once.");
    assertThat(verifier.remembered()).isEqualTo(1);
    clock.advance(Duration.ofSeconds(61));
    verifier.verify(minter().mint("bob", "lab", Map.of(), null));
    assertThat(verifier.remembered()).isEqualTo(1);
  }

  @Test
  void aTokenForAnotherTargetIsRefused() {
    String token = minter().mint("alice", "crm", Map.of(), null);
    assertRefused(() -> verifier().verify(token), "The delegation token is for crm, not lab.");
  }

  @Test
  void theTokenCarriesTheTraceContext() {
    String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    Delegation delegation = verifier().verify(minter().mint("alice", "lab", Map.of(), traceparent));
    assertThat(delegation.traceparent()).isEqualTo(traceparent);
    assertThat(delegation.expiresAt()).isEqualTo(clock.instant().plusSeconds(60));
  }

  @Test
  void aShortKeyIsRefusedNamingTheFix() {
    assertThatThrownBy(() -> DelegationVerifier.of(new byte[16], "lab"))
        .hasMessage("a delegation key needs at least 32 bytes (256 bits) but has 16; generate one"
            + " with: openssl rand -base64 32");
  }

  private DelegationMinter minter() {
    return new DelegationMinter(LabTools.KEY, "gateway", Duration.ofSeconds(60), clock);
  }

  private DelegationVerifier verifier() {
    return DelegationVerifier.of(LabTools.KEY, "lab").clock(clock);
  }

  private static void assertRefused(Runnable verify, String message) {
    assertThatThrownBy(verify::run).isInstanceOfSatisfying(FusionError.class, e -> {
      assertThat(e.code()).isEqualTo("FORBIDDEN");
      assertThat(e.getMessage()).isEqualTo(message);
      assertThat(e.recovery()).isEqualTo("Do not retry with this token. Go back to the gateway and"
          + " hand off again to get a new one.");
    });
  }
}
