package dev.mcpfusion.core.edge;

import dev.mcpfusion.core.ClientLink;
import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.LogLevel;
import dev.mcpfusion.core.Outbound;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.egress.Egress;
import dev.mcpfusion.redact.Redactor;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.Meta;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A task's way back to its client. The client is not connected while a task runs, so a question
 * the handler asks (an elicitation, a sampling request) is parked on the task — status
 * {@code input_required}, the question under a fresh key in {@code inputRequests} — until the
 * client answers it with {@code tasks/update}. Progress and log notifications are not sent: the
 * extension has no stream for them.
 */
final class TaskLink implements ClientLink {
  private final TaskCalls tasks;
  private final TaskCalls.Running run;
  private final Map<String, Object> meta;
  private final Egress egress;
  private final Redactor answers;
  private final int cap;
  private final String target;
  private volatile RequestContext request;
  private volatile String missingCapability;

  TaskLink(TaskCalls tasks, TaskCalls.Running run, Map<String, Object> meta, Egress egress,
      Redactor answers, int cap, String target) {
    this.tasks = tasks;
    this.run = run;
    this.meta = meta == null ? Map.of() : meta;
    this.egress = egress;
    this.answers = answers;
    this.cap = cap;
    this.target = target;
  }

  void request(RequestContext request) {
    this.request = request;
  }

  /** The capability the handler needed that the client did not declare, or {@code null}. */
  String missingCapability() {
    return missingCapability;
  }

  @Override
  public boolean notify(String method, Map<String, Object> params) {
    return false;
  }

  @Override
  public LogLevel logLevel() {
    return null;
  }

  @Override
  public boolean cancelled() {
    return run.cancelled;
  }

  @Override
  public String cannotAsk(String capability) {
    if (!(meta.get(Meta.CLIENT_CAPABILITIES) instanceof Map<?, ?> declared)
        || declared.get(capability) == null) {
      missingCapability = capability;
      return "the client did not declare the '" + capability + "' capability";
    }
    return null;
  }

  @Override
  public Map<String, Object> ask(String method, Map<String, Object> params, Duration timeout) {
    RequestContext context = request == null ? RequestContext.empty() : request;
    Map<String, Object> sent = egress.request(channel(method), method, target, params,
        egress.content(answers), cap, context);
    String key = "input-" + run.asked.incrementAndGet();
    CompletableFuture<Map<String, Object>> answer = new CompletableFuture<>();
    run.questions.put(key, answer);
    tasks.asking(run.taskId, key, method, sent);
    try {
      if (run.cancelled) {
        throw new InterruptedException();
      }
      return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException | CancellationException e) {
      Thread.currentThread().interrupt();
      throw FusionError.of("CANCELLED", "The task was cancelled while waiting for the client's answer to "
          + method + ".");
    } catch (TimeoutException e) {
      throw FusionError.of("CLIENT_TIMEOUT", "The client did not answer " + method + " within "
          + timeout.toMinutes() + " minutes.").recovery("Try again when the user is available.");
    } catch (ExecutionException e) {
      throw FusionError.of("CLIENT_UNAVAILABLE", "The client's answer to " + method + " never came.");
    } finally {
      run.questions.remove(key);
      tasks.answered(run.taskId, key);
    }
  }

  private static Outbound.Channel channel(String method) {
    return switch (method) {
      case JsonRpc.SAMPLING_CREATE_MESSAGE -> Outbound.Channel.SAMPLING;
      case JsonRpc.ELICITATION_CREATE -> Outbound.Channel.ELICITATION;
      default -> throw new IllegalArgumentException("no egress channel for " + method);
    };
  }
}
