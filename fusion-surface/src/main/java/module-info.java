/**
 * What a session sees of the tools, beneath the runtime: the workflow states and tags a router
 * class declares (read once, reflectively, from its annotations), the state a session is in, the
 * tags a request asks for and the envelope of a call its state does not allow. It knows the
 * annotations and the wire vocabulary; not the runtime, the SDK or a transport.
 */
module dev.mcpfusion.surface {
  requires dev.mcpfusion.annotation;
  requires dev.mcpfusion.wire;

  exports dev.mcpfusion.surface to dev.mcpfusion.core, dev.mcpfusion.lock;
}
