package dev.mcpfusion.processor;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import com.palantir.javapoet.WildcardTypeName;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import javax.annotation.processing.Filer;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
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
final class RouterStep implements FusionProcessor.Step {
  private static final String ROUTER = Props.ANN + "Router";
  private static final List<String> VERBS = List.of("Query", "Mutation", "Action");
  private static final String REQUEST_CONTEXT = "dev.mcpfusion.core.RequestContext";
  private static final List<String> JSON_NODES = List.of("tools.jackson.databind.JsonNode",
      "com.fasterxml.jackson.databind.JsonNode");
  private static final ClassName ARGS = Sources.spi("Args");
  private static final ClassName CHECKS = Sources.spi("Checks");
  private static final ClassName PROBLEMS = Sources.spi("Problems");
  private static final TypeName MAP_OF_ANY = ParameterizedTypeName.get(ClassName.get(Map.class),
      ClassName.get(String.class), WildcardTypeName.subtypeOf(Object.class));
  private static final TypeName LIST_OF_ANY = ParameterizedTypeName.get(ClassName.get(List.class),
      WildcardTypeName.subtypeOf(Object.class));
  private static final TypeName CLASS_LIST = ParameterizedTypeName.get(ClassName.get(List.class),
      ParameterizedTypeName.get(ClassName.get(Class.class), WildcardTypeName.subtypeOf(Object.class)));

  private final Elements elements;
  private final Types types;
  private final Filer filer;
  private final Reporter reporter;
  private final Views views;
  private final Nullness nullness;
  private final Set<String> deferred = new TreeSet<>();
  private final Set<String> done = new HashSet<>();
  private final Map<String, String> tools = new HashMap<>();

  RouterStep(ProcessingEnvironment env, Reporter reporter) {
    this.elements = env.getElementUtils();
    this.types = env.getTypeUtils();
    this.filer = env.getFiler();
    this.reporter = reporter;
    this.nullness = new Nullness(env);
    this.views = new Views(elements, types, nullness);
  }

  /** The generated dispatcher class of a router. */
  static ClassName fusionName(TypeElement router) {
    return ClassName.get(ClassName.get(router).packageName(), Names.flatName(router) + "_Fusion");
  }

  // ---------------------------------------------------------------- model

  enum ParamKind { JSON, CONTEXT, COMMON }

  static final class Param {
    final VariableElement element;
    final ParamKind kind;
    final Inputs.Site site;

    Param(VariableElement element, ParamKind kind, Inputs.Site site) {
      this.element = element;
      this.kind = kind;
      this.site = site;
    }
  }

  static final class ActionModel {
    ExecutableElement method;
    String name;
    String description;
    String verb;
    boolean readOnly;
    boolean destructive;
    boolean idempotent;
    boolean openWorld;
    final List<Param> params = new ArrayList<>();
    TypeElement view;
    String shape;
    String elementKind;
    String resultSchema;
    String cachePolicy;
    List<String> invalidates = List.of();
    List<TypeMirror> middleware = List.of();
    boolean beanValidation;
  }

  static final class RouterModel {
    TypeElement type;
    String name;
    String description;
    TypeElement common;
    final List<Inputs.Site> commonFields = new ArrayList<>();
    final List<ActionModel> actions = new ArrayList<>();
    List<TypeMirror> middleware = List.of();
  }

  // ---------------------------------------------------------------- rounds

  @Override
  public void process(RoundEnvironment round) {
    Set<String> names = Rounds.typesToProcess(elements, round, ROUTER, deferred);
    for (String name : names) {
      TypeElement router = elements.getTypeElement(name);
      if (router == null || done.contains(name)) {
        continue;
      }
      if (unresolved(router)) {
        if (!round.processingOver()) {
          deferred.add(name);
        }
        continue;
      }
      done.add(name);
      int before = reporter.errorCount();
      try {
        RouterModel model = validate(router);
        // A view that failed validation has no V_Presenter: its error is the one to fix, so the
        // router is not generated against a class that does not exist.
        if (model != null && reporter.errorCount() == before && !usesBrokenView(model)) {
          generate(model);
        }
      } catch (RuntimeException e) {
        reporter.error("ProcessorFailure", router, "The processor failed on " + name + " (" + e
            + "). Please report this with the declaration; other types are still processed.");
      }
    }
  }

  private boolean usesBrokenView(RouterModel r) {
    for (ActionModel a : r.actions) {
      if (a.view != null && reporter.isBroken(a.view)) {
        return true;
      }
    }
    return false;
  }

  private boolean unresolved(TypeElement router) {
    AnnotationMirror r = Mirrors.find(router, ROUTER);
    if (r == null || Mirrors.unresolvedType(elements, r, "common") || unresolvedUse(router)) {
      return true;
    }
    for (ExecutableElement m : ElementFilter.methodsIn(router.getEnclosedElements())) {
      if (Mirrors.hasErrorType(m.getReturnType()) || unresolvedUse(m)) {
        return true;
      }
      for (VariableElement p : m.getParameters()) {
        if (Mirrors.hasErrorType(p.asType())) {
          return true;
        }
      }
      for (String verb : VERBS) {
        AnnotationMirror v = Mirrors.find(m, Props.ANN + verb);
        if (v != null && Mirrors.unresolvedType(elements, v, "presenter")) {
          return true;
        }
      }
    }
    return false;
  }

  private boolean unresolvedUse(Element e) {
    AnnotationMirror use = Mirrors.find(e, Props.ANN + "Use");
    if (use == null) {
      return false;
    }
    for (AnnotationValue v : Mirrors.list(elements, use, "value")) {
      if (!(v.getValue() instanceof TypeMirror) || ((TypeMirror) v.getValue()).getKind() == TypeKind.ERROR) {
        return true;
      }
    }
    return false;
  }

  // ---------------------------------------------------------------- validation

  private RouterModel validate(TypeElement router) {
    AnnotationMirror ann = Mirrors.find(router, ROUTER);
    String display = Names.display(router);
    RouterModel r = new RouterModel();
    r.type = router;
    boolean ok = true;
    if (router.getKind() != ElementKind.CLASS && router.getKind() != ElementKind.RECORD) {
      reporter.error("InvalidRouter", router, ann, null, display + " is annotated @Router but is"
          + " not a class. Put @Router on the class whose methods are the actions.");
      return null;
    }
    if (router.getModifiers().contains(Modifier.PRIVATE) || !router.getTypeParameters().isEmpty()) {
      reporter.error("InvalidRouter", router, ann, null, display + " is private or generic, so the"
          + " generated " + fusionName(router).simpleName() + " cannot bind it. Make it a"
          + " non-private, non-generic class.");
      return null;
    }
    r.name = Mirrors.string(elements, ann, "value");
    if (!Names.ROUTER_OR_ACTION.matcher(r.name).matches()) {
      reporter.error("InvalidRouterName", router, ann, Mirrors.explicitValue(ann, "value"),
          display + " is named '" + r.name + "', but router names must match [a-z][a-z0-9_]*"
              + (r.name.contains(".") ? " (a dot separates router and action in references)" : "")
              + ". Use '" + suggestName(r.name) + "'.");
      ok = false;
    }
    r.description = Mirrors.string(elements, ann, "description");
    r.middleware = use(router);

    Inputs inputs = new Inputs(elements, types, reporter);
    TypeMirror commonType = Mirrors.type(elements, ann, "common");
    Set<String> commonNames = new LinkedHashSet<>();
    if (commonType != null && commonType.getKind() == TypeKind.DECLARED) {
      TypeElement common = (TypeElement) ((DeclaredType) commonType).asElement();
      if (!Props.isRecord(common) || !common.getTypeParameters().isEmpty()) {
        reporter.error("InvalidCommonType", router, ann, Mirrors.explicitValue(ann, "common"),
            display + " names " + Names.display(common) + " as its common fields, but it is not a"
                + " (non-generic) record. Declare a record whose components are the router-wide"
                + " inputs.");
        ok = false;
      } else {
        r.common = common;
        for (Props.Prop p : Props.ofRecord(common, types)) {
          if (p.has("Guarded")) {
            reporter.error("GuardedInput", p.anchor, "'" + p.name + "' of the common record "
                + Names.display(common) + " is @Guarded, so the agent must not send it. Take the"
                + " value from a @Context parameter and remove it from the record.");
            ok = false;
            continue;
          }
          try {
            Inputs.In in = inputs.resolve(p.type, List.of());
            if (p.invisibleNullable(nullness)) {
              reporter.warning("NullnessInvisible", router, ann, "The common field " + Names.display(
                  common) + "." + p.name + " is read from a class file, and this javac does not"
                  + " show its type-use @Nullable to annotation processors; the processor read it"
                  + " from the class file and treats it as optional. Build with JDK 22+ or compile "
                  + Names.display(common) + " in the same module to make it visible.");
            }
            r.commonFields.add(inputs.site(p.name, p.anchor, in, p.annotations(),
                inputs.description(p.sources, p.type), true, p.nullable(nullness)));
            commonNames.add(p.name);
          } catch (Inputs.Unsupported u) {
            reporter.error("UnsupportedParameterType", p.anchor, "The common field '" + p.name
                + "' of " + Names.display(common) + " has type " + Views.display(p.type)
                + ", but " + u.getMessage() + " " + Inputs.SUPPORTED);
            ok = false;
          }
        }
      }
    }

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
      if (verbs.isEmpty()) {
        continue;
      }
      String where = display + "." + method.getSimpleName();
      if (verbs.size() > 1) {
        reporter.error("MultipleVerbs", method, where + " is annotated " + String.join(" and ",
            verbNames) + ". Keep exactly one verb: @Query (reads), @Mutation (destroys or"
            + " overwrites) or @Action (neither).");
        ok = false;
        continue;
      }
      ActionModel a = action(r, method, verbs.get(0), verbNames.get(0).substring(1), where, inputs,
          commonNames);
      if (a == null) {
        ok = false;
        continue;
      }
      ExecutableElement first = byName.putIfAbsent(a.name, method);
      if (first != null) {
        reporter.error("DuplicateAction", method, where + " is the action '" + a.name + "', but "
            + display + "." + first.getSimpleName() + " already has that name. Rename one with"
            + " name = \"...\" on its verb annotation.");
        ok = false;
        continue;
      }
      if (Names.ROUTER_OR_ACTION.matcher(r.name).matches()) {
        String tool = r.name + "_" + a.name;
        if (!Names.TOOL.matcher(tool).matches()) {
          reporter.error("InvalidToolName", method, where + " becomes the MCP tool '" + tool + "' ("
              + tool.length() + " characters), which does not match ^[a-zA-Z0-9_-]{1,64}$; some"
              + " clients drop the whole connector for one bad name. Shorten the action name with"
              + " name = \"...\" (or the router name).");
          ok = false;
          continue;
        }
        String owner = tools.putIfAbsent(tool, where);
        if (owner != null && !owner.equals(where)) {
          reporter.error("DuplicateToolName", method, where + " becomes the MCP tool '" + tool
              + "', which " + owner + " already is. Rename the action or the router.");
          ok = false;
          continue;
        }
      }
      r.actions.add(a);
    }
    if (r.actions.isEmpty() && ok && !FeatureStep.hasFeatures(router)) {
      reporter.warning("EmptyRouter", router, display + " has no @Query, @Mutation or @Action"
          + " method, so it exposes no tool. Annotate the methods the agent may call.");
    }
    return ok ? r : null;
  }

  private static String suggestName(String name) {
    String s = Names.snake(name).toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
    if (s.isEmpty() || !Character.isLetter(s.charAt(0))) {
      s = "a" + s;
    }
    return s;
  }

  private List<TypeMirror> use(Element e) {
    AnnotationMirror use = Mirrors.find(e, Props.ANN + "Use");
    List<TypeMirror> out = new ArrayList<>();
    if (use != null) {
      for (AnnotationValue v : Mirrors.list(elements, use, "value")) {
        out.add((TypeMirror) v.getValue());
      }
    }
    return out;
  }

  private ActionModel action(RouterModel r, ExecutableElement method, AnnotationMirror verb,
      String verbName, String where, Inputs inputs, Set<String> commonNames) {
    boolean ok = true;
    ActionModel a = new ActionModel();
    a.method = method;
    a.verb = verbName.toUpperCase(java.util.Locale.ROOT);
    if (method.getModifiers().contains(Modifier.PRIVATE) || !method.getTypeParameters().isEmpty()) {
      reporter.error("InaccessibleAction", method, where + " is private or generic, so the generated"
          + " dispatcher cannot call it. Make it a non-private, non-generic method.");
      return null;
    }
    String explicit = Mirrors.string(elements, verb, "name");
    a.name = explicit.isEmpty() ? Names.snake(method.getSimpleName().toString()) : explicit;
    if (!Names.ROUTER_OR_ACTION.matcher(a.name).matches()) {
      AnnotationValue nameValue = Mirrors.explicitValue(verb, "name");
      String why = a.name.contains(".")
          ? "contains a dot, but dots separate router and action in references such as"
              + " billing.void_invoice"
          : "does not match [a-z][a-z0-9_]*";
      reporter.error("InvalidActionName", method, verb, nameValue, where + " is named '" + a.name
          + "', which " + why + ". Use '" + suggestName(a.name) + "'.");
      ok = false;
    }
    a.description = Mirrors.string(elements, verb, "description");
    if (a.description.isEmpty()) {
      a.description = firstSentence(elements.getDocComment(method));
    }
    if (a.description.isEmpty()) {
      reporter.error("MissingDescription", method, where + " has no description, so the agent"
          + " cannot know when to call it. Add " + "@" + verbName + "(description = \"...\") or a"
          + " Javadoc sentence.");
      ok = false;
    }
    switch (verbName) {
      case "Query":
        a.readOnly = true;
        break;
      case "Mutation":
        a.destructive = true;
        break;
      default:
        a.readOnly = Mirrors.bool(elements, verb, "readOnly");
        a.destructive = Mirrors.bool(elements, verb, "destructive");
    }
    a.idempotent = Mirrors.bool(elements, verb, "idempotent");
    a.openWorld = Mirrors.bool(elements, verb, "openWorld");
    AnnotationMirror invalidates = Mirrors.find(method, Props.ANN + "Invalidates");
    if (invalidates != null) {
      a.invalidates = Mirrors.strings(elements, invalidates, "value");
      if (verbName.equals("Query")) {
        reporter.error("InvalidatesOnQuery", method, invalidates, null, where + " is a @Query but"
            + " declares @Invalidates; a read makes nothing stale. Remove @Invalidates or make it"
            + " a @Mutation.");
        ok = false;
      }
    }
    AnnotationMirror cache = Mirrors.find(method, Props.ANN + "CacheControl");
    a.cachePolicy = "DEFAULT";
    if (cache != null) {
      AnnotationValue v = Mirrors.value(elements, cache, "value");
      if (v != null && v.getValue() instanceof VariableElement) {
        a.cachePolicy = ((VariableElement) v.getValue()).getSimpleName().toString();
      }
    }
    a.middleware = use(method);

    for (VariableElement p : method.getParameters()) {
      TypeMirror t = p.asType();
      String name = p.getSimpleName().toString();
      boolean requestContext = t.getKind() == TypeKind.DECLARED
          && ((TypeElement) ((DeclaredType) t).asElement()).getQualifiedName()
              .contentEquals(REQUEST_CONTEXT);
      if (requestContext || Mirrors.find(p, Props.ANN + "Context") != null) {
        a.params.add(new Param(p, ParamKind.CONTEXT, null));
        continue;
      }
      if (r.common != null && types.isSameType(types.erasure(t), types.erasure(r.common.asType()))) {
        a.params.add(new Param(p, ParamKind.COMMON, null));
        continue;
      }
      if (Mirrors.find(p, Props.ANN + "Guarded") != null) {
        reporter.error("GuardedInput", p, where + " takes '" + name + "' from the agent, but it is"
            + " @Guarded. Take it from a @Context parameter (provided by the server or a"
            + " middleware) instead.");
        ok = false;
        continue;
      }
      Inputs.In in;
      try {
        in = inputs.resolve(t, List.of());
      } catch (Inputs.Unsupported u) {
        reporter.error("UnsupportedParameterType", p, where + " parameter '" + name + "' has type "
            + Views.display(t) + ", but " + u.getMessage() + " " + Inputs.SUPPORTED
            + " Or mark it @Context.");
        ok = false;
        continue;
      }
      if (commonNames.contains(name)) {
        reporter.error("CommonFieldClash", p, where + " parameter '" + name + "' has the name of a"
            + " field of the common record " + Names.display(r.common) + ", so both would be the"
            + " input field '" + name + "'. Rename the parameter, or take the "
            + r.common.getSimpleName() + " parameter instead.");
        ok = false;
        continue;
      }
      List<AnnotationMirror> annotations = new ArrayList<>(p.getAnnotationMirrors());
      annotations.addAll(t.getAnnotationMirrors());
      Inputs.Site site = inputs.site(name, p, in, annotations,
          inputs.description(List.of(p), t), false, Mirrors.nullable(List.of(p), List.of(t)));
      a.params.add(new Param(p, ParamKind.JSON, site));
    }
    Set<String> seen = new HashSet<>();
    for (Inputs.Site s : r.commonFields) {
      a.beanValidation |= Inputs.beanValidation(s, seen);
    }
    for (Param p : a.params) {
      if (p.site != null) {
        a.beanValidation |= Inputs.beanValidation(p.site, seen);
      }
    }
    ok &= result(a, method, verb, where);
    return ok ? a : null;
  }

  /** First sentence of a Javadoc comment: inline tags unwrapped, block tags dropped. */
  static String firstSentence(String doc) {
    if (doc == null) {
      return "";
    }
    StringBuilder text = new StringBuilder();
    for (String line : doc.split("\n", -1)) {
      String t = line.strip();
      if (t.startsWith("@")) {
        break;
      }
      text.append(t).append(' ');
    }
    String s = text.toString()
        .replaceAll("\\{@(?:code|literal|link|linkplain)\\s+([^}]*)\\}", "$1")
        .replaceAll("<[^>]+>", "")
        .replaceAll("\\s+", " ")
        .strip();
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) == '.' && (i + 1 == s.length() || Character.isWhitespace(s.charAt(i + 1)))) {
        return s.substring(0, i + 1);
      }
    }
    return s;
  }

  // ---------------------------------------------------------------- results

  private boolean result(ActionModel a, ExecutableElement method, AnnotationMirror verb, String where) {
    TypeMirror r = method.getReturnType();
    TypeMirror presenterType = Mirrors.type(elements, verb, "presenter");
    TypeElement view = null;
    AnnotationValue presenterValue = Mirrors.explicitValue(verb, "presenter");
    if (presenterType != null && presenterType.getKind() == TypeKind.DECLARED) {
      TypeElement pe = (TypeElement) ((DeclaredType) presenterType).asElement();
      if (!views.isView(pe)) {
        reporter.error("NotAPresenter", method, verb, presenterValue, where + " names presenter "
            + Names.display(pe) + ", which is not annotated @Presenter. Name a @Presenter view"
            + " record (for example a view of " + Names.display(pe) + ").");
        return false;
      }
      view = pe;
    } else if (presenterType != null && presenterType.getKind() != TypeKind.VOID) {
      reporter.error("NotAPresenter", method, verb, presenterValue, where + " names presenter "
          + presenterType + ", which is not a @Presenter view. Name a @Presenter view record.");
      return false;
    }
    a.elementKind = "NONE";
    if (r.getKind() == TypeKind.VOID) {
      if (view != null) {
        reporter.error("PresenterModelMismatch", method, verb, presenterValue, where + " returns"
            + " void, so presenter " + Names.display(view) + " has nothing to present. Remove"
            + " presenter = ... or return the model.");
        return false;
      }
      a.shape = "VOID";
      return true;
    }
    // unwrap the container
    TypeMirror item = r;
    String shape = "SINGLE";
    if (r.getKind() == TypeKind.ARRAY) {
      shape = "ARRAY";
      item = ((ArrayType) r).getComponentType();
    } else if (r.getKind() == TypeKind.DECLARED && !isJsonNode(r)) {
      // A JsonNode is Iterable over its children, but it is one row.
      DeclaredType d = (DeclaredType) r;
      String qn = ((TypeElement) d.asElement()).getQualifiedName().toString();
      TypeMirror arg = d.getTypeArguments().size() == 1 ? Views.argument(r) : null;
      if (qn.equals(Scalar.OPTIONAL)) {
        shape = "OPTIONAL";
        item = arg;
      } else if (qn.equals("java.util.stream.Stream")) {
        shape = "STREAM";
        item = arg;
      } else if (assignable(r, "java.util.Collection")) {
        shape = "COLLECTION";
        item = arg;
      } else if (assignable(r, "java.lang.Iterable")) {
        shape = "ITERABLE";
        item = arg;
      }
    }
    if (item == null) {
      reporter.error(view == null ? "ResultNeedsPresenter" : "PresenterModelMismatch", method,
          where + " returns " + Views.display(r) + ", whose element type cannot be read. Return"
              + " a List<Model>, Optional<Model>, array or Stream<Model> with one type argument.");
      return false;
    }
    if (view == null) {
      if (item.getKind() == TypeKind.DECLARED
          && views.isView((TypeElement) ((DeclaredType) item).asElement())) {
        a.view = (TypeElement) ((DeclaredType) item).asElement();
        a.shape = shape;
        a.elementKind = "VIEW";
        return true;
      }
      if (shape.equals("SINGLE")) {
        Map<String, Object> schema = valueSchema(r);
        if (schema != null) {
          a.shape = "VALUE";
          a.resultSchema = JsonText.write(schema);
          return true;
        }
      }
      reporter.error("ResultNeedsPresenter", method, where + " returns " + Views.display(r)
          + ", which needs a presenter to decide what may leave the process. Add presenter ="
          + " SomeView.class (a @Presenter view of " + Views.display(item) + ") to @"
          + a.verb.charAt(0) + a.verb.substring(1).toLowerCase(java.util.Locale.ROOT) + ".");
      return false;
    }
    TypeMirror model = views.modelOf(view);
    a.view = view;
    a.shape = shape;
    if (model != null && item.getKind() == TypeKind.DECLARED
        && types.isAssignable(types.erasure(item), types.erasure(model))) {
      a.elementKind = "MODEL";
    } else if (types.isSameType(types.erasure(item), types.erasure(view.asType()))) {
      a.elementKind = "VIEW";
    } else if (assignable(item, "java.util.Map")) {
      a.elementKind = "MAP";
    } else if (isJsonNode(item)) {
      a.elementKind = "TREE";
    } else {
      String modelName = model == null ? "?" : Views.display(model);
      reporter.error("PresenterModelMismatch", method, verb, presenterValue, where + " returns "
          + Views.display(r) + ", but presenter " + Names.display(view) + " presents " + modelName
          + ". Use a presenter whose model is " + Views.display(item) + ", or return "
          + modelName + ".");
      return false;
    }
    return true;
  }

  private boolean assignable(TypeMirror t, String qualifiedName) {
    TypeElement target = elements.getTypeElement(qualifiedName);
    return target != null && t.getKind() == TypeKind.DECLARED
        && types.isAssignable(types.erasure(t), types.erasure(target.asType()));
  }

  private boolean isJsonNode(TypeMirror t) {
    for (String name : JSON_NODES) {
      if (assignable(t, name)) {
        return true;
      }
    }
    return false;
  }

  /** The schema of a result that needs no presenter, or {@code null}. */
  private Map<String, Object> valueSchema(TypeMirror r) {
    Map<String, Object> s = new LinkedHashMap<>();
    TypeMirror t = r;
    if (t.getKind() == TypeKind.DECLARED) {
      try {
        t = types.unboxedType(t);
      } catch (IllegalArgumentException notBoxed) {
        t = r;
      }
    }
    switch (t.getKind()) {
      case BOOLEAN:
        s.put("type", "boolean");
        return s;
      case BYTE:
      case SHORT:
      case INT:
      case LONG:
        s.put("type", "integer");
        return s;
      case FLOAT:
      case DOUBLE:
        s.put("type", "number");
        return s;
      case CHAR:
        s.put("type", "string");
        return s;
      case DECLARED:
        TypeElement e = (TypeElement) ((DeclaredType) t).asElement();
        if (e.getQualifiedName().contentEquals("java.lang.String")) {
          s.put("type", "string");
          return s;
        }
        if (e.getKind() == ElementKind.ENUM) {
          s.put("type", "string");
          s.put("enum", Views.enumConstants(e));
          return s;
        }
        return null;
      default:
        return null;
    }
  }

  // ---------------------------------------------------------------- generation

  private void generate(RouterModel r) {
    ClassName router = ClassName.get(r.type);
    ClassName self = fusionName(r.type);
    Gen gen = new Gen();
    TypeSpec.Builder type = TypeSpec.classBuilder(self)
        .addOriginatingElement(r.type)
        .addAnnotation(Sources.GENERATED)
        .addJavadoc("The dispatcher and descriptor of {@link $T}: router {@code $L}.\n", router,
            r.name)
        .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
        .addSuperinterface(Sources.spi("GeneratedRouter"));
    type.addField(FieldSpec.builder(Sources.spi("RouterDescriptor"), "DESCRIPTOR", Modifier.PRIVATE,
        Modifier.STATIC, Modifier.FINAL).initializer("buildDescriptor()").build());
    type.addField(router, "target", Modifier.PRIVATE, Modifier.FINAL);
    type.addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE)
        .addParameter(router, "target")
        .addStatement("this.target = $T.requireNonNull(target, $S)", Objects.class, "target").build());
    type.addMethod(MethodSpec.methodBuilder("bind")
        .addJavadoc("Binds an instance of {@link $T}, without reflection.\n", router)
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .returns(Sources.spi("GeneratedRouter"))
        .addParameter(router, "target")
        .addStatement("return new $T(target)", self).build());
    type.addMethod(override("spiVersion", TypeName.INT)
        .addStatement("return $L", PresenterStep.SPI_VERSION).build());
    type.addMethod(override("descriptor", Sources.spi("RouterDescriptor"))
        .addStatement("return DESCRIPTOR").build());
    type.addMethod(MethodSpec.methodBuilder("describe")
        .addJavadoc("The descriptor without an instance of {@link $T}: for build tools such as the\n"
            + "capability lockfile, which must never run user code.\n", router)
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .returns(Sources.spi("RouterDescriptor"))
        .addStatement("return DESCRIPTOR").build());

    // decode
    MethodSpec.Builder decode = override("decode", ArrayTypeName.of(Object.class))
        .addParameter(TypeName.INT, "action")
        .addParameter(ParameterizedTypeName.get(ClassName.get(Map.class), ClassName.get(String.class),
            WildcardTypeName.subtypeOf(Object.class)), "arguments")
        .addParameter(PROBLEMS, "problems");
    decode.addStatement("$T args = arguments == null ? $T.of() : arguments", MAP_OF_ANY, Map.class);
    decode.beginControlFlow("switch (action)");
    for (int i = 0; i < r.actions.size(); i++) {
      decode.addCode("case $L:\n", i).addCode("$>").addStatement("return decode_$L(args, problems)",
          r.actions.get(i).name).addCode("$<");
    }
    decode.addCode("default:\n$>").addStatement("throw new $T($S + action)",
        IllegalArgumentException.class, "No action number in " + r.name + ": ").addCode("$<");
    decode.endControlFlow();
    type.addMethod(decode.build());

    // invoke
    MethodSpec.Builder invoke = override("invoke", ClassName.OBJECT)
        .addAnnotation(com.palantir.javapoet.AnnotationSpec.builder(SuppressWarnings.class)
            .addMember("value", "$S", "unchecked").build())
        .addParameter(TypeName.INT, "action")
        .addParameter(ArrayTypeName.of(Object.class), "a")
        .addParameter(Sources.spi("ContextLookup"), "ctx")
        .addException(Exception.class);
    invoke.beginControlFlow("switch (action)");
    for (int i = 0; i < r.actions.size(); i++) {
      ActionModel a = r.actions.get(i);
      CodeBlock.Builder call = CodeBlock.builder();
      if (a.method.getModifiers().contains(Modifier.STATIC)) {
        call.add("$T.$N(", router, a.method.getSimpleName().toString());
      } else {
        call.add("target.$N(", a.method.getSimpleName().toString());
      }
      for (int j = 0; j < a.params.size(); j++) {
        Param p = a.params.get(j);
        if (j > 0) {
          call.add(", ");
        }
        TypeMirror t = p.element.asType();
        if (p.kind == ParamKind.CONTEXT) {
          TypeName erased = Sources.plain(types.erasure(t));
          TypeName full = Sources.plain(t);
          if (full.equals(erased)) {
            call.add("ctx.get($T.class)", erased);
          } else {
            call.add("($T) ctx.get($T.class)", full, erased);
          }
        } else {
          call.add("($T) a[$L]", Sources.plain(t).box(), j);
        }
      }
      call.add(")");
      invoke.addCode("case $L:\n$>", i);
      if (a.method.getReturnType().getKind() == TypeKind.VOID) {
        invoke.addStatement("$L", call.build()).addStatement("return null");
      } else {
        invoke.addStatement("return $L", call.build());
      }
      invoke.addCode("$<");
    }
    invoke.addCode("default:\n$>").addStatement("throw new $T($S + action)",
        IllegalArgumentException.class, "No action number in " + r.name + ": ").addCode("$<");
    invoke.endControlFlow();
    type.addMethod(invoke.build());

    type.addMethod(descriptorMethod(r));
    for (ActionModel a : r.actions) {
      type.addMethod(decodeAction(r, a, gen));
    }
    type.addMethod(MethodSpec.methodBuilder("fields")
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .returns(ParameterizedTypeName.get(ClassName.get(List.class), Sources.spi("FieldDescriptor")))
        .addParameter(ParameterizedTypeName.get(ClassName.get(List.class),
            Sources.spi("FieldDescriptor")), "common")
        .addParameter(ArrayTypeName.of(Sources.spi("FieldDescriptor")), "own")
        .varargs(true)
        .addStatement("$T<$T> all = new $T<>(common)", List.class, Sources.spi("FieldDescriptor"),
            ArrayList.class)
        .addStatement("all.addAll($T.asList(own))", java.util.Arrays.class)
        .addStatement("return all")
        .build());
    for (MethodSpec helper : gen.helpers.values()) {
      type.addMethod(helper);
    }
    for (FieldSpec f : gen.patternFields) {
      type.addField(f);
    }
    String error = Sources.write(filer, self.packageName(), type.build(), r.type);
    if (error != null) {
      reporter.error("GenerationFailed", r.type, error);
    }
  }

  private static MethodSpec.Builder override(String name, TypeName returns) {
    return MethodSpec.methodBuilder(name).addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC).returns(returns);
  }

  private MethodSpec descriptorMethod(RouterModel r) {
    ClassName fd = Sources.spi("FieldDescriptor");
    MethodSpec.Builder m = MethodSpec.methodBuilder("buildDescriptor")
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .returns(Sources.spi("RouterDescriptor"));
    CodeBlock.Builder common = CodeBlock.builder().add("$T.of(", List.class);
    for (int i = 0; i < r.commonFields.size(); i++) {
      common.add(i == 0 ? "\n$>$>$L" : ",\n$L", field(r.commonFields.get(i), true));
      if (i == r.commonFields.size() - 1) {
        common.add("$<$<");
      }
    }
    common.add(")");
    m.addStatement("$T<$T> common = $L", List.class, fd, common.build());
    m.addStatement("$T<$T> actions = new $T<>()", List.class, Sources.spi("ActionDescriptor"),
        ArrayList.class);
    for (ActionModel a : r.actions) {
      CodeBlock.Builder fields = CodeBlock.builder().add("fields(common");
      List<CodeBlock> contexts = new ArrayList<>();
      List<CodeBlock> paramTypes = new ArrayList<>();
      for (Param p : a.params) {
        if (p.kind == ParamKind.JSON) {
          fields.add(",\n$>$>$L$<$<", field(p.site, false));
        } else if (p.kind == ParamKind.CONTEXT) {
          contexts.add(CodeBlock.of("new $T($S, $T.class)", Sources.spi("ContextParameter"),
              p.element.getSimpleName().toString(), Sources.plain(types.erasure(p.element.asType()))));
        }
        paramTypes.add(CodeBlock.of("$T.class", Sources.plain(types.erasure(p.element.asType()))));
      }
      fields.add(")");
      CodeBlock.Builder args = CodeBlock.builder();
      args.add("$S,\n", a.name);
      args.add("$S,\n", a.method.getSimpleName().toString());
      args.add("$S,\n", a.description);
      args.add("$T.$L,\n", Sources.spi("Verb"), a.verb);
      args.add("$L, $L, $L, $L,\n", a.readOnly, a.destructive, a.idempotent, a.openWorld);
      args.add("$L,\n", fields.build());
      args.add("$T.of($L),\n", List.class, CodeBlock.join(contexts, ", "));
      if (a.view == null) {
        args.add("null,\n");
      } else {
        args.add("$T.INSTANCE,\n", PresenterStep.presenterName(a.view));
      }
      args.add("$T.$L,\n", Sources.spi("ResultShape"), a.shape);
      args.add("$T.$L,\n", Sources.spi("ElementKind"), a.elementKind);
      if (a.resultSchema == null) {
        args.add("null,\n");
      } else {
        args.add("$S,\n", a.resultSchema);
      }
      args.add("$T.$L,\n", ClassName.get("dev.mcpfusion.annotation", "CachePolicy"), a.cachePolicy);
      args.add("$L,\n", PresenterStep.listOf(a.invalidates));
      args.add("$L,\n", classList(a.middleware));
      args.add("$T.<$T<?>>of($L),\n", List.class, Class.class, CodeBlock.join(paramTypes, ", "));
      args.add("$L", a.beanValidation);
      m.addStatement("actions.add(new $T(\n$>$>$L$<$<))", Sources.spi("ActionDescriptor"),
          args.build());
    }
    m.addStatement("return new $T($S, $S, $T.class, common, actions, $L)",
        Sources.spi("RouterDescriptor"), r.name, r.description, ClassName.get(r.type),
        classList(r.middleware));
    return m.build();
  }

  private CodeBlock classList(List<TypeMirror> classes) {
    List<CodeBlock> items = new ArrayList<>();
    for (TypeMirror t : classes) {
      items.add(CodeBlock.of("$T.class", Sources.plain(types.erasure(t))));
    }
    return CodeBlock.of("$T.<$T<?>>of($L)", List.class, Class.class, CodeBlock.join(items, ", "));
  }

  private CodeBlock field(Inputs.Site site, boolean common) {
    String schema = JsonText.write(Inputs.schema(site));
    return CodeBlock.of("new $T($S, $S, $L, $S, $L)", Sources.spi("FieldDescriptor"), site.name,
        schema, site.required, site.description, common);
  }

  private MethodSpec decodeAction(RouterModel r, ActionModel a, Gen gen) {
    MethodSpec.Builder m = MethodSpec.methodBuilder("decode_" + a.name)
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .returns(ArrayTypeName.of(Object.class))
        .addParameter(MAP_OF_ANY, "args")
        .addParameter(PROBLEMS, "p");
    List<String> accepted = new ArrayList<>();
    for (int i = 0; i < r.commonFields.size(); i++) {
      Inputs.Site s = r.commonFields.get(i);
      accepted.add(s.name);
      m.addStatement("Object rawC$L = args.get($S)", i, s.name);
      m.addStatement("$T c$L = $L", gen.local(s.in.value()), i,
          gen.decode(s.in, CodeBlock.of("rawC$L", i), CodeBlock.of("$S", s.name)));
    }
    for (int j = 0; j < a.params.size(); j++) {
      Param p = a.params.get(j);
      if (p.kind != ParamKind.JSON) {
        continue;
      }
      Inputs.Site s = p.site;
      accepted.add(s.name);
      m.addStatement("Object raw$L = args.get($S)", j, s.name);
      m.addStatement("$T v$L = $L", gen.local(s.in.value()), j,
          gen.decode(s.in, CodeBlock.of("raw$L", j), CodeBlock.of("$S", s.name)));
    }
    m.addStatement("$T.rejectUnknown(args, $S, $L, p)", ARGS, "", PresenterStep.listOf(accepted));
    for (int i = 0; i < r.commonFields.size(); i++) {
      Inputs.Site s = r.commonFields.get(i);
      gen.checks(m, s, "c" + i, "rawC" + i, CodeBlock.of("$S", s.name));
    }
    for (int j = 0; j < a.params.size(); j++) {
      Param p = a.params.get(j);
      if (p.kind == ParamKind.JSON) {
        gen.checks(m, p.site, "v" + j, "raw" + j, CodeBlock.of("$S", p.site.name));
      }
    }
    m.addStatement("Object[] out = new Object[$L]", a.params.size());
    for (int j = 0; j < a.params.size(); j++) {
      Param p = a.params.get(j);
      if (p.kind == ParamKind.JSON) {
        if (p.site.in.kind == Inputs.In.Kind.OPTIONAL) {
          m.addStatement("out[$L] = $T.ofNullable(v$L)", j, Optional.class, j);
        } else {
          m.addStatement("out[$L] = v$L", j, j);
        }
      } else if (p.kind == ParamKind.COMMON) {
        List<CodeBlock> ctorArgs = new ArrayList<>();
        for (int i = 0; i < r.commonFields.size(); i++) {
          ctorArgs.add(r.commonFields.get(i).in.kind == Inputs.In.Kind.OPTIONAL
              ? CodeBlock.of("$T.ofNullable(c$L)", Optional.class, i) : CodeBlock.of("c$L", i));
        }
        m.addStatement("out[$L] = p.isEmpty() ? new $T($L) : null", j, ClassName.get(r.common),
            CodeBlock.join(ctorArgs, ", "));
      }
    }
    m.addStatement("return out");
    return m.build();
  }

  /** Per-router generation state: decoder helpers and compiled patterns, in first-use order. */
  private final class Gen {
    final Map<String, MethodSpec> helpers = new LinkedHashMap<>();
    final Map<String, String> helperNames = new HashMap<>();
    final Set<String> usedNames = new HashSet<>();
    final Map<String, String> patterns = new HashMap<>();
    final List<FieldSpec> patternFields = new ArrayList<>();

    TypeName local(Inputs.In in) {
      switch (in.kind) {
        case SCALAR:
          return ClassName.bestGuess(in.scalar.boxed);
        case ENUM:
        case RECORD:
          return ClassName.get(in.type);
        case OPTIONAL:
          return local(in.element);
        default:
          return Sources.plain(in.mirror);
      }
    }

    CodeBlock decode(Inputs.In in, CodeBlock raw, CodeBlock path) {
      switch (in.kind) {
        case SCALAR:
          return CodeBlock.of("$T.$N($L, $L, p)", ARGS, in.scalar.argsMethod, raw, path);
        case ENUM:
          return CodeBlock.of("$T.enumValue($L, $L, $T.class, p)", ARGS, raw, path,
              ClassName.get(in.type));
        case OPTIONAL:
          return decode(in.element, raw, path);
        default:
          return CodeBlock.of("$N($L, $L, p)", helper(in), raw, path);
      }
    }

    private String helper(Inputs.In in) {
      String key = in.mirror.getKind() == TypeKind.DECLARED && in.kind == Inputs.In.Kind.RECORD
          ? in.type.getQualifiedName().toString() : Sources.plain(in.mirror).toString();
      String name = helperNames.get(key);
      if (name != null) {
        return name;
      }
      String base = "decode" + label(in);
      name = base;
      for (int n = 2; !usedNames.add(name); n++) {
        name = base + n;
      }
      helperNames.put(key, name);
      helpers.put(key, null);
      MethodSpec.Builder m = MethodSpec.methodBuilder(name)
          .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
          .addParameter(Object.class, "raw")
          .addParameter(String.class, "path")
          .addParameter(PROBLEMS, "p");
      if (in.kind == Inputs.In.Kind.RECORD) {
        recordBody(m, in);
      } else {
        listBody(m, in);
      }
      helpers.put(key, m.build());
      return name;
    }

    private String label(Inputs.In in) {
      switch (in.kind) {
        case SCALAR:
          return in.scalar.boxed.substring(in.scalar.boxed.lastIndexOf('.') + 1);
        case ENUM:
        case RECORD:
          return Names.flatName(in.type);
        case LIST:
          return "ListOf" + label(in.element);
        case SET:
          return "SetOf" + label(in.element);
        case ARRAY:
          return "ArrayOf" + (in.element.primitive()
              ? Character.toUpperCase(in.element.mirror.toString().charAt(0))
                  + in.element.mirror.toString().substring(1) : label(in.element));
        default:
          return label(in.element);
      }
    }

    private void recordBody(MethodSpec.Builder m, Inputs.In in) {
      ClassName record = ClassName.get(in.type);
      m.returns(record);
      m.addStatement("$T obj = $T.object(raw, path, p)", MAP_OF_ANY, ARGS);
      m.beginControlFlow("if (obj == null)").addStatement("return null").endControlFlow();
      m.addStatement("int before = p.list().size()");
      List<String> names = new ArrayList<>();
      for (int i = 0; i < in.components.size(); i++) {
        Inputs.Site c = in.components.get(i);
        names.add(c.name);
        m.addStatement("Object raw$L = obj.get($S)", i, c.name);
        m.addStatement("String path$L = $T.path(path, $S)", i, ARGS, c.name);
        m.addStatement("$T v$L = $L", local(c.in.value()), i,
            decode(c.in, CodeBlock.of("raw$L", i), CodeBlock.of("path$L", i)));
      }
      m.addStatement("$T.rejectUnknown(obj, path, $L, p)", ARGS, PresenterStep.listOf(names));
      for (int i = 0; i < in.components.size(); i++) {
        checks(m, in.components.get(i), "v" + i, "raw" + i, CodeBlock.of("path$L", i));
      }
      m.beginControlFlow("if (p.list().size() != before)").addStatement("return null")
          .endControlFlow();
      List<CodeBlock> args = new ArrayList<>();
      for (int i = 0; i < in.components.size(); i++) {
        args.add(in.components.get(i).in.kind == Inputs.In.Kind.OPTIONAL
            ? CodeBlock.of("$T.ofNullable(v$L)", Optional.class, i) : CodeBlock.of("v$L", i));
      }
      m.addStatement("return new $T($L)", record, CodeBlock.join(args, ", "));
    }

    private void listBody(MethodSpec.Builder m, Inputs.In in) {
      m.returns(Sources.plain(in.mirror));
      m.addStatement("$T arr = $T.array(raw, path, p)", LIST_OF_ANY, ARGS);
      m.beginControlFlow("if (arr == null)").addStatement("return null").endControlFlow();
      Inputs.In e = in.element;
      if (in.kind == Inputs.In.Kind.ARRAY) {
        TypeName component = Sources.plain(e.mirror);
        TypeName innermost = component;
        int dims = 0;
        while (innermost instanceof ArrayTypeName) {
          innermost = ((ArrayTypeName) innermost).componentType();
          dims++;
        }
        m.addStatement("$T out = new $T[arr.size()]$L", Sources.plain(in.mirror), innermost,
            "[]".repeat(dims));
      } else {
        boolean set = in.kind == Inputs.In.Kind.SET;
        m.addStatement("$T<$T> out = new $T<>(arr.size())", set ? Set.class : List.class, local(e),
            set ? LinkedHashSet.class : ArrayList.class);
      }
      m.beginControlFlow("for (int i = 0; i < arr.size(); i++)");
      m.addStatement("String at = $T.index(path, i)", ARGS);
      CodeBlock value = decode(e, CodeBlock.of("arr.get(i)"), CodeBlock.of("at"));
      if (in.kind == Inputs.In.Kind.ARRAY) {
        if (e.primitive()) {
          m.addStatement("$T e = $L", local(e), value);
          m.addStatement("$T.required(e, at, p)", ARGS);
          m.beginControlFlow("if (e != null)").addStatement("out[i] = e").endControlFlow();
        } else {
          m.addStatement("out[i] = $L", value);
        }
      } else {
        m.addStatement("out.add($L)", value);
      }
      m.endControlFlow();
      m.addStatement("return out");
    }

    void checks(MethodSpec.Builder m, Inputs.Site s, String value, String raw, CodeBlock path) {
      if (s.required) {
        m.addStatement("$T.required($N, $L, p)", ARGS,
            s.in.value().kind == Inputs.In.Kind.RECORD ? raw : value, path);
      }
      for (Inputs.Check c : s.constraints.checks) {
        CodeBlock.Builder call = CodeBlock.builder().add("$T.$N($N", CHECKS, c.method, value);
        if (c.regexp != null) {
          call.add(", $N, $S", pattern(c.regexp, c.flags), c.regexp);
        }
        for (Object arg : c.args) {
          if (arg instanceof String) {
            call.add(", $S", arg);
          } else if (arg instanceof Long) {
            call.add(", $LL", arg);
          } else {
            call.add(", $L", arg);
          }
        }
        call.add(", $L, p)", path);
        m.addStatement("$L", call.build());
      }
    }

    private String pattern(String regexp, List<String> flags) {
      String key = regexp + "\u0000" + flags;
      String name = patterns.get(key);
      if (name != null) {
        return name;
      }
      name = "PATTERN_" + patternFields.size();
      patterns.put(key, name);
      CodeBlock.Builder init = CodeBlock.builder().add("$T.compile($S", java.util.regex.Pattern.class,
          regexp);
      for (int i = 0; i < flags.size(); i++) {
        init.add(i == 0 ? ", $T.$N" : " | $T.$N", java.util.regex.Pattern.class, flags.get(i));
      }
      init.add(")");
      patternFields.add(FieldSpec.builder(java.util.regex.Pattern.class, name, Modifier.PRIVATE,
          Modifier.STATIC, Modifier.FINAL).initializer(init.build()).build());
      return name;
    }
  }
}
