package dev.mcpfusion.processor;

import com.palantir.javapoet.CodeBlock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;

import dev.mcpfusion.processor.RouterModel.Param;
import dev.mcpfusion.processor.RouterModel.ParamKind;
import dev.mcpfusion.processor.RouterModel.Result;

/**
 * The two inputs the pipeline consumes itself: {@code _select} (field selection, for a query whose
 * view says {@code @Presenter(select = true)}, and for a mutation or neutral action that also says
 * {@code select = true} on its verb) and {@code cursor} (for an action returning {@code Page<T>},
 * declared by the handler as a nullable {@code String cursor} parameter).
 */
final class FieldsAndPages {
  /** The input name of field selection; the pipeline consumes it, no handler sees it. */
  static final String SELECT = "_select";
  /** The parameter name a paged action declares. */
  static final String CURSOR = "cursor";
  /** The page result type (fusion-core; named, not linked: the processor never needs core). */
  static final String PAGE = "dev.mcpfusion.core.Page";

  private static final String SELECT_DESCRIPTION =
      "Return only these fields of each item (all fields when omitted).";
  private static final String CURSOR_DESCRIPTION = "Omit for the first page; to get the next page,"
      + " send the cursor the previous result gave (truncated.next) with the same other arguments.";

  private FieldsAndPages() {}

  /** Whether {@code view} declares {@code @Presenter(select = true)} (explicitly: the default is off). */
  static boolean selectable(TypeElement view) {
    AnnotationMirror presenter = view == null ? null : Mirrors.find(view, Views.PRESENTER);
    return presenter != null && Boolean.TRUE.equals(explicit(presenter, "select"));
  }

  /**
   * Whether {@code method} takes {@code _select}: its result view selects fields and it is a
   * {@code @Query}, or its {@code @Mutation} / {@code @Action} says {@code select = true}. Selection
   * narrows what is read, so an action that writes does not offer it unless asked to.
   */
  static boolean selects(ExecutableElement method, TypeElement view) {
    if (!selectable(view)) {
      return false;
    }
    return Mirrors.find(method, Props.ANN + "Query") != null || optedIn(method) != null;
  }

  /** The {@code @Mutation} or {@code @Action} of {@code method} when it says {@code select = true}. */
  private static AnnotationMirror optedIn(ExecutableElement method) {
    for (String verb : List.of("Mutation", "Action")) {
      AnnotationMirror m = Mirrors.find(method, Props.ANN + verb);
      if (m != null && Boolean.TRUE.equals(explicit(m, "select"))) {
        return m;
      }
    }
    return null;
  }

  private static Object explicit(AnnotationMirror mirror, String attribute) {
    for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> e
        : mirror.getElementValues().entrySet()) {
      if (e.getKey().getSimpleName().contentEquals(attribute)) {
        return e.getValue().getValue();
      }
    }
    return null;
  }

  /** The top-level field names of a view: its record components, in order. */
  static List<String> viewFields(TypeElement view) {
    List<String> names = new ArrayList<>();
    for (RecordComponentElement c : ElementFilter.recordComponentsIn(view.getEnclosedElements())) {
      names.add(c.getSimpleName().toString());
    }
    return names;
  }

  /** Reports {@code select = true} on a view with fewer than two fields; {@code false} if reported. */
  static boolean checkView(TypeElement view, Reporter reporter) {
    if (!selectable(view)) {
      return true;
    }
    int fields = viewFields(view).size();
    if (fields < 2) {
      AnnotationMirror presenter = Mirrors.find(view, Views.PRESENTER);
      reporter.reportOn(Diagnostic.SELECT_ONE_FIELD, view, presenter, null, Names.display(view),
          fields);
      return false;
    }
    return true;
  }

  /** Whether {@code t} is {@code Page<T>}. */
  static boolean isPage(TypeMirror t) {
    return t.getKind() == TypeKind.DECLARED
        && ((TypeElement) ((DeclaredType) t).asElement()).getQualifiedName().contentEquals(PAGE);
  }

  /**
   * Checks the action's inputs against what its result adds: no input may be named {@code _select}
   * when the view selects fields; a paged action declares an optional {@code String cursor}. Returns
   * the parameters to use (the cursor gets the framework's description when it has none), or
   * {@code null} after reporting.
   */
  static List<Param> check(ExecutableElement method, String where, Result result,
      List<Inputs.Site> commonFields, List<Param> params, Reporter reporter) {
    boolean ok = true;
    AnnotationMirror optIn = optedIn(method);
    if (optIn != null && !selectable(result.view())) {
      String why = result.view() == null ? "its result has no view"
          : "its result view " + Names.display(result.view()) + " does not say"
              + " @Presenter(select = true)";
      reporter.reportOn(Diagnostic.SELECT_WITHOUT_SELECTABLE_VIEW, method, optIn, null, where, why,
          optIn.getAnnotationType().asElement().getSimpleName());
      ok = false;
    }
    if (selects(method, result.view())) {
      List<Element> clashes = new ArrayList<>();
      for (Inputs.Site s : commonFields) {
        if (s.name.equals(SELECT)) {
          clashes.add(s.anchor);
        }
      }
      for (Param p : params) {
        if (p.site() != null && p.site().name.equals(SELECT)) {
          clashes.add(p.element());
        }
      }
      for (Element clash : clashes) {
        reporter.report(Diagnostic.SELECT_INPUT_CLASH, clash == null ? method : clash, where,
            Names.display(result.view()));
        ok = false;
      }
    }
    if (!result.shape().equals("PAGE")) {
      return ok ? params : null;
    }
    List<Param> out = new ArrayList<>(params);
    int at = -1;
    for (int i = 0; i < params.size(); i++) {
      Param p = params.get(i);
      if (p.kind() == ParamKind.JSON && p.site().name.equals(CURSOR)) {
        at = i;
      }
    }
    if (at < 0) {
      reporter.report(Diagnostic.PAGE_WITHOUT_CURSOR, method, where);
      return null;
    }
    Param cursor = params.get(at);
    TypeMirror t = cursor.element().asType();
    boolean string = t.getKind() == TypeKind.DECLARED && ((TypeElement) ((DeclaredType) t)
        .asElement()).getQualifiedName().contentEquals("java.lang.String");
    if (!string || cursor.site().required) {
      reporter.report(Diagnostic.PAGE_CURSOR_NOT_OPTIONAL_STRING, cursor.element(), where,
          Views.display(t), cursor.site().required ? " (required)" : "");
      return null;
    }
    if (cursor.site().description == null || cursor.site().description.isEmpty()) {
      Inputs.Site s = cursor.site();
      out.set(at, new Param(cursor.element(), ParamKind.JSON,
          new Inputs.Site(s.name, s.anchor, s.in, s.constraints, CURSOR_DESCRIPTION, false)));
    }
    return ok ? out : null;
  }

  /** The {@code _select} field descriptor of an action that {@link #selects} fields, else {@code null}. */
  static CodeBlock selectField(ExecutableElement method, TypeElement view) {
    if (!selects(method, view)) {
      return null;
    }
    Map<String, Object> items = new LinkedHashMap<>();
    items.put("type", "string");
    items.put("enum", viewFields(view));
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "array");
    schema.put("items", items);
    schema.put("minItems", 1);
    schema.put("description", SELECT_DESCRIPTION);
    return CodeBlock.of("$T.optional($S, $S).describedAs($S)", Sources.spi("FieldDescriptor"),
        SELECT, JsonText.write(schema), SELECT_DESCRIPTION);
  }
}
