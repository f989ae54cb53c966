package dev.mcpfusion.spring.boot;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns a {@link FusionStartupException} into Boot's description-and-action report. */
final class FusionStartupFailureAnalyzer extends AbstractFailureAnalyzer<FusionStartupException> {
  @Override
  protected FailureAnalysis analyze(Throwable root, FusionStartupException cause) {
    return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
  }
}
