package dev.mcpfusion.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import com.palantir.javapoet.WildcardTypeName;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.annotation.processing.Filer;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.RoundEnvironment;
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
 * The {@code @Presenter} family ({@code @Rules}, {@code @Suggest}): validates each view against its
 * model and generates {@code V_Presenter} (nested: {@code Outer_Inner_Presenter}).
 */
final class PresenterStep extends TypeStep<PresenterStep.ViewModel> {
  static final int SPI_VERSION = 1;
  private static final String SUGGESTION = "dev.mcpfusion.core.Suggestion";

  private final Elements elements;
  private final Types types;
  private final Filer filer;
  private final Reporter reporter;
  private final Views views;
  private final Nullness nullness;
  private final javax.tools.Diagnostic.Kind unmappedKind;

  PresenterStep(ProcessingEnvironment env, Reporter reporter) {
    super(env.getElementUtils(), reporter, Views.PRESENTER);
    this.elements = env.getElementUtils();
    this.types = env.getTypeUtils();
    this.filer = env.getFiler();
    this.reporter = reporter;
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

  /** A validated view: the record and its analysed components. */
  record ViewModel(TypeElement view, List<Views.Component> components) {}

  @Override
  String generatedName(TypeElement view) {
    return presenterName(view).canonicalName();
  }

  @Override
  ViewModel validate(TypeElement view) {
    List<Views.Component> components = components(view);
    return components == null ? null : new ViewModel(view, components);
  }

  @Override
  void write(ViewModel model) {
    generate(model.view(), model.components());
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
    ok &= checkMethods(view, viewName);
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

  private boolean checkMethods(TypeElement view, String viewName) {
    boolean ok = true;
    ExecutableElement suggest = null;
    ExecutableElement rules = null;
    for (ExecutableElement m : ElementFilter.methodsIn(view.getEnclosedElements())) {
      if (Mirrors.find(m, Props.ANN + "Suggest") != null) {
        String problem = signatureProblem(m, view, true);
        if (problem == null && suggest != null) {
          problem = "is the second @Suggest method (the first is " + suggest.getSimpleName()
              + "); a view has at most one";
        }
        if (problem != null) {
          reporter.report(Diagnostic.INVALID_SUGGEST_METHOD, m, viewName, m.getSimpleName(),
              problem, view.getSimpleName());
          ok = false;
        } else {
          suggest = m;
        }
      }
      if (Mirrors.find(m, Props.ANN + "Rules") != null) {
        String problem = signatureProblem(m, view, false);
        if (problem == null && rules != null) {
          problem = "is the second @Rules method (the first is " + rules.getSimpleName()
              + "); a view has at most one";
        }
        if (problem != null) {
          reporter.report(Diagnostic.INVALID_RULES_METHOD, m, viewName, m.getSimpleName(),
              problem, view.getSimpleName());
          ok = false;
        } else {
          rules = m;
        }
      }
    }
    return ok;
  }

  private String signatureProblem(ExecutableElement m, TypeElement view, boolean suggest) {
    if (!m.getModifiers().contains(Modifier.STATIC)) {
      return "is not static";
    }
    if (m.getModifiers().contains(Modifier.PRIVATE)) {
      return "is private, so the generated presenter cannot call it";
    }
    if (m.getParameters().size() != 1
        || !types.isSameType(m.getParameters().get(0).asType(), view.asType())) {
      return "must take exactly one parameter of type " + view.getSimpleName();
    }
    TypeMirror r = m.getReturnType();
    if (suggest ? !isListOf(r, SUGGESTION) : !(isString(r) || isListOf(r, "java.lang.String"))) {
      return "returns " + Views.display(r);
    }
    return null;
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

  // ---------------------------------------------------------------- generation

  private void generate(TypeElement view, List<Views.Component> components) {
    AnnotationMirror presenter = Mirrors.find(view, Views.PRESENTER);
    TypeMirror modelType = Mirrors.type(elements, presenter, "model");
    TypeName model = Sources.plain(types.erasure(modelType));
    ClassName viewName = ClassName.get(view);
    ClassName self = presenterName(view);
    ParameterizedTypeName mapOfWildcard = ParameterizedTypeName.get(ClassName.get(Map.class),
        ClassName.get(String.class), WildcardTypeName.subtypeOf(Object.class));
    ParameterizedTypeName treeType = ParameterizedTypeName.get(Map.class, String.class, Object.class);
    ParameterizedTypeName listOfString = ParameterizedTypeName.get(List.class, String.class);
    ClassName suggestion = ClassName.get("dev.mcpfusion.core", "Suggestion");

    String schema = JsonText.write(views.schema(view, components, new HashSet<>()));
    List<String> rules = views.staticRules(view, components, new HashSet<>());
    long limit = Mirrors.number(elements, presenter, "agentLimit", 50);

    TypeSpec.Builder type = TypeSpec.classBuilder(self)
        .addOriginatingElement(view)
        .addAnnotation(Sources.GENERATED)
        .addJavadoc("The presenter of {@link $T}: strip-mode view of {@link $T}.\n", viewName, model)
        .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
        .addSuperinterface(ParameterizedTypeName.get(Sources.spi("PresenterBinding"), model, viewName));
    type.addField(FieldSpec.builder(self, "INSTANCE", Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL)
        .initializer("new $T()", self).build());
    type.addField(FieldSpec.builder(String.class, "OUTPUT_SCHEMA", Modifier.PRIVATE, Modifier.STATIC,
        Modifier.FINAL).initializer("$S", schema).build());
    type.addField(FieldSpec.builder(listOfString, "FIELD_NAMES", Modifier.PRIVATE, Modifier.STATIC,
        Modifier.FINAL).initializer(listOf(components.stream().map(c -> c.view.name).toList())).build());
    type.addField(FieldSpec.builder(listOfString, "STATIC_RULES", Modifier.PRIVATE, Modifier.STATIC,
        Modifier.FINAL).initializer(listOf(rules)).build());
    type.addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build());
    type.addMethod(override("spiVersion", TypeName.INT).addStatement("return $L", SPI_VERSION).build());
    type.addMethod(override("modelType", ParameterizedTypeName.get(ClassName.get(Class.class), model))
        .addStatement("return $T.class", model).build());
    type.addMethod(override("viewType", ParameterizedTypeName.get(ClassName.get(Class.class), viewName))
        .addStatement("return $T.class", viewName).build());

    // fromModel
    MethodSpec.Builder fromModel = override("fromModel", viewName).addParameter(model, "model");
    fromModel.beginControlFlow("if (model == null)").addStatement("return null").endControlFlow();
    List<String> args = new ArrayList<>();
    for (int i = 0; i < components.size(); i++) {
      Views.Component c = components.get(i);
      String local = "c" + i;
      args.add(local);
      TypeName vt = Sources.plain(c.view.type);
      CodeBlock read = CodeBlock.of("model.$N()", c.model.accessor);
      Views.Out o = c.out;
      switch (o.kind) {
        case LIST:
        case SET: {
          String m = "m" + i;
          fromModel.addStatement("$T $N = $L", Sources.plain(c.model.type), m, read);
          fromModel.addStatement("$T $N = null", vt, local);
          fromModel.beginControlFlow("if ($N != null)", m);
          fromModel.addStatement("$N = new $T<>($N.size())", local,
              o.kind == Views.Out.Kind.SET ? LinkedHashSet.class : ArrayList.class, m);
          fromModel.beginControlFlow("for (var e : $N)", m);
          fromModel.addStatement("$N.add($L)", local, fromModelElement(o.element, "e"));
          fromModel.endControlFlow().endControlFlow();
          break;
        }
        case OPTIONAL: {
          String m = "m" + i;
          fromModel.addStatement("$T $N = $L", Sources.plain(c.model.type), m, read);
          if (o.element.kind == Views.Out.Kind.VIEW) {
            fromModel.addStatement("$T $N = $N == null ? $T.empty() : $N.map(e -> $L)", vt, local, m,
                java.util.Optional.class, m, fromModelElement(o.element, "e"));
          } else {
            fromModel.addStatement("$T $N = $N == null ? $T.empty() : $N", vt, local, m,
                java.util.Optional.class, m);
          }
          break;
        }
        default:
          fromModel.addStatement("$T $N = $L", vt, local, fromModelElement(o, read.toString()));
      }
    }
    fromModel.addStatement("return new $T($L)", viewName, String.join(", ", args));
    type.addMethod(fromModel.build());

    // fromMap
    MethodSpec.Builder fromMap = override("fromMap", viewName).addParameter(mapOfWildcard, "row");
    fromMap.beginControlFlow("if (row == null)").addStatement("return null").endControlFlow();
    for (int i = 0; i < components.size(); i++) {
      Views.Component c = components.get(i);
      String local = "c" + i;
      TypeName vt = Sources.plain(c.view.type);
      String key = c.view.name;
      CodeBlock raw = CodeBlock.of("row.get($S)", key);
      Views.Out o = c.out;
      switch (o.kind) {
        case LIST:
        case SET: {
          String r = "r" + i;
          fromMap.addStatement("$T $N = $T.asList($L, $S)", ParameterizedTypeName.get(
              ClassName.get(List.class), WildcardTypeName.subtypeOf(Object.class)), r,
              Sources.spi("Values"), raw, key);
          fromMap.addStatement("$T $N = null", vt, local);
          fromMap.beginControlFlow("if ($N != null)", r);
          fromMap.addStatement("$N = new $T<>($N.size())", local,
              o.kind == Views.Out.Kind.SET ? LinkedHashSet.class : ArrayList.class, r);
          fromMap.beginControlFlow("for (Object e : $N)", r);
          fromMap.addStatement("$N.add($L)", local, fromMapElement(o.element, CodeBlock.of("e"), key));
          fromMap.endControlFlow().endControlFlow();
          break;
        }
        case OPTIONAL:
          fromMap.addStatement("$T $N = $T.ofNullable($L)", vt, local, java.util.Optional.class,
              fromMapElement(o.element, raw, key));
          break;
        default:
          CodeBlock value = fromMapElement(o, raw, key);
          if (o.primitive) {
            value = CodeBlock.of("$T.require($L, $S)", Sources.spi("Values"), value, key);
          }
          fromMap.addStatement("$T $N = $L", vt, local, value);
      }
    }
    fromMap.addStatement("return new $T($L)", viewName, String.join(", ", args));
    type.addMethod(fromMap.build());

    // toTree
    MethodSpec.Builder toTree = override("toTree", treeType).addParameter(viewName, "view");
    // Sized for its components (load factor 0.75), so filling it never grows the table.
    toTree.addStatement("$T tree = new $T<>($L)", treeType, LinkedHashMap.class,
        Math.max(1, (components.size() * 4 + 2) / 3));
    for (int i = 0; i < components.size(); i++) {
      Views.Component c = components.get(i);
      String t = "t" + i;
      Views.Out o = c.out;
      toTree.addStatement("$T $N = view.$N()", Sources.plain(c.view.type), t, c.view.name);
      if (!o.primitive && !c.nullable) {
        // The output schema promises a value; fail here, naming the component, rather than let
        // the SDK reject the whole result with its own text.
        toTree.beginControlFlow("if ($N == null)", t);
        toTree.addStatement("throw new $T($S)", IllegalStateException.class, nullMessage(view, c));
        toTree.endControlFlow();
      }
      switch (o.kind) {
        case LIST:
        case SET: {
          String l = "l" + i;
          toTree.addStatement("$T $N = null", ParameterizedTypeName.get(List.class, Object.class), l);
          toTree.beginControlFlow("if ($N != null)", t);
          toTree.addStatement("$N = new $T<>($N.size())", l, ArrayList.class, t);
          toTree.beginControlFlow("for (var e : $N)", t);
          toTree.addStatement("$N.add($L)", l, treeElement(o.element, "e", true));
          toTree.endControlFlow().endControlFlow();
          toTree.addStatement("tree.put($S, $N)", c.view.name, l);
          break;
        }
        case OPTIONAL:
          toTree.addStatement("tree.put($S, $N == null || $N.isEmpty() ? null : $L)", c.view.name, t,
              t, treeElement(o.element, t + ".get()", false));
          break;
        default:
          toTree.addStatement("tree.put($S, $L)", c.view.name, treeElement(o, t, !o.primitive));
      }
    }
    toTree.addStatement("return tree");
    type.addMethod(toTree.build());
    type.addMethod(appendJson(view, viewName, components));

    type.addMethod(override("outputSchemaJson", ClassName.get(String.class))
        .addStatement("return OUTPUT_SCHEMA").build());
    type.addMethod(override("fieldNames", listOfString).addStatement("return FIELD_NAMES").build());
    type.addMethod(override("staticRules", listOfString).addStatement("return STATIC_RULES").build());

    ExecutableElement rulesMethod = annotatedMethod(view, "Rules");
    MethodSpec.Builder dynamic = override("dynamicRules", listOfString).addParameter(viewName, "view");
    if (rulesMethod == null) {
      dynamic.addStatement("return $T.of()", List.class);
    } else if (isString(rulesMethod.getReturnType())) {
      dynamic.addStatement("String rule = $T.$N(view)", viewName, rulesMethod.getSimpleName().toString());
      dynamic.addStatement("return rule == null || rule.isEmpty() ? $T.of() : $T.of(rule)", List.class,
          List.class);
    } else {
      dynamic.addStatement("$T rules = $T.$N(view)", listOfString, viewName,
          rulesMethod.getSimpleName().toString());
      dynamic.addStatement("return rules == null ? $T.of() : rules", List.class);
    }
    type.addMethod(dynamic.build());

    ExecutableElement suggestMethod = annotatedMethod(view, "Suggest");
    ParameterizedTypeName listOfSuggestion = ParameterizedTypeName.get(ClassName.get(List.class),
        suggestion);
    MethodSpec.Builder suggestions = override("suggestions", listOfSuggestion)
        .addParameter(viewName, "view");
    if (suggestMethod == null) {
      suggestions.addStatement("return $T.of()", List.class);
    } else {
      suggestions.addStatement("$T suggested = $T.$N(view)", listOfSuggestion, viewName,
          suggestMethod.getSimpleName().toString());
      suggestions.addStatement("return suggested == null ? $T.of() : suggested", List.class);
    }
    type.addMethod(suggestions.build());
    type.addMethod(override("agentLimit", TypeName.INT).addStatement("return $L", limit).build());

    String error = Sources.write(filer, self.packageName(), type.build(), view);
    if (error != null) {
      reporter.report(Diagnostic.GENERATION_FAILED, view, presenterName(view), error);
    }
  }

  /**
   * {@code appendJson}: the text {@code Json.write(toTree(view))} produces, written without the
   * tree. It mirrors {@code toTree} component by component (same reads, same null checks in the
   * same order); keys are constants escaped at compile time as the runtime escapes them.
   */
  private MethodSpec appendJson(TypeElement view, ClassName viewName,
      List<Views.Component> components) {
    MethodSpec.Builder m = override("appendJson", TypeName.VOID).addParameter(viewName, "view")
        .addParameter(StringBuilder.class, "out");
    if (components.isEmpty()) {
      m.addStatement("out.append($S)", "{}");
      return m.build();
    }
    for (int i = 0; i < components.size(); i++) {
      Views.Component c = components.get(i);
      Views.Out o = c.out;
      String key = (i == 0 ? "{" : ",") + JsonText.runtimeString(c.view.name) + ":";
      if (o.primitive) {
        m.addStatement("out.append($S)", key);
        appendPresent(m, o, "view." + c.view.name + "()");
        continue;
      }
      String t = "t" + i;
      m.addStatement("$T $N = view.$N()", Sources.plain(c.view.type), t, c.view.name);
      if (!c.nullable) {
        m.beginControlFlow("if ($N == null)", t);
        m.addStatement("throw new $T($S)", IllegalStateException.class, nullMessage(view, c));
        m.endControlFlow();
      }
      m.addStatement("out.append($S)", key);
      switch (o.kind) {
        case LIST:
        case SET: {
          if (c.nullable) {
            m.beginControlFlow("if ($N == null)", t).addStatement("out.append($S)", "null")
                .nextControlFlow("else");
          }
          String first = "first" + i;
          m.addStatement("out.append('[')");
          m.addStatement("boolean $N = true", first);
          m.beginControlFlow("for (var e : $N)", t);
          m.beginControlFlow("if (!$N)", first).addStatement("out.append(',')").endControlFlow();
          m.addStatement("$N = false", first);
          appendNullable(m, o.element, "e");
          m.endControlFlow();
          m.addStatement("out.append(']')");
          if (c.nullable) {
            m.endControlFlow();
          }
          break;
        }
        case OPTIONAL:
          m.beginControlFlow("if ($N == null || $N.isEmpty())", t, t)
              .addStatement("out.append($S)", "null").nextControlFlow("else");
          appendPresent(m, o.element, t + ".get()");
          m.endControlFlow();
          break;
        default:
          if (c.nullable) {
            appendNullable(m, o, t);
          } else {
            appendPresent(m, o, t);
          }
      }
    }
    m.addStatement("out.append('}')");
    return m.build();
  }

  private static String nullMessage(TypeElement view, Views.Component c) {
    return view.getSimpleName() + "." + c.view.name + " is null, but it is not @Nullable:"
        + " mark the component (or the model property) @Nullable, or never leave it null";
  }

  /** Appends a value that may be {@code null} (written as {@code null}, as in the tree). */
  private void appendNullable(MethodSpec.Builder m, Views.Out o, String var) {
    if (o.kind == Views.Out.Kind.SCALAR && o.scalar == Scalar.STRING) {
      m.addStatement("$T.string($L, out)", Sources.spi("JsonOut"), var); // writes null itself
      return;
    }
    m.beginControlFlow("if ($L == null)", var).addStatement("out.append($S)", "null")
        .nextControlFlow("else");
    appendPresent(m, o, var);
    m.endControlFlow();
  }

  /** Appends a scalar, enum or view value known not to be {@code null}. */
  private void appendPresent(MethodSpec.Builder m, Views.Out o, String var) {
    ClassName jsonOut = Sources.spi("JsonOut");
    switch (o.kind) {
      case ENUM:
        m.addStatement("$T.string($L.name(), out)", jsonOut, var);
        return;
      case VIEW:
        m.addStatement("$T.INSTANCE.appendJson($L, out)", presenterName(o.type), var);
        return;
      case SCALAR:
        break;
      default:
        throw new IllegalStateException(o.kind.toString());
    }
    switch (o.scalar) {
      case STRING:
        m.addStatement("$T.string($L, out)", jsonOut, var);
        break;
      case BOOLEAN:
        m.addStatement(o.primitive ? "out.append($L)" : "out.append($L.booleanValue())", var);
        break;
      case INT8:
      case INT16:
      case INT32:
        m.addStatement(o.primitive ? "out.append($L)" : "out.append($L.intValue())", var);
        break;
      case INT64:
        m.addStatement(o.primitive ? "out.append($L)" : "out.append($L.longValue())", var);
        break;
      case FLOAT32:
        m.addStatement(o.primitive ? "$T.number($L, out)" : "$T.number($L.floatValue(), out)",
            jsonOut, var);
        break;
      case FLOAT64:
        m.addStatement(o.primitive ? "$T.number($L, out)" : "$T.number($L.doubleValue(), out)",
            jsonOut, var);
        break;
      case BIG_INTEGER:
      case DECIMAL:
        m.addStatement("$T.value($L, out)", jsonOut, var);
        break;
      default: // UUID and java.time: their ISO text, as toTree puts it
        m.addStatement("$T.string($L.toString(), out)", jsonOut, var);
    }
  }

  private static MethodSpec.Builder override(String name, TypeName returns) {
    return MethodSpec.methodBuilder(name).addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC).returns(returns);
  }

  static CodeBlock listOf(List<String> values) {
    CodeBlock.Builder b = CodeBlock.builder().add("$T.of(", List.class);
    for (int i = 0; i < values.size(); i++) {
      b.add(i == 0 ? "$S" : ", $S", values.get(i));
    }
    return b.add(")").build();
  }

  private ExecutableElement annotatedMethod(TypeElement view, String annotation) {
    for (ExecutableElement m : ElementFilter.methodsIn(view.getEnclosedElements())) {
      if (Mirrors.find(m, Props.ANN + annotation) != null) {
        return m;
      }
    }
    return null;
  }

  private CodeBlock fromModelElement(Views.Out o, String expr) {
    if (o.kind == Views.Out.Kind.VIEW) {
      return CodeBlock.of("$T.INSTANCE.fromModel($L)", presenterName(o.type), expr);
    }
    return CodeBlock.of("$L", expr);
  }

  private CodeBlock fromMapElement(Views.Out o, CodeBlock raw, String key) {
    ClassName values = Sources.spi("Values");
    switch (o.kind) {
      case SCALAR:
        return CodeBlock.of("$T.$N($L, $S)", values, o.scalar.valuesMethod, raw, key);
      case ENUM:
        return CodeBlock.of("$T.asEnum($L, $T.class, $S)", values, raw, ClassName.get(o.type), key);
      case VIEW:
        return CodeBlock.of("$T.INSTANCE.fromMap($T.asMap($L, $S))", presenterName(o.type), values,
            raw, key);
      default:
        throw new IllegalStateException(o.kind.toString());
    }
  }

  private CodeBlock treeElement(Views.Out o, String var, boolean nullSafe) {
    CodeBlock value;
    switch (o.kind) {
      case SCALAR:
        if (o.scalar.jsonType.equals("string") && o.scalar != Scalar.STRING) {
          value = CodeBlock.of("$L.toString()", var);
          break;
        }
        return CodeBlock.of("$L", var);
      case ENUM:
        value = CodeBlock.of("$L.name()", var);
        break;
      case VIEW:
        value = CodeBlock.of("$T.INSTANCE.toTree($L)", presenterName(o.type), var);
        break;
      default:
        throw new IllegalStateException(o.kind.toString());
    }
    return nullSafe ? CodeBlock.of("$L == null ? null : $L", var, value) : value;
  }
}
