/**
 * The MCP Fusion annotation processor. It exports nothing: javac finds it as a service, on the
 * processor path or the processor module path.
 */
module dev.mcpfusion.processor {
  requires java.compiler;
  // The shared "did you mean" (an internal package exported to this module only).
  requires dev.mcpfusion.annotation;
  requires jdk.compiler;
  // Shaded: the published jar carries JavaPoet relocated under dev.mcpfusion.processor.shaded, so
  // the module needs it to compile, never at run time.
  requires static com.palantir.javapoet;
  requires static com.google.auto.service;

  provides javax.annotation.processing.Processor with dev.mcpfusion.processor.FusionProcessor;
}
