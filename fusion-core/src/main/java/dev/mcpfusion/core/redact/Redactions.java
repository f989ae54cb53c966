package dev.mcpfusion.core.redact;

import dev.mcpfusion.annotation.Detector;
import dev.mcpfusion.annotation.Mask;
import dev.mcpfusion.annotation.Redact;
import dev.mcpfusion.core.Redaction;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.PresenterBinding;
import dev.mcpfusion.redact.PathPattern;
import dev.mcpfusion.redact.Redactor;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Which redaction each action gets, decided once when the server is built: the view's
 * {@code @Redact} if its presenter's view carries one (read from the class: the annotation is kept
 * at run time), else the server-wide default. Mistakes a developer can fix fail the build.
 */
public final class Redactions {
  private Redactions() {}

  /**
   * {@code policy} compiled for the call path; {@code null} for one that masks nothing (so callers
   * skip the step).
   *
   * @throws IllegalArgumentException for a path that is not one of the three forms, naming it
   */
  public static Redactor compile(Redaction policy) {
    if (policy == null || policy.isEmpty()) {
      return null;
    }
    return Redactor.compile(policy, policy.paths(), policy.detectors(), policy.patterns().values(),
        policy.mask());
  }

  /** The policy {@code redactor} was compiled from (by {@link #compile}, the only way one is made). */
  public static Redaction policy(Redactor redactor) {
    return (Redaction) redactor.source();
  }

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
   * The policy for content no view shaped on a call whose view declares {@code viewPolicy} (or
   * none, {@code null}): the detectors and patterns of the server default and of the view together,
   * without paths (they are relative to a view), masked fully unless both mask partially. A view's
   * {@code @Redact} replaces the server default for the view's own data; text beside it (what a
   * handler attaches, says in a progress or log message, asks the client) is checked against both,
   * so neither policy's detectors are lost on it.
   */
  public static Redaction contentPolicy(Redaction serverDefault, Redaction viewPolicy) {
    Redaction out = Redaction.none();
    Mask mask = Mask.PARTIAL;
    boolean any = false;
    for (Redaction p : new Redaction[] {serverDefault, viewPolicy}) {
      if (p == null || p.detectors().isEmpty() && p.patterns().isEmpty()) {
        continue;
      }
      any = true;
      out = out.detect(p.detectors().toArray(new Detector[0]));
      for (Map.Entry<String, Pattern> e : p.patterns().entrySet()) {
        if (!out.patterns().containsKey(e.getKey())) {
          out = out.pattern(e.getKey(), e.getValue().pattern());
        }
      }
      if (p.mask() == Mask.FULL) {
        mask = Mask.FULL;
      }
    }
    return any ? out.mask(mask) : Redaction.none();
  }

  /**
   * The compiled redaction of an action ({@code redactor}, {@code null} for none), fitted to its
   * view (see {@link Redactor#forView}), and the paths that do not fit that view ({@code problems},
   * see {@link Redactor#checkAgainst}: for the view's own {@code @Redact} also each that matches
   * none of its fields; the server-wide paths apply to every view).
   */
  public record Fitted(Redactor redactor, List<Redactor.PathProblem> problems) {}

  /**
   * {@code action}'s redaction fitted to its view, whose static rules, as the server sends them,
   * are {@code staticRules}; the view's schema is read once for both.
   *
   * @throws PathPattern.InvalidPath for a path that is none of the three forms
   */
  public static Fitted forAction(ActionDescriptor action, Redaction serverDefault,
      List<String> staticRules) {
    Redaction policy = policy(action, serverDefault);
    Redactor redactor = compile(policy);
    PresenterBinding<?, ?> presenter = action.presenter();
    if (redactor == null || presenter == null) {
      return new Fitted(redactor, List.of());
    }
    Object schema = Json.parse(presenter.outputSchemaJson());
    return new Fitted(redactor.forView(schema, staticRules),
        redactor.checkAgainst(schema, policy != serverDefault));
  }
}
