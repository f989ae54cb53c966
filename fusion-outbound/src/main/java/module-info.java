/** The HTTP client a connector calls REST APIs with, behind an SSRF-proof URL policy. */
module dev.mcpfusion.outbound {
  requires transitive dev.mcpfusion.core;
  requires transitive dev.mcpfusion.resilience;
  // The refusals' codes are spelled in the wire vocabulary.
  requires dev.mcpfusion.wire;
  requires okhttp3;
  requires kotlin.stdlib;

  exports dev.mcpfusion.outbound;
}
