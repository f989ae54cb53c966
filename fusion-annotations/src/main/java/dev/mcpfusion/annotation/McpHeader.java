package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Mirrors a tool argument in an HTTP header (MCP 2026-07-28, SEP-2243), so that a load balancer or
 * gateway can route on it without reading the body: {@code @McpHeader("Region") String region}
 * puts {@code "x-mcp-header": "Region"} on the argument's input schema, a client then sends the
 * value as {@code Mcp-Param-Region} with every {@code tools/call}, and the HTTP transport refuses a
 * call whose header is missing or disagrees with the argument (400, -32020).
 *
 * <p>On an action parameter or a component of the router's {@code common} record: a top-level
 * argument of type string (an enum included), integer, number or boolean. The name is an RFC 9110
 * token (letters, digits and {@code !#$%&'*+-.^_`|~}), unique within the action ignoring case.
 * Anything else fails the build ({@code [fusion/InvalidMcpHeader]}).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.PARAMETER, ElementType.RECORD_COMPONENT})
public @interface McpHeader {
  /** The header's name after {@code Mcp-Param-}, e.g. {@code "Region"}. */
  String value();
}
