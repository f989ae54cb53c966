package dev.mcpfusion.processor;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * The {@code @Rules}, {@code @Suggest} and {@code @Ui} methods of a view, validated: each is
 * static, callable by the generated presenter, takes the view (item-level, run once per distinct
 * view) or a {@code List} of it (collection-level, run once on the shown items) and returns what
 * its annotation needs. A view has at most one {@code @Rules} and one {@code @Suggest} method of
 * each form, and any number of {@code @Ui} methods (their blocks keep declaration order).
 */
record ViewMethods(Method itemRules, Method listRules, Method itemSuggest, Method listSuggest,
    List<Method> ui, List<Views.Component> nestedRules) {
  static final String SUGGESTION = "dev.mcpfusion.core.Suggestion";
  static final String UI_BLOCK = "dev.mcpfusion.core.UiBlock";

  ViewMethods {
    ui = List.copyOf(ui);
    nestedRules = List.copyOf(nestedRules);
  }

  /** One validated method: whether it takes {@code List<V>} and whether it returns one String. */
  record Method(ExecutableElement element, boolean list, boolean returnsString) {
    String name() {
      return element.getSimpleName().toString();
    }
  }

  /** Validates the methods of {@code view}, reporting each problem; {@code null} if any. */
  static ViewMethods of(TypeElement view, List<Views.Component> components, Elements elements,
      Types types, Views views, Reporter reporter) {
    Checker c = new Checker(view, elements, types, reporter);
    for (ExecutableElement m : ElementFilter.methodsIn(view.getEnclosedElements())) {
      if (Mirrors.find(m, Props.ANN + "Suggest") != null) {
        c.suggest(m);
      }
      if (Mirrors.find(m, Props.ANN + "Rules") != null) {
        c.rules(m);
      }
      if (Mirrors.find(m, Props.ANN + "Ui") != null) {
        c.ui(m);
      }
    }
    if (!c.ok) {
      return null;
    }
    List<Views.Component> nested = new ArrayList<>();
    for (Views.Component component : components) {
      Views.Out o = component.out.element != null ? component.out.element : component.out;
      if (o.kind == Views.Out.Kind.VIEW && hasDynamicRules(o.type, views, new HashSet<>())) {
        nested.add(component);
      }
    }
    return new ViewMethods(c.itemRules, c.listRules, c.itemSuggest, c.listSuggest, c.ui, nested);
  }

  /** Whether a view or any view nested in it has a {@code @Rules} method. */
  static boolean hasDynamicRules(TypeElement view, Views views, Set<String> visiting) {
    if (!visiting.add(view.getQualifiedName().toString())) {
      return false;
    }
    for (ExecutableElement m : ElementFilter.methodsIn(view.getEnclosedElements())) {
      if (Mirrors.find(m, Props.ANN + "Rules") != null) {
        return true;
      }
    }
    List<Views.Component> components = views.components(view);
    if (components != null) {
      for (Views.Component component : components) {
        Views.Out o = component.out.element != null ? component.out.element : component.out;
        if (o.kind == Views.Out.Kind.VIEW && hasDynamicRules(o.type, views, visiting)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Checks one method at a time and keeps the valid ones. */
  private static final class Checker {
    final TypeElement view;
    final String viewName;
    final Elements elements;
    final Types types;
    final Reporter reporter;
    boolean ok = true;
    Method itemRules;
    Method listRules;
    Method itemSuggest;
    Method listSuggest;
    final List<Method> ui = new ArrayList<>();

    Checker(TypeElement view, Elements elements, Types types, Reporter reporter) {
      this.view = view;
      this.viewName = Names.display(view);
      this.elements = elements;
      this.types = types;
      this.reporter = reporter;
    }

    void suggest(ExecutableElement m) {
      Boolean list = parameter(m);
      String problem = common(m, list);
      if (problem == null && !PresenterStep.isListOf(m.getReturnType(), SUGGESTION)) {
        problem = "returns " + Views.display(m.getReturnType());
      }
      Method first = Boolean.TRUE.equals(list) ? listSuggest : itemSuggest;
      if (problem == null && first != null) {
        problem = second("@Suggest", first, list);
      }
      if (problem != null) {
        fail(Diagnostic.INVALID_SUGGEST_METHOD, m, problem);
      } else if (list) {
        listSuggest = new Method(m, true, false);
      } else {
        itemSuggest = new Method(m, false, false);
      }
    }

    void rules(ExecutableElement m) {
      Boolean list = parameter(m);
      String problem = common(m, list);
      TypeMirror r = m.getReturnType();
      boolean string = PresenterStep.isString(r);
      if (problem == null && !string && !PresenterStep.isListOf(r, "java.lang.String")) {
        problem = "returns " + Views.display(r);
      }
      Method first = Boolean.TRUE.equals(list) ? listRules : itemRules;
      if (problem == null && first != null) {
        problem = second("@Rules", first, list);
      }
      if (problem != null) {
        fail(Diagnostic.INVALID_RULES_METHOD, m, problem);
      } else if (list) {
        listRules = new Method(m, true, string);
      } else {
        itemRules = new Method(m, false, string);
      }
    }

    void ui(ExecutableElement m) {
      Boolean list = parameter(m);
      String problem = common(m, list);
      TypeMirror r = m.getReturnType();
      if (problem == null && !(r.getKind() == TypeKind.DECLARED && ((TypeElement) ((DeclaredType) r)
          .asElement()).getQualifiedName().contentEquals(UI_BLOCK))) {
        problem = "returns " + Views.display(r) + ", not a UiBlock";
      }
      if (problem != null) {
        fail(Diagnostic.INVALID_UI_METHOD, m, problem);
      } else {
        ui.add(new Method(m, list, false));
      }
    }

    private void fail(Diagnostic d, ExecutableElement m, String problem) {
      reporter.report(d, m, viewName, m.getSimpleName(), problem, view.getSimpleName());
      ok = false;
    }

    private String second(String annotation, Method first, boolean list) {
      return "is the second " + annotation + " method taking " + (list ? "List<" : "")
          + view.getSimpleName() + (list ? ">" : "") + " (the first is " + first.name()
          + "); a view has at most one taking " + view.getSimpleName() + " and one taking List<"
          + view.getSimpleName() + ">";
    }

    /** {@code TRUE} for {@code List<V>}, {@code FALSE} for {@code V}, {@code null} for neither. */
    private Boolean parameter(ExecutableElement m) {
      if (m.getParameters().size() != 1) {
        return null;
      }
      TypeMirror p = m.getParameters().get(0).asType();
      if (types.isSameType(p, view.asType())) {
        return Boolean.FALSE;
      }
      if (p.getKind() == TypeKind.DECLARED && ((TypeElement) ((DeclaredType) p).asElement())
          .getQualifiedName().contentEquals("java.util.List")) {
        List<? extends TypeMirror> args = ((DeclaredType) p).getTypeArguments();
        if (args.size() == 1 && types.isSameType(args.get(0), view.asType())) {
          return Boolean.TRUE;
        }
      }
      return null;
    }

    /** The problems every kind shares: static, callable, one parameter, no checked exception. */
    private String common(ExecutableElement m, Boolean list) {
      if (!m.getModifiers().contains(Modifier.STATIC)) {
        return "is not static";
      }
      if (m.getModifiers().contains(Modifier.PRIVATE)) {
        return "is private, so the generated presenter cannot call it";
      }
      if (!m.getTypeParameters().isEmpty()) {
        return "is generic, so the generated presenter cannot call it";
      }
      if (list == null) {
        return "must take exactly one parameter: the view (" + view.getSimpleName()
            + ") or the shown views (List<" + view.getSimpleName() + ">)";
      }
      TypeMirror unchecked = elements.getTypeElement("java.lang.RuntimeException").asType();
      TypeMirror error = elements.getTypeElement("java.lang.Error").asType();
      for (TypeMirror thrown : m.getThrownTypes()) {
        if (!types.isSubtype(thrown, unchecked) && !types.isSubtype(thrown, error)) {
          return "declares the checked exception " + Views.display(thrown)
              + ", which a presenter cannot pass on";
        }
      }
      return null;
    }
  }
}
