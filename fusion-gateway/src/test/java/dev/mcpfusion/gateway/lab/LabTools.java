package dev.mcpfusion.gateway.lab;

import dev.mcpfusion.annotation.Action;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.trace.TraceContext;

/** The tests' own upstream: echoes, sleeps, fails and dies on request. */
@Router(value = "lab", description = "A laboratory upstream for the gateway's tests")
public final class LabTools {
  @Query(description = "Echo the text back")
  public String echo(String text) {
    return "echo: " + text;
  }

  @Query(description = "Tell the traceparent this call came with")
  public String traceparent(RequestContext request) {
    TraceContext context = TraceContext.from(request);
    return context.hasParent() ? context.traceparent() : "none";
  }

  /** The delegation key the tests' gateways share with the lab. */
  public static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.UTF_8);
  private static final dev.mcpfusion.gateway.DelegationVerifier VERIFIER =
      dev.mcpfusion.gateway.DelegationVerifier.of(KEY, "lab");

  @Query(description = "Tell who this call acts for, by its delegation token")
  public String delegated(RequestContext request) {
    return VERIFIER.verify(request)
        .map(d -> "subject=" + d.subject() + " target=" + d.target() + " issuer=" + d.issuer()
            + " state=" + new java.util.TreeMap<>(d.state()))
        .orElse("none");
  }

  @Action(description = "Sleep for ms milliseconds, then answer")
  public String sleep(int ms) throws InterruptedException {
    Thread.sleep(ms);
    return "slept " + ms;
  }

  @Action(description = "Refuse with a conflict")
  public String refuse() {
    throw FusionError.conflict("The lab refuses <on purpose>.")
        .recovery("Ask the lab nicely.");
  }

  @Action(description = "End the upstream's process before answering")
  public String exit() {
    Runtime.getRuntime().halt(3);
    return "unreachable";
  }
}
