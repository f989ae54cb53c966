package dev.mcpfusion.core.edge;

import dev.mcpfusion.core.task.TaskRecord;
import dev.mcpfusion.core.task.TaskRelay;
import dev.mcpfusion.core.task.TaskStatus;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.wire.Echo;
import dev.mcpfusion.wire.JsonRpc;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a client's {@code tasks/update} and {@code tasks/cancel} do to the task's handler: handed to
 * it when it runs in this process, sent on through the store's {@link TaskRelay} to the instance
 * running it otherwise, which hands them over the same way. The shared record changes wherever
 * the request lands; only the handler's thread and the questions it waits on need its runner.
 */
final class TaskControl {
  private static final Logger LOG = LoggerFactory.getLogger(TaskControl.class);
  private static final String CANCEL = "cancel";
  private static final String ANSWERS = "inputResponses";

  private final TaskCalls tasks;
  private final Map<String, TaskCalls.Running> running;
  private final TaskRelay relay;
  private final TaskShapes shapes;

  TaskControl(TaskCalls tasks, Map<String, TaskCalls.Running> running, TaskRelay relay,
      TaskShapes shapes) {
    this.tasks = tasks;
    this.running = running;
    this.relay = relay;
    this.shapes = shapes;
  }

  /** Starts hearing the updates and cancels other instances send to the tasks running here. */
  AutoCloseable listen() {
    return relay.listen(this::received);
  }

  /**
   * Answers {@code tasks/update}: each answer to a question the handler waits on is handed to it;
   * a key that is not outstanding (never asked, answered already, or the task moved on) is
   * ignored, as the extension says. An answer to a question the task still lists that reaches no
   * waiting handler is an error, not an acknowledgement: the client's answer was not taken.
   */
  void update(Message message, TaskRecord task, Object responses, Sink out) {
    Object id = message.id();
    if (!(responses instanceof Map<?, ?> answers)) {
      out.reply(id, JsonRpc.INVALID_PARAMS, Bodies.error(id, JsonRpc.INVALID_PARAMS,
          "Invalid params: tasks/update needs \"inputResponses\", an object keyed by the keys of the "
              + "task's inputRequests."));
      return;
    }
    TaskCalls.Running run = running.get(task.taskId());
    if (run != null) {
      take(run, answers);
    } else if (!task.status().terminal() && outstanding(task, answers)) {
      // The handler runs on another instance, or on none any more: the answers go to its runner.
      String taskId = Echo.quoted(task.taskId());
      try {
        if (!relay.send(task.taskId(), Json.write(Map.of(ANSWERS, answers)))) {
          out.reply(id, JsonRpc.INVALID_PARAMS, Bodies.error(id, JsonRpc.INVALID_PARAMS,
              "Invalid params: nothing waits for these answers any more: the handler of task "
                  + taskId + " runs on no live instance of the server, or it stopped waiting"
                  + " (answered already, timed out, or the task moved on); tasks/get tells where the"
                  + " task is."));
          return;
        }
      } catch (RuntimeException e) {
        LOG.warn("Could not hand the answers of task {} to its runner", task.taskId(), e);
        out.reply(id, JsonRpc.INTERNAL_ERROR, Bodies.error(id, JsonRpc.INTERNAL_ERROR,
            "Internal error: these answers could not be handed to the instance of the server"
                + " running task " + taskId + " now; send tasks/update again."));
        return;
      }
    }
    out.reply(id, 0, Bodies.result(id, shapes.ack()));
  }

  /**
   * Answers {@code tasks/cancel}: the task becomes {@code cancelled} and its handler, here or on
   * the instance running it, is interrupted. A task that finished otherwise is unchanged.
   */
  void cancel(Message message, TaskRecord task, Sink out) {
    Object id = message.id();
    if (!task.status().terminal()) {
      tasks.finish(task.taskId(), TaskStatus.CANCELLED, "Cancelled by the client.", null, null);
    } else if (task.status() != TaskStatus.CANCELLED) {
      out.reply(id, 0, Bodies.result(id, shapes.ack()));
      return;
    }
    // A cancelled task's runner elsewhere is told again, which is how a cancel that could not be
    // sent is retried; a handler here was stopped by the first cancel and is not interrupted twice.
    TaskCalls.Running run = running.get(task.taskId());
    if (run != null) {
      if (task.status() != TaskStatus.CANCELLED) {
        stop(run);
      }
    } else {
      try {
        relay.send(task.taskId(), Json.write(Map.of(CANCEL, true)));
        // Not taken: no live instance runs the handler, and the task stays cancelled.
      } catch (RuntimeException e) {
        LOG.warn("Task {} is cancelled but its runner could not be told now", task.taskId(), e);
        out.reply(id, JsonRpc.INTERNAL_ERROR, Bodies.error(id, JsonRpc.INTERNAL_ERROR,
            "Internal error: task " + Echo.quoted(task.taskId()) + " is cancelled, but the instance"
                + " of the server running its handler could not be told to stop it now; send"
                + " tasks/cancel again."));
        return;
      }
    }
    out.reply(id, 0, Bodies.result(id, shapes.ack()));
  }

  /** Interrupts a handler running here, as a cancel does. */
  private static void stop(TaskCalls.Running run) {
    run.cancelled = true;
    Thread thread = run.thread;
    if (thread != null) {
      thread.interrupt();
    }
    run.questions.values().forEach(q -> q.cancel(true));
  }

  /** Hands the answers to questions {@code run} waits on to it; how many it took. */
  private int take(TaskCalls.Running run, Map<?, ?> answers) {
    int taken = 0;
    for (Map.Entry<?, ?> answer : answers.entrySet()) {
      String key = String.valueOf(answer.getKey());
      CompletableFuture<Map<String, Object>> waiting = run.questions.remove(key);
      if (waiting != null && answer.getValue() instanceof Map<?, ?> value) {
        Map<String, Object> tree = new LinkedHashMap<>();
        value.forEach((k, v) -> tree.put(String.valueOf(k), v));
        tasks.answered(run.taskId, key);
        waiting.complete(tree);
        taken++;
      } else if (waiting != null) {
        run.questions.put(key, waiting); // not an object: not an answer
      }
    }
    return taken;
  }

  /** Whether the task lists a question that one of {@code answers} answers. */
  private static boolean outstanding(TaskRecord task, Map<?, ?> answers) {
    Map<String, Object> questions = TaskShapes.questions(task);
    return answers.entrySet().stream().anyMatch(a -> a.getValue() instanceof Map<?, ?>
        && questions.containsKey(String.valueOf(a.getKey())));
  }

  /** A message another instance sent about a task: handed over when its handler runs here. */
  private boolean received(String taskId, String message) {
    TaskCalls.Running run = running.get(taskId);
    Object parsed;
    try {
      parsed = Json.parse(message);
    } catch (IllegalArgumentException e) {
      return false;
    }
    if (run == null || !(parsed instanceof Map<?, ?> fields)) {
      return false;
    }
    if (Boolean.TRUE.equals(fields.get(CANCEL))) {
      stop(run);
      return true;
    }
    return fields.get(ANSWERS) instanceof Map<?, ?> answers && take(run, answers) > 0;
  }
}
