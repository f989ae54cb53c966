/**
 * Authorization for an HTTP connector, as the MCP authorization specification defines it: the
 * endpoint is an OAuth 2.1 resource server ({@link dev.mcpfusion.auth.OAuth}), whose callers
 * present JWT access tokens, opaque tokens checked by introspection, or API keys
 * ({@link dev.mcpfusion.auth.ApiKeys}).
 */
package dev.mcpfusion.auth;
