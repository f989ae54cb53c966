package dev.mcpfusion.processor;

import com.palantir.javapoet.ClassName;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * The {@code @Router} family ({@code @Query}, {@code @Mutation}, {@code @Action}, {@code @Use},
 * {@code @Context}, {@code @Invalidates}, {@code @CacheControl}): validates each router and
 * generates {@code X_Fusion} (nested: {@code Outer_Inner_Fusion}) with its descriptor and a
 * {@code switch} dispatcher.
 */
final class RouterStep extends TypeStep<RouterModel> {
  private static final String ROUTER = Props.ANN + "Router";
  private static final List<String> VERBS = List.of("Query", "Mutation", "Action");

  private final Elements elements;
  private final Types types;
  private final Reporter reporter;
  private final Views views;
  private final Nullness nullness;
  private final ActionValidation actions;
  private final RouterWriter writer;
  private final ProxyValidation proxies;
  private final ProxyWriter proxyWriter;
  /** FLAT tool names of every router of the compilation: name → the action that has it. */
  private final Map<String, String> tools = new HashMap<>();

  RouterStep(ProcessingEnvironment env, Reporter reporter, ReferenceStep references) {
    super(env.getElementUtils(), reporter, ROUTER);
    this.elements = env.getElementUtils();
    this.types = env.getTypeUtils();
    this.reporter = reporter;
    this.nullness = new Nullness(env);
    this.views = new Views(elements, types, nullness);
    this.actions = new ActionValidation(elements, types, reporter, views, env.getFiler());
    this.writer = new RouterWriter(types, env.getFiler(), reporter, references);
    this.proxies = new ProxyValidation(elements, types, reporter, UpstreamDeclarations.trees(env));
    this.proxyWriter = new ProxyWriter(env.getFiler(), reporter);
  }

  /** The generated dispatcher class of a router. */
  static ClassName fusionName(TypeElement router) {
    return ClassName.get(ClassName.get(router).packageName(), Names.flatName(router) + "_Fusion");
  }

  // ---------------------------------------------------------------- rounds

  @Override
  String generatedName(TypeElement router) {
    return fusionName(router).canonicalName();
  }

  @Override
  void write(RouterModel model) {
    writer.write(model);
    if (!model.proxies().isEmpty()) {
      proxyWriter.write(model);
    }
  }

  // A view that failed validation has no V_Presenter: its error is the one to fix, so the router
  // is not generated against a class that does not exist.
  @Override
  boolean dependsOnBroken(RouterModel model) {
    return usesBrokenView(model);
  }

  private boolean usesBrokenView(RouterModel r) {
    for (RouterModel.ActionModel a : r.actions()) {
      if (a.view() != null && reporter.isBroken(a.view())) {
        return true;
      }
    }
    return false;
  }

  @Override
  String missing(TypeElement router) {
    AnnotationMirror r = Mirrors.find(router, ROUTER);
    String missing = Mirrors.missingClass(elements, r, "common");
    if (missing == null) {
      missing = missingUse(router);
    }
    for (ExecutableElement m : ElementFilter.methodsIn(router.getEnclosedElements())) {
      if (missing != null) {
        return missing;
      }
      missing = Mirrors.missingType(m.getReturnType());
      if (missing == null) {
        missing = missingUse(m);
      }
      for (VariableElement p : m.getParameters()) {
        if (missing == null) {
          missing = Mirrors.missingType(p.asType());
        }
      }
      for (String verb : VERBS) {
        AnnotationMirror v = Mirrors.find(m, Props.ANN + verb);
        if (missing == null && v != null) {
          missing = Mirrors.missingClass(elements, v, "presenter");
        }
      }
    }
    return missing;
  }

  private String missingUse(Element e) {
    AnnotationMirror use = Mirrors.find(e, Props.ANN + "Use");
    if (use == null) {
      return null;
    }
    for (AnnotationValue v : Mirrors.list(elements, use, "value")) {
      if (!(v.getValue() instanceof TypeMirror) || ((TypeMirror) v.getValue()).getKind() == TypeKind.ERROR) {
        return v.getValue() instanceof TypeMirror ? v.getValue().toString()
            : "a class in @Use(...)";
      }
    }
    return null;
  }

  // ---------------------------------------------------------------- validation

  @Override
  RouterModel validate(TypeElement router) {
    AnnotationMirror ann = Mirrors.find(router, ROUTER);
    String display = Names.display(router);
    boolean ok = true;
    if (router.getKind() != ElementKind.CLASS && router.getKind() != ElementKind.RECORD) {
      reporter.reportOn(Diagnostic.ROUTER_NOT_A_CLASS, router, ann, null, display);
      return null;
    }
    if (router.getModifiers().contains(Modifier.PRIVATE) || !router.getTypeParameters().isEmpty()) {
      reporter.reportOn(Diagnostic.INVALID_ROUTER, router, ann, null, display,
          fusionName(router).simpleName());
      return null;
    }
    String name = Mirrors.string(elements, ann, "value");
    if (!Names.ROUTER_OR_ACTION.matcher(name).matches()) {
      reporter.reportOn(Diagnostic.INVALID_ROUTER_NAME, router, ann,
          Mirrors.explicitValue(ann, "value"), display, name,
          name.contains(".") ? " (a dot separates router and action in references)" : "",
          ActionValidation.suggestName(name));
      ok = false;
    }

    boolean prefixed = Mirrors.bool(elements, ann, "prefixed");

    Inputs inputs = new Inputs(elements, types, reporter);
    TypeMirror commonType = Mirrors.type(elements, ann, "common");
    Set<String> commonNames = new LinkedHashSet<>();
    TypeElement validCommon = null;
    List<Inputs.Site> commonFields = new ArrayList<>();
    if (commonType != null && commonType.getKind() == TypeKind.DECLARED) {
      TypeElement common = (TypeElement) ((DeclaredType) commonType).asElement();
      if (!Props.isRecord(common) || !common.getTypeParameters().isEmpty()) {
        reporter.reportOn(Diagnostic.INVALID_COMMON_TYPE, router, ann,
            Mirrors.explicitValue(ann, "common"), display, Names.display(common));
        ok = false;
      } else {
        validCommon = common;
        for (Props.Prop p : Props.ofRecord(common, types)) {
          if (p.has("Guarded")) {
            reporter.reportOn(Diagnostic.GUARDED_COMMON_FIELD, router, ann,
                Mirrors.explicitValue(ann, "common"), p.name, Names.display(common));
            ok = false;
            continue;
          }
          if (p.has("Hidden")) {
            reporter.reportOn(Diagnostic.HIDDEN_COMMON_FIELD, router, ann,
                Mirrors.explicitValue(ann, "common"), p.name, Names.display(common));
            ok = false;
            continue;
          }
          try {
            Inputs.In in = inputs.resolve(p.type, List.of());
            ok &= inputs.reportMarked(in, p.name, router, ann, Mirrors.explicitValue(ann, "common"),
                display + " (common record " + Names.display(common) + ")");
            if (p.invisibleNullable(nullness)) {
              reporter.reportOn(Diagnostic.NULLNESS_INVISIBLE_COMMON, router, ann, null,
                  Names.display(common), p.name);
            }
            Inputs.Site site = inputs.site(p.name, p.anchor, in, p.annotations(),
                inputs.description(p.sources, p.type), true, p.nullable(nullness));
            ok &= HeaderMarks.read(site, p.annotation(Props.ANN + "McpHeader"), p.anchor,
                display + " (common record " + Names.display(common) + ")", elements, reporter);
            commonFields.add(site);
            commonNames.add(p.name);
          } catch (Inputs.Unsupported u) {
            reporter.report(Diagnostic.UNSUPPORTED_COMMON_FIELD_TYPE, p.anchor, p.name,
                Names.display(common), Views.display(p.type), u.getMessage());
            ok = false;
          }
        }
      }
    }

    List<RouterModel.ActionModel> valid = new ArrayList<>();
    Map<String, ExecutableElement> byName = new LinkedHashMap<>();
    for (ExecutableElement method : ElementFilter.methodsIn(router.getEnclosedElements())) {
      List<AnnotationMirror> verbs = new ArrayList<>();
      List<String> verbNames = new ArrayList<>();
      for (String v : VERBS) {
        AnnotationMirror m = Mirrors.find(method, Props.ANN + v);
        if (m != null) {
          verbs.add(m);
          verbNames.add("@" + v);
        }
      }
      String where = display + "." + method.getSimpleName();
      if (verbs.isEmpty()) {
        ok &= proxies.checkVerbless(method, where);
        continue;
      }
      if (verbs.size() > 1) {
        reporter.report(Diagnostic.MULTIPLE_VERBS, method, where, String.join(" and ", verbNames));
        ok = false;
        continue;
      }
      RouterModel.ActionModel a = actions.action(validCommon, commonFields, method, verbs.get(0),
          verbNames.get(0).substring(1), where, inputs, commonNames);
      if (a == null) {
        ok = false;
        continue;
      }
      ExecutableElement first = byName.putIfAbsent(a.name(), method);
      if (first != null) {
        reporter.report(Diagnostic.DUPLICATE_ACTION, method, where, a.name(), display,
            first.getSimpleName());
        ok = false;
        continue;
      }
      if (Names.ROUTER_OR_ACTION.matcher(name).matches()) {
        // The same name the runtime gives it (with the default separator): @Router(prefixed = false)
        // names a FLAT tool by its action alone, so it can meet any other router's tool.
        String tool = prefixed ? name + "_" + a.name() : a.name();
        if (!Names.TOOL.matcher(tool).matches()) {
          reporter.report(Diagnostic.INVALID_TOOL_NAME, method, where, tool, tool.length());
          ok = false;
          continue;
        }
        String owner = tools.putIfAbsent(tool, where);
        if (owner != null && !owner.equals(where)) {
          reporter.report(Diagnostic.DUPLICATE_TOOL_NAME, method, where, tool, owner);
          ok = false;
          continue;
        }
      }
      valid.add(a);
    }
    if (valid.isEmpty() && ok && !FeatureStep.hasFeatures(router)) {
      reporter.report(Diagnostic.EMPTY_ROUTER, router, display);
    }
    List<String> scopes = actions.scopes(router, display);
    ok &= scopes != null;
    ok &= new WorkflowCheck(elements, reporter).check(router, ann, display);
    List<ProxyValidation.ProxyModel> proxied = proxies.router(router, valid, display);
    ok &= proxied != null;
    return ok ? new RouterModel(router, name, Mirrors.string(elements, ann, "description"),
        validCommon, commonFields, valid, actions.use(router), scopes, proxied) : null;
  }
}
