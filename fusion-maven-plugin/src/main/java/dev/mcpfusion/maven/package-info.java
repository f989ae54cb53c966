/**
 * Maven goals for the capability lockfile: {@code lock} writes {@code mcpfusion.lock} from the
 * compiled connector, {@code check} (bound to {@code verify}) fails the build on classified drift.
 * The work is done by {@link dev.mcpfusion.lock}; these classes only wire Maven to it.
 */
package dev.mcpfusion.maven;
