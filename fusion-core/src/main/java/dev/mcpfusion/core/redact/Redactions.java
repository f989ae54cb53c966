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
   * The compiled redaction of {@code action} ({@code null}: none), adding to {@code errors} each
   * path that is malformed or, checked against the view's output schema, ends on something that is
   * not text. A view's own paths must also match one of its fields; the server-wide paths need not
   * (they apply to every view).
   */
  public static Redactor forAction(ActionDescriptor action, Redaction serverDefault, String where,
      List<String> errors) {
    Redaction policy = policy(action, serverDefault);
    Redactor redactor;
    try {
      redactor = Redactor.compile(policy);
    } catch (IllegalArgumentException e) {
      errors.add("[fusion/RedactPath] " + where + ": " + e.getMessage());
      return null;
    }
    PresenterBinding<?, ?> presenter = action.presenter();
    if (redactor != null && presenter != null) {
      boolean own = policy != serverDefault;
      String view = presenter.viewType().getSimpleName();
      for (String problem : redactor.checkAgainst(view, presenter.outputSchemaJson(), own)) {
        errors.add("[fusion/RedactPath] " + problem);
      }
    }
    return redactor;
  }
}
