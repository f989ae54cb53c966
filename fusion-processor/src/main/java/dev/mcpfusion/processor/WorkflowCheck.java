package dev.mcpfusion.processor;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;

/**
 * Checks a router's workflow ({@code @States}, {@code @AllowedIn}, {@code @Transition}) and tags
 * ({@code @Router(tags)}, {@code @Tags}): every state is declared once and named as a state may be,
 * the initial state is one of them, every state an action names is declared, an action names
 * states only when its router declares them, and every tag is a tag name. Nothing is generated
 * from them: the runtime reads these annotations once, when the server is built.
 */
final class WorkflowCheck {
  /** A state or tag name: it is written into envelopes and headers unescaped. */
  static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_-]*");

  private final Elements elements;
  private final Reporter reporter;

  WorkflowCheck(Elements elements, Reporter reporter) {
    this.elements = elements;
    this.reporter = reporter;
  }

  /** Reports every problem of {@code router}'s workflow and tags; true when there is none. */
  boolean check(TypeElement router, AnnotationMirror routerAnnotation, String display) {
    boolean ok = tags(router, routerAnnotation, Mirrors.list(elements, routerAnnotation, "tags"),
        display);
    AnnotationMirror states = Mirrors.find(router, Props.ANN + "States");
    Set<String> declared = states == null ? null : declared(router, states, display);
    ok &= states == null || declared != null;
    for (ExecutableElement method : ElementFilter.methodsIn(router.getEnclosedElements())) {
      String where = display + "." + method.getSimpleName();
      AnnotationMirror tags = Mirrors.find(method, Props.ANN + "Tags");
      if (tags != null) {
        ok &= tags(method, tags, Mirrors.list(elements, tags, "value"), where);
      }
      for (String name : List.of("AllowedIn", "Transition")) {
        AnnotationMirror mirror = Mirrors.find(method, Props.ANN + name);
        if (mirror == null) {
          continue;
        }
        if (states == null) {
          reporter.reportOn(Diagnostic.STATES_UNDECLARED, method, mirror, null, where, name, display);
          ok = false;
          continue;
        }
        if (declared == null) {
          continue; // @States itself is wrong: reported once, on the router
        }
        List<AnnotationValue> named = name.equals("Transition")
            ? List.of(Mirrors.value(elements, mirror, "to"))
            : Mirrors.list(elements, mirror, "value");
        if (named.isEmpty()) {
          reporter.reportOn(Diagnostic.NO_ALLOWED_STATE, method, mirror, null, where, display);
          ok = false;
        }
        for (AnnotationValue v : named) {
          String state = String.valueOf(v.getValue());
          if (!declared.contains(state)) {
            reporter.reportOn(Diagnostic.UNKNOWN_STATE, method, mirror, v, where, state, name,
                display, quoted(declared), Names.didYouMean(state, declared));
            ok = false;
          }
        }
      }
    }
    return ok;
  }

  /** The declared states, or {@code null} after reporting why {@code @States} is wrong. */
  private Set<String> declared(TypeElement router, AnnotationMirror states, String display) {
    Set<String> declared = new LinkedHashSet<>();
    List<AnnotationValue> values = Mirrors.list(elements, states, "value");
    boolean ok = true;
    if (values.isEmpty()) {
      reporter.reportOn(Diagnostic.INVALID_STATES, router, states, null, display, "with no state");
      return null;
    }
    for (AnnotationValue v : values) {
      String state = String.valueOf(v.getValue());
      if (!NAME.matcher(state).matches()) {
        reporter.reportOn(Diagnostic.INVALID_STATES, router, states, v, display,
            "with '" + state + "', which is not a state name");
        ok = false;
      } else if (!declared.add(state)) {
        reporter.reportOn(Diagnostic.INVALID_STATES, router, states, v, display,
            "with '" + state + "' twice");
        ok = false;
      }
    }
    AnnotationValue initial = Mirrors.value(elements, states, "initial");
    String start = String.valueOf(initial.getValue());
    if (ok && !declared.contains(start)) {
      reporter.reportOn(Diagnostic.UNKNOWN_INITIAL_STATE, router, states, initial, display, start,
          quoted(declared), Names.didYouMean(start, declared));
      ok = false;
    }
    return ok ? declared : null;
  }

  private boolean tags(javax.lang.model.element.Element on, AnnotationMirror mirror,
      List<AnnotationValue> tags, String where) {
    boolean ok = true;
    for (AnnotationValue v : tags) {
      String tag = String.valueOf(v.getValue());
      if (!NAME.matcher(tag).matches()) {
        reporter.reportOn(Diagnostic.INVALID_TAG, on, mirror, v, where, tag);
        ok = false;
      }
    }
    return ok;
  }

  private static String quoted(Set<String> states) {
    List<String> out = new ArrayList<>();
    for (String s : states) {
      out.add("'" + s + "'");
    }
    return String.join(", ", out);
  }
}
