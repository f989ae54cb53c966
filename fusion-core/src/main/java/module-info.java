/**
 * The MCP Fusion runtime. Users and generated code see the user API ({@code dev.mcpfusion.core}),
 * the contract generated code calls ({@code …core.spi}) and the tracing SPI ({@code …core.trace});
 * every other package is exported only to the framework module that needs it.
 */
module dev.mcpfusion.core {
  // Generated code names CachePolicy; connector code uses the annotations anyway.
  requires transitive dev.mcpfusion.annotation;
  // The MCP Java SDK is an implementation detail: no SDK type is in a signature of the user API.
  requires io.modelcontextprotocol.sdk.mcp;
  // Generated sources carry @javax.annotation.processing.Generated (source retention): a connector
  // module must read java.compiler to compile them, and need not at run time.
  requires static transitive java.compiler;
  // Connector code constrains its inputs with jakarta.validation.constraints.
  requires transitive jakarta.validation;
  // The wire vocabulary and deterministic JSON every reply is written with.
  requires dev.mcpfusion.wire;
  // The redaction engine every reply, prompt and resource is masked with.
  requires dev.mcpfusion.redact;
  // Workflow states and tags read from the routers, a session's state, the tags a request asks for.
  requires dev.mcpfusion.surface;
  requires tools.jackson.core;
  requires tools.jackson.databind;
  // Validates the arguments of an @InputSchema action against its document.
  requires com.networknt.schema;
  requires reactor.core;
  requires org.reactivestreams;
  requires org.hibernate.validator;
  requires org.slf4j;

  exports dev.mcpfusion.core;
  exports dev.mcpfusion.core.spi;
  exports dev.mcpfusion.core.trace;
  // Tasks: their options, and the store a fleet may back with a shared one.
  exports dev.mcpfusion.core.task;

  // The front door: the framework's transports hand it their bytes.
  exports dev.mcpfusion.core.edge to dev.mcpfusion.http, dev.mcpfusion.testing;
  exports dev.mcpfusion.core.error to dev.mcpfusion.http;
  // The lockfile records the limits and redaction rules a descriptor resolves to.
  exports dev.mcpfusion.core.guard to dev.mcpfusion.lock;
  exports dev.mcpfusion.core.redact to dev.mcpfusion.lock;
}
