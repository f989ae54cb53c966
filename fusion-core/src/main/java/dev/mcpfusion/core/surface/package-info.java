/**
 * What one request sees of the tools beyond its scopes: the actions its session's workflow state
 * allows and those carrying a tag it asks for, over the registry's tools (the rules themselves are
 * fusion-surface's). The edge asks it what to list and whether a call may run; it knows nothing of
 * a transport.
 */
package dev.mcpfusion.core.surface;
