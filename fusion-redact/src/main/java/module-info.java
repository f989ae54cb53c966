/**
 * The redaction engine beneath the runtime: a policy's paths, detectors and masks compiled once,
 * then applied to plain JSON trees and free text. It knows the annotations' {@code Detector} and
 * {@code Mask}, and JSON; not the runtime, the SDK or a transport.
 */
module dev.mcpfusion.redact {
  requires dev.mcpfusion.annotation;
  requires dev.mcpfusion.wire;

  exports dev.mcpfusion.redact to dev.mcpfusion.core, dev.mcpfusion.lock;
}
