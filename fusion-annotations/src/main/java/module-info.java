/** The annotations a connector author writes; no dependencies. */
module dev.mcpfusion.annotation {
  exports dev.mcpfusion.annotation;
}
