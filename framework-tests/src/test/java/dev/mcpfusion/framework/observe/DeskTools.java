package dev.mcpfusion.framework.observe;

import dev.mcpfusion.annotation.Complete;
import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Limits;
import dev.mcpfusion.annotation.Prompt;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Resource;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.core.Content;
import dev.mcpfusion.core.LogLevel;
import dev.mcpfusion.core.PromptResult;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.Root;
import dev.mcpfusion.core.Sampling;
import io.opentelemetry.api.trace.Span;
import jakarta.validation.constraints.NotBlank;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The observability fixture: one tool per outcome the metrics tell apart (a success, a validation
 * error, a timeout, a refusal by the gate), three that ask the client (sampling, elicitation, roots), one that talks back (progress, a log)
 * and one that attaches content, and a
 * prompt, a resource and a completion.
 */
@Router(value = "desk", description = "A help desk (the observability fixture)")
public final class DeskTools {
  /** Held by {@code hold} until released, so a second call finds the gate full. */
  final CountDownLatch release = new CountDownLatch(1);
  final CountDownLatch holding = new CountDownLatch(1);

  @Query(description = "Echo the text")
  public String echo(@NotBlank @Describe("Text to echo") String text) {
    return text;
  }

  @Query(description = "Never finishes in time")
  @Limits(timeoutMs = 50)
  public String slow() throws InterruptedException {
    Thread.sleep(10_000);
    return "late";
  }

  @Query(description = "Holds the only slot until released")
  @Limits(maxConcurrent = 1, queue = 0)
  public String hold() throws InterruptedException {
    holding.countDown();
    release.await(10, TimeUnit.SECONDS);
    return "released";
  }

  @Query(description = "A reply far over its byte cap")
  @Limits(maxEgressBytes = 1024)
  public String big() {
    return "x".repeat(5_000);
  }

  @Query(description = "The card on file (the server redacts card numbers)")
  public String card() {
    return "Card 4111 1111 1111 1111 is on file.";
  }

  @Query(description = "Ask the client's model")
  public String ask(RequestContext request) {
    return request.sample(Sampling.prompt("Say yes.").maxTokens(5)).text();
  }

  /** The form {@code confirm} shows the user. */
  public record Go(@Describe("Whether to go ahead") boolean ok) {}

  @Query(description = "Ask the user to confirm")
  public String confirm(RequestContext request) {
    return request.elicit(Go.class, "Go ahead?").accepted() ? "confirmed" : "not confirmed";
  }

  /** The id of the span current in {@code report} as it talked back (the handler's view). */
  volatile String reportedUnder;

  @Query(description = "Report progress and log while working")
  public String report(RequestContext request) {
    reportedUnder = Span.current().getSpanContext().getSpanId();
    request.progress(1, 2, "halfway");
    request.log(LogLevel.WARNING, "working");
    return "done";
  }

  @Query(description = "An answer with a note attached")
  public String attach(RequestContext request) {
    request.attach(Content.text("the attached note"));
    return "see the note";
  }

  @Query(description = "The client's roots")
  public String roots(RequestContext request) {
    return request.roots().stream().map(Root::uri).collect(Collectors.joining(" "));
  }

  @Prompt(description = "Greet a person")
  public PromptResult greeting(@NotBlank @Describe("Who") String name) {
    return PromptResult.user("Greet " + name + ".");
  }

  @Resource(uri = "desk://tickets/{id}", description = "One ticket", mimeType = "text/plain")
  public String ticket(String id) {
    return "Ticket " + id + " is open.";
  }

  @Complete(prompt = "greeting", argument = "name")
  public List<String> names(String prefix) {
    return List.of("Ada", "Alan").stream().filter(n -> n.startsWith(prefix)).toList();
  }
}
