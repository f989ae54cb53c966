package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares an action a long call that may run as a task (the {@code io.modelcontextprotocol/tasks}
 * extension of the 2026-07-28 protocol): when the client declares the extension, a call returns a
 * task handle at once, and the client polls {@code tasks/get} for the result, answers the
 * handler's questions with {@code tasks/update} and may {@code tasks/cancel} it. The action's
 * {@code @Limits} (deadline, concurrency gate, byte cap) and the egress chain apply to the task
 * exactly as to a direct call.
 *
 * <pre>{@code
 * @Action(description = "Rebuild the search index")
 * @TaskSupport(TaskMode.OPTIONAL)
 * public String reindex(...) { ... }
 * }</pre>
 *
 * <p>Only on a {@code @Query}, {@code @Mutation} or {@code @Action} method (the processor rejects
 * it elsewhere). Read at run time, when the server is built; the lockfile records it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface TaskSupport {
  /** Whether a client must run the action as a task, or may call it directly too. */
  TaskMode value() default TaskMode.OPTIONAL;

  /**
   * Whether the call gathers the client's answers before its task starts. {@code false} (the
   * default): a task call is answered with the task's handle at once, and a question the handler
   * asks parks the task ({@code input_required}, answered with {@code tasks/update}).
   * {@code true}: a task call runs as a direct call — its questions answered with input-required
   * results and the client's retry — until the handler calls {@code RequestContext.startTask()},
   * which answers the request with the task's handle; the rest of the handler runs as the task.
   * Ask everything before {@code startTask()}: a question after it ends the task with the tool
   * error {@code ASKED_AFTER_START}. A handler that returns without calling it answers directly,
   * as an ordinary call.
   */
  boolean inputFirst() default false;
}
