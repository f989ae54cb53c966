/** Streamable HTTP for a FusionServer on embedded Jetty 12.1 (ee10). */
module dev.mcpfusion.http {
  requires transitive dev.mcpfusion.core;
  requires dev.mcpfusion.wire;
  // FusionHttp.servlet(...) returns a jakarta.servlet HttpServlet.
  requires transitive jakarta.servlet;
  requires io.modelcontextprotocol.sdk.mcp;
  requires org.eclipse.jetty.server;
  requires org.eclipse.jetty.http;
  requires org.eclipse.jetty.util;
  requires org.eclipse.jetty.ee10.servlet;
  requires reactor.core;
  requires org.slf4j;

  exports dev.mcpfusion.http;
}
