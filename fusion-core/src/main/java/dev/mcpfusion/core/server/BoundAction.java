package dev.mcpfusion.core.server;

import dev.mcpfusion.core.FusionMiddleware;
import dev.mcpfusion.core.guard.ActionLimits;
import dev.mcpfusion.core.guard.ConcurrencyGate;
import dev.mcpfusion.core.presenter.Presentation;
import dev.mcpfusion.redact.Redactor;
import dev.mcpfusion.core.spi.ActionDescriptor;
import java.util.List;

/**
 * One action ready to be called: its router, its index for the generated dispatcher, the full
 * middleware chain in run order (server-wide, router, method) and, when the action needs it, the
 * Bean Validation target.
 *
 * @param router the bound router
 * @param index the action's index in {@code router.descriptor().actions()}
 * @param descriptor the action descriptor
 * @param chain the middleware, in the order they run
 * @param executable the Bean Validation target, or {@code null} when the generated checks suffice
 * @param presentation what the action's answers share, rendered once (its static rules block)
 * @param redactor the redaction of the action's answers (pipeline step 7), or {@code null} for none
 * @param limits the action's resolved limits
 * @param gate the concurrency gate it shares with the actions of the same {@code maxConcurrent}
 *     declaration, or {@code null} when its calls are not counted
 * @param document the compiled {@code @InputSchema} document the arguments are validated against,
 *     or {@code null} when the action's fields describe its input
 * @param mode whether the handler answers with a {@code CompletionStage}, and its
 *     {@code @SerializeOn} gate
 */
public record BoundAction(
    BoundRouter router,
    int index,
    ActionDescriptor descriptor,
    List<FusionMiddleware> chain,
    ExecutableTarget executable,
    Presentation presentation,
    Redactor redactor,
    ActionLimits limits,
    ConcurrencyGate gate,
    InputDocument document,
    RunMode mode) {

  public BoundAction {
    chain = List.copyOf(chain);
    limits = limits == null ? ActionLimits.NONE : limits;
    mode = mode == null ? RunMode.BLOCKING : mode;
  }

  /** An action with a blocking handler whose calls are not serialised. */
  public BoundAction(BoundRouter router, int index, ActionDescriptor descriptor,
      List<FusionMiddleware> chain, ExecutableTarget executable, Presentation presentation,
      Redactor redactor, ActionLimits limits, ConcurrencyGate gate, InputDocument document) {
    this(router, index, descriptor, chain, executable, presentation, redactor, limits, gate,
        document, RunMode.BLOCKING);
  }

  /** An action whose fields describe its input. */
  public BoundAction(BoundRouter router, int index, ActionDescriptor descriptor,
      List<FusionMiddleware> chain, ExecutableTarget executable, Presentation presentation,
      Redactor redactor, ActionLimits limits, ConcurrencyGate gate) {
    this(router, index, descriptor, chain, executable, presentation, redactor, limits, gate, null);
  }

  /** An action without redaction or limits. */
  public BoundAction(BoundRouter router, int index, ActionDescriptor descriptor,
      List<FusionMiddleware> chain, ExecutableTarget executable, Presentation presentation) {
    this(router, index, descriptor, chain, executable, presentation, null, ActionLimits.NONE, null);
  }

  /** An action without limits. */
  public BoundAction(BoundRouter router, int index, ActionDescriptor descriptor,
      List<FusionMiddleware> chain, ExecutableTarget executable, Presentation presentation,
      Redactor redactor) {
    this(router, index, descriptor, chain, executable, presentation, redactor, ActionLimits.NONE,
        null);
  }

  /** The action name. */
  public String name() {
    return descriptor.name();
  }

  /** The logical reference {@code router.action}. */
  public String reference() {
    return router.name() + "." + descriptor.name();
  }
}
