/** The annotations a connector author writes; no dependencies. */
module dev.mcpfusion.annotation {
  exports dev.mcpfusion.annotation;
  // The one "did you mean": the processor may read nothing but this module, and the runtime
  // suggests names by the same rule. Not part of the user API.
  exports dev.mcpfusion.annotation.internal to dev.mcpfusion.core, dev.mcpfusion.processor;
}
