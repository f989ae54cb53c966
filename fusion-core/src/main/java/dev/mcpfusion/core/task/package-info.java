/**
 * Tasks: long calls a client starts, polls, answers and cancels (the
 * {@code io.modelcontextprotocol/tasks} extension). {@link dev.mcpfusion.core.task.TaskStore} keeps
 * their state as plain values and JSON ({@link dev.mcpfusion.core.task.TaskRecord}), so a fleet can
 * keep it in a shared store; {@link dev.mcpfusion.core.task.TaskOptions} configures a server's.
 */
package dev.mcpfusion.core.task;
