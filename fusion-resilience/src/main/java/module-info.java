/** A circuit breaker per upstream a handler calls, refusing in words a model can act on while open. */
module dev.mcpfusion.resilience {
  requires transitive dev.mcpfusion.core;
  // The refusal's code (UPSTREAM_UNAVAILABLE) is spelled in the wire vocabulary.
  requires dev.mcpfusion.wire;
  requires io.github.resilience4j.circuitbreaker;
  requires io.github.resilience4j.core;

  exports dev.mcpfusion.resilience;
}
