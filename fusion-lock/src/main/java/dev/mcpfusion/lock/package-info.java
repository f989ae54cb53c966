/**
 * The capability lockfile: the canonical contract of everything an agent can reach,
 * computed from generated router descriptors and a declared {@link dev.mcpfusion.lock.LockProfile}
 * without instantiating any user class; its canonical {@code mcpfusion.lock} text; and the
 * classified {@link dev.mcpfusion.lock.Drift} between a committed lockfile and the live code.
 *
 * <p>Build-tool code: it may use reflection ({@link dev.mcpfusion.lock.ContractLoader});
 * nothing here is on the call path of a running server.
 */
package dev.mcpfusion.lock;
