package dev.mcpfusion.core.server;

import dev.mcpfusion.core.egress.Egress;
import dev.mcpfusion.core.trace.FusionTracer;

/**
 * What the answerers of prompts, resources and completions ({@link PromptCalls},
 * {@link ResourceCalls}, {@link CompletionCalls}) share: the registry they serve, the egress chain
 * their answers pass, the server's tracer, the runner of user code and the presenter of data.
 */
abstract class FeatureAnswers {
  final FeatureRegistry registry;
  final Egress egress;
  final FusionTracer tracer;
  final FeatureRunner runner;
  final FeaturePresenter presenter;

  FeatureAnswers(FeatureRegistry registry, Egress egress, FusionTracer tracer, FeatureRunner runner,
      FeaturePresenter presenter) {
    this.registry = registry;
    this.egress = egress;
    this.tracer = tracer;
    this.runner = runner;
    this.presenter = presenter;
  }
}
