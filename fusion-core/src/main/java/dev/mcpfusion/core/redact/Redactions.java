package dev.mcpfusion.core.redact;

import dev.mcpfusion.annotation.Redact;
import dev.mcpfusion.core.Redaction;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.PresenterBinding;
import java.util.List;

/**
 * Which redaction each action gets, decided once when the server is built: the view's
 * {@code @Redact} if its presenter's view carries one (read from the class: the annotation is kept
 * at run time), else the server-wide default. Mistakes a developer can fix fail the build.
 */
public final class Redactions {
  private Redactions() {}

  /** The policy of {@code action}: its view's {@code @Redact}, else {@code serverDefault}. */
  public static Redaction policy(ActionDescriptor action, Redaction serverDefault) {
    PresenterBinding<?, ?> presenter = action.presenter();
    if (presenter != null) {
      Redact redact = presenter.viewType().getAnnotation(Redact.class);
      if (redact != null) {
        return Redaction.of(redact);
      }
    }
    return serverDefault;
  }

  /**
   * The compiled redaction of {@code action} ({@code null}: none), fitted to its view (see
   * {@link Redactor#forView}) whose static rules, as the server sends them, are {@code staticRules}.
   *
   * @throws PathPattern.InvalidPath for a path that is none of the three forms
   */
  public static Redactor forAction(ActionDescriptor action, Redaction serverDefault,
      List<String> staticRules) {
    Redactor redactor = Redactor.compile(policy(action, serverDefault));
    PresenterBinding<?, ?> presenter = action.presenter();
    return redactor == null || presenter == null
        ? redactor : redactor.forView(presenter.outputSchemaJson(), staticRules);
  }

  /**
   * The paths of {@code redactor} that do not fit the view of {@code action}: checked against the
   * view's output schema, each that ends on something other than text and, for the view's own
   * {@code @Redact} (not the server-wide paths, which apply to every view), each that matches none
   * of its fields.
   */
  public static List<Redactor.PathProblem> check(ActionDescriptor action, Redaction serverDefault,
      Redactor redactor) {
    PresenterBinding<?, ?> presenter = action.presenter();
    if (redactor == null || presenter == null) {
      return List.of();
    }
    boolean own = policy(action, serverDefault) != serverDefault;
    return redactor.checkAgainst(presenter.outputSchemaJson(), own);
  }
}
