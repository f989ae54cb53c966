/**
 * What one session or caller sees of the tools: workflow states ({@code @States},
 * {@code @AllowedIn}, {@code @Transition}) and tags ({@code @Router(tags)}, {@code @Tags}), read
 * once from the router classes when the server is built. The edge asks it what to list and whether
 * a call may run; it knows nothing of a transport.
 */
package dev.mcpfusion.core.surface;
