package dev.mcpfusion.processor;

import com.palantir.javapoet.ClassName;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
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
 * The {@code @Presenter} family ({@code @Rules}, {@code @Suggest}, {@code @Ui}, validated by
 * {@link ViewMethods}): validates each view against its model and generates {@code V_Presenter}
 * (nested: {@code Outer_Inner_Presenter}).
 */
final class PresenterStep extends TypeStep<PresenterStep.ViewModel> {
  static final int SPI_VERSION = 2;

  private final Elements elements;
  private final Types types;
  private final PresenterWriter writer;
  private final Reporter reporter;
  private final Views views;
  private final Nullness nullness;
  private final javax.tools.Diagnostic.Kind unmappedKind;
  private final ReferenceStep references;

  PresenterStep(ProcessingEnvironment env, Reporter reporter, ReferenceStep references) {
    super(env.getElementUtils(), reporter, Views.PRESENTER);
    this.elements = env.getElementUtils();
    this.types = env.getTypeUtils();
    this.writer = new PresenterWriter(env.getTypeUtils(), env.getFiler(), reporter);
    this.reporter = reporter;
    this.references = references;
    this.nullness = new Nullness(env);
    this.views = new Views(elements, types, nullness);
    String option = env.getOptions().get(FusionProcessor.UNMAPPED_PROPERTY_OPTION);
    String o = option == null ? "WARN" : option.trim().toUpperCase(Locale.ROOT);
    this.unmappedKind = o.equals("ERROR") ? javax.tools.Diagnostic.Kind.ERROR
        : o.equals("IGNORE") ? null : javax.tools.Diagnostic.Kind.WARNING;
    if (!o.equals("ERROR") && !o.equals("WARN") && !o.equals("IGNORE")) {
      reporter.report(Diagnostic.INVALID_OPTION, null, FusionProcessor.UNMAPPED_PROPERTY_OPTION,
          option);
    }
  }

  /** The generated presenter class of a view. */
  static ClassName presenterName(TypeElement view) {
    ClassName v = ClassName.get(view);
    return ClassName.get(v.packageName(), Names.flatName(view) + "_Presenter");
  }

  /**
   * A validated view: the record, its model type, its analysed components and everything the
   * writer needs from its annotations, resolved once.
   */
  record ViewModel(TypeElement view, TypeMirror modelType, List<Views.Component> components,
      String outputSchema, List<String> staticRules, long agentLimit, ViewMethods methods,
      List<ReferenceStep.Unchecked> references, List<ClassName> referencesFrom) {
    ViewModel {
      components = List.copyOf(components);
      staticRules = List.copyOf(staticRules);
      references = List.copyOf(references);
      referencesFrom = List.copyOf(referencesFrom);
    }
  }

  @Override
  String generatedName(TypeElement view) {
    return presenterName(view).canonicalName();
  }

  @Override
  ViewModel validate(TypeElement view) {
    List<Views.Component> components = components(view);
    ViewMethods methods = ViewMethods.of(view, components == null ? List.of() : components,
        elements, types, views, reporter);
    if (components == null || methods == null || !FieldsAndPages.checkView(view, reporter)) {
      return null;
    }
    AnnotationMirror presenter = Mirrors.find(view, Views.PRESENTER);
    Set<ClassName> from = new LinkedHashSet<>();
    Set<ReferenceStep.Unchecked> refs = references(view, new LinkedHashSet<>(), new HashSet<>(), from);
    return new ViewModel(view, Mirrors.type(elements, presenter, "model"), components,
        JsonText.write(views.schema(view, components, new HashSet<>())),
        views.staticRules(view, components, new HashSet<>()),
        Mirrors.number(elements, presenter, "agentLimit", 50), methods, List.copyOf(refs),
        List.copyOf(from));
  }

  /**
   * The references left to {@code build()} written in {@code view}'s source and in the views
   * nested in it whose {@code @Rules} run when it is shown (at any depth); a nested view compiled
   * elsewhere adds its presenter ({@code from}) when that presenter lists references of its own.
   */
  private Set<ReferenceStep.Unchecked> references(TypeElement view,
      Set<ReferenceStep.Unchecked> out, Set<String> seen, Set<ClassName> from) {
    if (!seen.add(view.getQualifiedName().toString())) {
      return out;
    }
    if (!references.inCompilation(view)) {
      TypeElement compiled = elements.getTypeElement(presenterName(view).canonicalName());
      if (compiled != null && ElementFilter.methodsIn(compiled.getEnclosedElements()).stream()
          .anyMatch(m -> m.getSimpleName().contentEquals("references") && m.getParameters().isEmpty())) {
        from.add(presenterName(view));
      }
      return out;
    }
    out.addAll(references.uncheckedIn(view));
    List<Views.Component> components = views.components(view);
    for (Views.Component c : components == null ? List.<Views.Component>of() : components) {
      Views.Out o = c.out.element != null ? c.out.element : c.out;
      if (o.kind == Views.Out.Kind.VIEW
          && ViewMethods.hasDynamicRules(o.type, views, new HashSet<>())) {
        references(o.type, out, seen, from);
      }
    }
    return out;
  }

  @Override
  void write(ViewModel model) {
    writer.write(model);
  }

  @Override
  String missing(TypeElement view) {
    AnnotationMirror p = Mirrors.find(view, Views.PRESENTER);
    String missing = Mirrors.missingClass(elements, p, "model");
    if (missing != null) {
      return missing;
    }
    for (Element e : view.getEnclosedElements()) {
      missing = Mirrors.missingType(e.asType());
      if (missing == null && e instanceof ExecutableElement) {
        missing = Mirrors.missingType(((ExecutableElement) e).getReturnType());
      }
      if (missing != null) {
        return missing;
      }
    }
    TypeMirror model = Mirrors.type(elements, p, "model");
    if (model.getKind() == TypeKind.DECLARED) {
      for (Props.Prop prop : Props.of((TypeElement) ((DeclaredType) model).asElement(), types)) {
        missing = Mirrors.missingType(prop.type);
        if (missing != null) {
          return missing;
        }
      }
    }
    return null;
  }


  private List<Views.Component> components(TypeElement view) {
    AnnotationMirror presenter = Mirrors.find(view, Views.PRESENTER);
    String viewName = Names.display(view);
    if (!Props.isRecord(view)) {
      reporter.reportOn(Diagnostic.PRESENTER_NOT_RECORD, view, presenter, null, viewName);
      return null;
    }
    long limit = Mirrors.number(elements, presenter, "agentLimit", 50);
    if (limit < 1) {
      reporter.reportOn(Diagnostic.INVALID_AGENT_LIMIT, view, presenter,
          Mirrors.explicitValue(presenter, "agentLimit"), viewName, limit);
    }
    TypeMirror modelType = Mirrors.type(elements, presenter, "model");
    if (modelType == null || modelType.getKind() != TypeKind.DECLARED) {
      reporter.reportOn(Diagnostic.PRESENTER_MODEL_NOT_A_TYPE, view, presenter,
          Mirrors.explicitValue(presenter, "model"), viewName,
          modelType == null ? "no model" : Views.display(modelType));
      return null;
    }
    TypeElement model = (TypeElement) ((DeclaredType) modelType).asElement();
    String modelName = Names.display(model);
    List<Props.Prop> modelProps = Props.of(model, types);
    Map<String, Props.Prop> byName = new LinkedHashMap<>();
    List<String> exposable = new ArrayList<>();
    for (Props.Prop p : modelProps) {
      byName.put(p.name, p);
      if (!p.has("Hidden") && !p.has("Guarded")) {
        exposable.add(p.name);
      }
    }
    List<Views.Component> components = new ArrayList<>();
    Set<String> exposed = new HashSet<>();
    boolean ok = true;
    for (Props.Prop vp : Props.ofRecord(view, types)) {
      exposed.add(vp.name);
      Props.Prop mp = byName.get(vp.name);
      if (mp == null) {
        reporter.report(Diagnostic.UNKNOWN_VIEW_COMPONENT, vp.anchor, viewName, vp.name, modelName,
            Names.didYouMean(vp.name, exposable));
        ok = false;
        continue;
      }
      if (mp.has("Hidden") || mp.has("Guarded")) {
        String marker = mp.has("Hidden") ? "@Hidden" : "@Guarded";
        reporter.report(Diagnostic.HIDDEN_FIELD_EXPOSED, vp.anchor, viewName, vp.name, modelName,
            marker);
        ok = false;
        continue;
      }
      try {
        Views.Out out = views.match(mp.type, vp.type, viewName + "." + vp.name);
        components.add(views.component(vp, mp, out));
        for (Props.Prop side : List.of(mp, vp)) {
          if (side.invisibleNullable(nullness)) {
            TypeElement owner = (TypeElement) side.sources.get(0).getEnclosingElement();
            reporter.report(Diagnostic.NULLNESS_INVISIBLE, vp.anchor, Names.display(owner),
                side.name, vp.name);
          }
        }
      } catch (Views.Mismatch m) {
        reporter.report(m.diagnostic, vp.anchor, m.args);
        ok = false;
      }
    }
    Set<String> ignored = new LinkedHashSet<>(Mirrors.strings(elements, presenter, "ignore"));
    for (String i : ignored) {
      if (!byName.containsKey(i)) {
        reporter.reportOn(Diagnostic.UNKNOWN_IGNORED_PROPERTY, view, presenter,
            Mirrors.explicitValue(presenter, "ignore"), viewName, i, modelName,
            Names.didYouMean(i, byName.keySet()));
        ok = false;
      }
    }
    if (unmappedKind != null && !suppressed(view)) {
      for (Props.Prop p : modelProps) {
        if (!exposed.contains(p.name) && !ignored.contains(p.name) && !p.has("Hidden")
            && !p.has("Guarded")) {
          reporter.reportAs(unmappedKind, Diagnostic.UNMAPPED_PROPERTY, view, presenter, viewName,
              p.name, modelName);
        }
      }
    }
    if (ok && views.recursive(view, new HashSet<>())) {
      reporter.report(Diagnostic.RECURSIVE_VIEW, view, viewName);
      ok = false;
    }
    return ok ? components : null;
  }

  private boolean suppressed(Element element) {
    for (Element e = element; e != null; e = e.getEnclosingElement()) {
      AnnotationMirror s = Mirrors.find(e, "java.lang.SuppressWarnings");
      if (s != null && Mirrors.strings(elements, s, "value").contains("fusion/UnmappedProperty")) {
        return true;
      }
    }
    return false;
  }

  static boolean isString(TypeMirror t) {
    return t.getKind() == TypeKind.DECLARED && ((TypeElement) ((DeclaredType) t).asElement())
        .getQualifiedName().contentEquals("java.lang.String");
  }

  static boolean isListOf(TypeMirror t, String element) {
    if (t.getKind() != TypeKind.DECLARED) {
      return false;
    }
    DeclaredType d = (DeclaredType) t;
    if (!((TypeElement) d.asElement()).getQualifiedName().contentEquals("java.util.List")
        || d.getTypeArguments().size() != 1) {
      return false;
    }
    TypeMirror a = d.getTypeArguments().get(0);
    return a.getKind() == TypeKind.DECLARED
        && ((TypeElement) ((DeclaredType) a).asElement()).getQualifiedName().contentEquals(element);
  }
}
