package dev.mcpfusion.annotation;

/** How an action may run as a task; see {@link TaskSupport}. */
public enum TaskMode {
  /**
   * A client that declares the tasks extension gets a task; any other client gets the result
   * directly, as from an action without {@code @TaskSupport}.
   */
  OPTIONAL,
  /**
   * Only as a task: a 2026-07-28 client that does not declare the tasks extension is answered
   * -32021 (missing required client capability) before the handler runs.
   */
  REQUIRED
}
