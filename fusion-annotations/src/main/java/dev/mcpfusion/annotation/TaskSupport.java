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
}
