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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 * The {@code @Prompt} / {@code @Resource} / {@code @Complete} family: validates every class that
 * declares such methods (a {@code @Router} class or any other) and generates {@code X_Features}
 * (nested: {@code Outer_Inner_Features}) with its descriptor and {@code switch} dispatchers. It
 * validates a whole class first and generates only from a clean model.
 */
final class FeatureStep implements FusionProcessor.Step {
  static final String PROMPT = Props.ANN + "Prompt";
  static final String RESOURCE = Props.ANN + "Resource";
  static final String COMPLETE = Props.ANN + "Complete";
  private static final String ROUTER = Props.ANN + "Router";
  private static final String REQUEST_CONTEXT = "dev.mcpfusion.core.RequestContext";
  private static final String PROMPT_RESULT = "dev.mcpfusion.core.PromptResult";
  private static final Pattern PROMPT_NAME = Pattern.compile("[a-zA-Z0-9_-]{1,64}");
  private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:.+");
  private static final Pattern VARIABLE = Pattern.compile("\\{([^{}]*)\\}");
  private static final Pattern VARIABLE_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
  private static final ClassName ARGS = Sources.spi("Args");
  private static final ClassName CHECKS = Sources.spi("Checks");
  private static final ClassName PROBLEMS = Sources.spi("Problems");
  private static final TypeName MAP_OF_ANY = ParameterizedTypeName.get(ClassName.get(Map.class),
      ClassName.get(String.class), WildcardTypeName.subtypeOf(Object.class));
  private static final TypeName MAP_OF_STRINGS = ParameterizedTypeName.get(
      ClassName.get(Map.class), ClassName.get(String.class), ClassName.get(String.class));

  private final Elements elements;
  private final Types types;
  private final Filer filer;
  private final Reporter reporter;
  private final Views views;
  private final Set<String> deferred = new TreeSet<>();
  private final Set<String> done = new HashSet<>();

  FeatureStep(ProcessingEnvironment env, Reporter reporter) {
    this.elements = env.getElementUtils();
    this.types = env.getTypeUtils();
    this.filer = env.getFiler();
    this.reporter = reporter;
    this.views = new Views(elements, types, new Nullness(env));
  }

  /** The generated class of a class with prompts, resources or completions. */
  static ClassName featuresName(TypeElement type) {
    return ClassName.get(ClassName.get(type).packageName(), Names.flatName(type) + "_Features");
  }

  /** Whether {@code type} declares a {@code @Prompt}, {@code @Resource} or {@code @Complete} method. */
  static boolean hasFeatures(TypeElement type) {
    for (ExecutableElement m : ElementFilter.methodsIn(type.getEnclosedElements())) {
      if (Mirrors.find(m, PROMPT) != null || Mirrors.find(m, RESOURCE) != null
          || Mirrors.find(m, COMPLETE) != null) {
        return true;
      }
    }
    return false;
  }

  // ---------------------------------------------------------------- model

  static final class Param {
    final VariableElement element;
    final boolean context;
    final Inputs.Site site;

    Param(VariableElement element, boolean context, Inputs.Site site) {
      this.element = element;
      this.context = context;
      this.site = site;
    }

    String name() {
      return element.getSimpleName().toString();
    }
  }

  static final class PromptModel {
    ExecutableElement method;
    String name;
    String title;
    String description;
    TypeElement view;
    boolean returnsString;
    final List<Param> params = new ArrayList<>();
    List<TypeMirror> middleware = List.of();
  }

  static final class ResourceModel {
    ExecutableElement method;
    String uri;
    String name;
    String title;
    String description;
    String mimeType;
    TypeElement view;
    boolean binary;
    final List<String> variables = new ArrayList<>();
    final List<Param> params = new ArrayList<>();
    List<TypeMirror> middleware = List.of();
  }

  static final class CompletionModel {
    ExecutableElement method;
    String prompt;
    String resource;
    String argument;
    final List<Param> params = new ArrayList<>();
  }

  static final class FeaturesModel {
    TypeElement type;
    String router = "";
    List<TypeMirror> middleware = List.of();
    final List<PromptModel> prompts = new ArrayList<>();
    final List<ResourceModel> resources = new ArrayList<>();
    final List<CompletionModel> completions = new ArrayList<>();
  }

  // ---------------------------------------------------------------- rounds

  @Override
  public void process(RoundEnvironment round) {
    Set<String> names = new TreeSet<>(deferred);
    deferred.clear();
    for (String annotation : List.of(PROMPT, RESOURCE, COMPLETE)) {
      TypeElement a = elements.getTypeElement(annotation);
      if (a == null) {
        continue;
      }
      for (Element e : round.getElementsAnnotatedWith(a)) {
        if (e.getKind() == ElementKind.METHOD && e.getEnclosingElement() instanceof TypeElement) {
          names.add(((TypeElement) e.getEnclosingElement()).getQualifiedName().toString());
        }
      }
    }
    for (String name : names) {
      TypeElement type = elements.getTypeElement(name);
      if (type == null || done.contains(name)) {
        continue;
      }
      if (unresolved(type)) {
        if (round.processingOver()) {
          // Still missing after the last round: say so instead of silently generating nothing.
          done.add(name);
          reporter.markBroken(type);
          reporter.report(Diagnostic.UNRESOLVED_TYPE, type, Names.display(type),
              "a type one of its @Prompt, @Resource or @Complete methods names",
              featuresName(type).simpleName());
        } else {
          deferred.add(name);
        }
        continue;
      }
      done.add(name);
      int before = reporter.errorCount();
      try {
        FeaturesModel model = validate(type);
        if (model != null && reporter.errorCount() == before && !usesBrokenView(model)) {
          generate(model);
        }
      } catch (RuntimeException e) {
        reporter.report(Diagnostic.PROCESSOR_FAILURE, type, name, e);
      }
    }
  }

  private boolean usesBrokenView(FeaturesModel f) {
    for (PromptModel p : f.prompts) {
      if (p.view != null && reporter.isBroken(p.view)) {
        return true;
      }
    }
    for (ResourceModel r : f.resources) {
      if (r.view != null && reporter.isBroken(r.view)) {
        return true;
      }
    }
    return false;
  }

  private boolean unresolved(TypeElement type) {
    for (ExecutableElement m : ElementFilter.methodsIn(type.getEnclosedElements())) {
      if (Mirrors.find(m, PROMPT) == null && Mirrors.find(m, RESOURCE) == null
          && Mirrors.find(m, COMPLETE) == null) {
        continue;
      }
      if (Mirrors.hasErrorType(m.getReturnType())) {
        return true;
      }
      for (VariableElement p : m.getParameters()) {
        if (Mirrors.hasErrorType(p.asType())) {
          return true;
        }
      }
      for (String a : List.of(PROMPT, RESOURCE)) {
        AnnotationMirror mirror = Mirrors.find(m, a);
        if (mirror != null && Mirrors.unresolvedType(elements, mirror, "presenter")) {
          return true;
        }
      }
    }
    return false;
  }

  // ---------------------------------------------------------------- validation

  private FeaturesModel validate(TypeElement type) {
    String display = Names.display(type);
    FeaturesModel f = new FeaturesModel();
    f.type = type;
    if (type.getModifiers().contains(Modifier.PRIVATE) || !type.getTypeParameters().isEmpty()
        || (type.getKind() != ElementKind.CLASS && type.getKind() != ElementKind.RECORD)) {
      reporter.report(Diagnostic.INACCESSIBLE_FEATURE_TYPE, type, display,
          featuresName(type).simpleName());
      return null;
    }
    AnnotationMirror router = Mirrors.find(type, ROUTER);
    if (router != null) {
      f.router = Mirrors.string(elements, router, "value");
    }
    f.middleware = use(type);
    Inputs inputs = new Inputs(elements, types, reporter);
    boolean ok = true;
    Map<String, ExecutableElement> promptNames = new HashMap<>();
    Map<String, ExecutableElement> uris = new HashMap<>();
    List<ExecutableElement> completions = new ArrayList<>();
    for (ExecutableElement method : ElementFilter.methodsIn(type.getEnclosedElements())) {
      AnnotationMirror prompt = Mirrors.find(method, PROMPT);
      AnnotationMirror resource = Mirrors.find(method, RESOURCE);
      AnnotationMirror complete = Mirrors.find(method, COMPLETE);
      int count = (prompt != null ? 1 : 0) + (resource != null ? 1 : 0) + (complete != null ? 1 : 0);
      if (count == 0) {
        continue;
      }
      String where = display + "." + method.getSimpleName();
      if (count > 1 || hasVerb(method)) {
        reporter.report(Diagnostic.MULTIPLE_ROLES, method, where);
        ok = false;
        continue;
      }
      if (method.getModifiers().contains(Modifier.PRIVATE) || !method.getTypeParameters().isEmpty()) {
        reporter.report(Diagnostic.INACCESSIBLE_FEATURE, method, where,
            featuresName(type).simpleName());
        ok = false;
        continue;
      }
      if (prompt != null) {
        PromptModel p = prompt(method, prompt, where, inputs);
        if (p == null) {
          ok = false;
          continue;
        }
        ExecutableElement first = promptNames.putIfAbsent(p.name, method);
        if (first != null) {
          reporter.reportOn(Diagnostic.DUPLICATE_PROMPT, method, prompt, null, where, p.name,
              display + "." + first.getSimpleName());
          ok = false;
          continue;
        }
        f.prompts.add(p);
      } else if (resource != null) {
        ResourceModel r = resource(method, resource, where);
        if (r == null) {
          ok = false;
          continue;
        }
        ExecutableElement first = uris.putIfAbsent(r.uri, method);
        if (first != null) {
          reporter.reportOn(Diagnostic.DUPLICATE_RESOURCE, method, resource, null, where, r.uri,
              display + "." + first.getSimpleName());
          ok = false;
          continue;
        }
        f.resources.add(r);
      } else {
        completions.add(method);
      }
    }
    // Completions name prompts and templates of this class: read them once all are known.
    Set<String> completed = new HashSet<>();
    for (ExecutableElement method : completions) {
      String where = display + "." + method.getSimpleName();
      CompletionModel c = completion(method, Mirrors.find(method, COMPLETE), where, f);
      if (c == null) {
        ok = false;
        continue;
      }
      String key = (c.prompt.isEmpty() ? "resource " + c.resource : "prompt " + c.prompt) + " / "
          + c.argument;
      if (!completed.add(key)) {
        reporter.report(Diagnostic.DUPLICATE_COMPLETION, method, where, c.argument,
            c.prompt.isEmpty() ? "resource '" + c.resource + "'" : "prompt '" + c.prompt + "'",
            display);
        ok = false;
        continue;
      }
      f.completions.add(c);
    }
    return ok ? f : null;
  }

  private boolean hasVerb(ExecutableElement method) {
    for (String verb : List.of("Query", "Mutation", "Action")) {
      if (Mirrors.find(method, Props.ANN + verb) != null) {
        return true;
      }
    }
    return false;
  }

  private List<TypeMirror> use(Element e) {
    AnnotationMirror use = Mirrors.find(e, Props.ANN + "Use");
    List<TypeMirror> out = new ArrayList<>();
    if (use != null) {
      for (AnnotationValue v : Mirrors.list(elements, use, "value")) {
        if (v.getValue() instanceof TypeMirror) {
          out.add((TypeMirror) v.getValue());
        }
      }
    }
    return out;
  }

  private String description(ExecutableElement method, AnnotationMirror ann, String where,
      String annotation) {
    String d = Mirrors.string(elements, ann, "description");
    if (d.isEmpty()) {
      d = ActionValidation.firstSentence(elements.getDocComment(method));
    }
    if (d.isEmpty()) {
      reporter.report(Diagnostic.FEATURE_MISSING_DESCRIPTION, method, where, annotation);
    }
    return d;
  }

  private TypeElement presenter(ExecutableElement method, AnnotationMirror ann, String where,
      boolean[] ok) {
    TypeMirror t = Mirrors.type(elements, ann, "presenter");
    if (t == null || t.getKind() == TypeKind.VOID) {
      return null;
    }
    if (t.getKind() == TypeKind.DECLARED) {
      TypeElement e = (TypeElement) ((DeclaredType) t).asElement();
      if (views.isView(e)) {
        return e;
      }
    }
    reporter.reportOn(Diagnostic.PRESENTER_NOT_A_VIEW, method, ann,
        Mirrors.explicitValue(ann, "presenter"), where, t);
    ok[0] = false;
    return null;
  }

  private boolean isContext(VariableElement p) {
    TypeMirror t = p.asType();
    boolean requestContext = t.getKind() == TypeKind.DECLARED
        && ((TypeElement) ((DeclaredType) t).asElement()).getQualifiedName()
            .contentEquals(REQUEST_CONTEXT);
    return requestContext || Mirrors.find(p, Props.ANN + "Context") != null;
  }

  private boolean isType(TypeMirror t, String qualifiedName) {
    return t.getKind() == TypeKind.DECLARED
        && ((TypeElement) ((DeclaredType) t).asElement()).getQualifiedName()
            .contentEquals(qualifiedName);
  }

  private PromptModel prompt(ExecutableElement method, AnnotationMirror ann, String where,
      Inputs inputs) {
    boolean[] ok = {true};
    PromptModel p = new PromptModel();
    p.method = method;
    String explicit = Mirrors.string(elements, ann, "name");
    p.name = explicit.isEmpty() ? Names.snake(method.getSimpleName().toString()) : explicit;
    if (!PROMPT_NAME.matcher(p.name).matches()) {
      reporter.reportOn(Diagnostic.INVALID_PROMPT_NAME, method, ann, Mirrors.explicitValue(ann, "name"),
          where, p.name, Names.snake(method.getSimpleName().toString()));
      ok[0] = false;
    }
    p.title = Mirrors.string(elements, ann, "title");
    p.description = description(method, ann, where, "Prompt");
    ok[0] &= !p.description.isEmpty();
    p.view = presenter(method, ann, where, ok);
    p.middleware = use(method);
    TypeMirror r = method.getReturnType();
    p.returnsString = isType(r, "java.lang.String");
    boolean result = isType(r, PROMPT_RESULT);
    if (!result && !(p.returnsString && p.view == null)) {
      reporter.report(Diagnostic.PROMPT_RESULT_TYPE, method, where, Views.display(r),
          p.view == null ? "a PromptResult or a String (one user message)"
              : "a PromptResult (its data(...) is what presenter " + Names.display(p.view)
                  + " presents)",
          p.view == null ? "" : ".data(...)");
      ok[0] = false;
    }
    for (VariableElement param : method.getParameters()) {
      if (isContext(param)) {
        p.params.add(new Param(param, true, null));
        continue;
      }
      String name = param.getSimpleName().toString();
      if (Mirrors.find(param, Props.ANN + "Guarded") != null) {
        reporter.report(Diagnostic.GUARDED_PROMPT_ARGUMENT, param, where, name);
        ok[0] = false;
        continue;
      }
      TypeMirror t = param.asType();
      Inputs.In in;
      try {
        in = inputs.resolve(t, List.of());
      } catch (Inputs.Unsupported u) {
        in = null;
      }
      Inputs.In value = in == null ? null : in.value();
      boolean text = value != null && ((value.kind == Inputs.In.Kind.SCALAR
          && value.scalar == Scalar.STRING) || value.kind == Inputs.In.Kind.ENUM);
      if (!text) {
        reporter.report(Diagnostic.PROMPT_ARGUMENT_TYPE, param, where, name, Views.display(t));
        ok[0] = false;
        continue;
      }
      List<AnnotationMirror> annotations = new ArrayList<>(param.getAnnotationMirrors());
      annotations.addAll(t.getAnnotationMirrors());
      Inputs.Site site = inputs.site(name, param, in, annotations,
          inputs.description(List.of(param), t), false, Mirrors.nullable(List.of(param), List.of(t)));
      p.params.add(new Param(param, false, site));
    }
    return ok[0] ? p : null;
  }

  private ResourceModel resource(ExecutableElement method, AnnotationMirror ann, String where) {
    boolean[] ok = {true};
    ResourceModel r = new ResourceModel();
    r.method = method;
    r.uri = Mirrors.string(elements, ann, "uri");
    AnnotationValue uriValue = Mirrors.explicitValue(ann, "uri");
    String uriProblem = uriProblem(r.uri, r.variables);
    if (uriProblem != null) {
      reporter.reportOn(Diagnostic.INVALID_RESOURCE_URI, method, ann, uriValue, where, r.uri,
          uriProblem);
      ok[0] = false;
    }
    String explicit = Mirrors.string(elements, ann, "name");
    r.name = explicit.isEmpty() ? Names.snake(method.getSimpleName().toString()) : explicit;
    r.title = Mirrors.string(elements, ann, "title");
    r.description = description(method, ann, where, "Resource");
    ok[0] &= !r.description.isEmpty();
    r.view = presenter(method, ann, where, ok);
    r.middleware = use(method);
    TypeMirror ret = method.getReturnType();
    boolean string = isType(ret, "java.lang.String");
    r.binary = ret.getKind() == TypeKind.ARRAY
        && ((ArrayType) ret).getComponentType().getKind() == TypeKind.BYTE;
    if (r.view == null && !string && !r.binary) {
      reporter.report(Diagnostic.RESOURCE_NEEDS_TEXT, method, where, Views.display(ret));
      ok[0] = false;
    } else if (r.view != null && (string || r.binary || ret.getKind() == TypeKind.VOID
        || ret.getKind().isPrimitive())) {
      reporter.report(Diagnostic.RESOURCE_NOT_PRESENTABLE, method, where, Views.display(ret),
          Names.display(r.view));
      ok[0] = false;
    }
    String declared = Mirrors.string(elements, ann, "mimeType");
    r.mimeType = !declared.isEmpty() ? declared
        : r.view != null ? "application/json" : r.binary ? "application/octet-stream" : "text/plain";
    Set<String> bound = new LinkedHashSet<>();
    for (VariableElement param : method.getParameters()) {
      if (isContext(param)) {
        r.params.add(new Param(param, true, null));
        continue;
      }
      String name = param.getSimpleName().toString();
      if (!r.variables.contains(name)) {
        reporter.report(Diagnostic.TEMPLATE_PARAMETER_NOT_A_VARIABLE, param, where, name, r.uri,
            r.variables.isEmpty() ? "" : " (its variables: " + String.join(", ", r.variables) + ")");
        ok[0] = false;
        continue;
      }
      if (!isType(param.asType(), "java.lang.String")) {
        reporter.report(Diagnostic.TEMPLATE_VARIABLE_NOT_TEXT, param, where, name,
            Views.display(param.asType()));
        ok[0] = false;
        continue;
      }
      bound.add(name);
      r.params.add(new Param(param, false, null));
    }
    if (uriProblem == null) {
      for (String v : r.variables) {
        if (!bound.contains(v)) {
          reporter.reportOn(Diagnostic.TEMPLATE_VARIABLE_UNBOUND, method, ann, uriValue, where, v,
              r.uri);
          ok[0] = false;
        }
      }
    }
    return ok[0] ? r : null;
  }

  /** Why {@code uri} is not a usable URI or template (null when it is); fills {@code variables}. */
  static String uriProblem(String uri, List<String> variables) {
    if (uri.isEmpty() || !SCHEME.matcher(uri).matches() || uri.chars().anyMatch(Character::isWhitespace)) {
      return "is not an absolute URI (it needs a scheme such as billing: and no spaces).";
    }
    Matcher m = VARIABLE.matcher(uri);
    int end = 0;
    StringBuilder rest = new StringBuilder();
    while (m.find()) {
      rest.append(uri, end, m.start());
      end = m.end();
      String name = m.group(1);
      if (!VARIABLE_NAME.matcher(name).matches()) {
        return "has the variable {" + name + "}, which is not a plain name (operators such as"
            + " {+x} or {?q} are not supported).";
      }
      if (variables.contains(name)) {
        return "uses the variable {" + name + "} twice.";
      }
      if (m.start() > 0 && uri.charAt(m.start() - 1) == '}') {
        return "puts two variables next to each other, so a value cannot be split between them.";
      }
      variables.add(name);
    }
    rest.append(uri.substring(end));
    if (rest.indexOf("{") >= 0 || rest.indexOf("}") >= 0) {
      return "has an unbalanced { or }.";
    }
    return null;
  }

  private CompletionModel completion(ExecutableElement method, AnnotationMirror ann, String where,
      FeaturesModel f) {
    CompletionModel c = new CompletionModel();
    c.method = method;
    c.prompt = Mirrors.string(elements, ann, "prompt");
    c.resource = Mirrors.string(elements, ann, "resource");
    c.argument = Mirrors.string(elements, ann, "argument");
    if (c.prompt.isEmpty() == c.resource.isEmpty()) {
      reporter.reportOn(Diagnostic.COMPLETION_TARGET_COUNT, method, ann, null, where,
          c.prompt.isEmpty() ? "neither prompt nor resource" : "both prompt and resource");
      return null;
    }
    List<String> arguments = null;
    List<String> targets = new ArrayList<>();
    if (!c.prompt.isEmpty()) {
      for (PromptModel p : f.prompts) {
        targets.add(p.name);
        if (p.name.equals(c.prompt)) {
          arguments = new ArrayList<>();
          for (Param param : p.params) {
            if (!param.context) {
              arguments.add(param.name());
            }
          }
        }
      }
    } else {
      for (ResourceModel r : f.resources) {
        if (!r.variables.isEmpty()) {
          targets.add(r.uri);
          if (r.uri.equals(c.resource)) {
            arguments = r.variables;
          }
        }
      }
    }
    String kind = c.prompt.isEmpty() ? "resource template" : "prompt";
    String target = c.prompt.isEmpty() ? c.resource : c.prompt;
    if (arguments == null) {
      reporter.reportOn(Diagnostic.UNKNOWN_COMPLETION_TARGET, method, ann,
          Mirrors.explicitValue(ann, c.prompt.isEmpty() ? "resource" : "prompt"), where, kind,
          target, Names.display(f.type), Names.didYouMean(target, targets),
          targets.isEmpty() ? "none" : String.join(", ", targets));
      return null;
    }
    if (!arguments.contains(c.argument)) {
      reporter.reportOn(Diagnostic.UNKNOWN_COMPLETION_ARGUMENT, method, ann,
          Mirrors.explicitValue(ann, "argument"), where, c.argument, kind, target,
          Names.didYouMean(c.argument, arguments),
          arguments.isEmpty() ? "none" : String.join(", ", arguments));
      return null;
    }
    int text = 0;
    boolean ok = true;
    for (VariableElement param : method.getParameters()) {
      if (isContext(param)) {
        c.params.add(new Param(param, true, null));
      } else if (isType(param.asType(), "java.lang.String") && text == 0) {
        c.params.add(new Param(param, false, null));
        text++;
      } else {
        ok = false;
      }
    }
    TypeMirror ret = method.getReturnType();
    boolean list = ret.getKind() == TypeKind.DECLARED
        && types.isAssignable(types.erasure(ret), types.erasure(elements.getTypeElement(
            "java.util.List").asType()))
        && ((DeclaredType) ret).getTypeArguments().size() == 1
        && isType(((DeclaredType) ret).getTypeArguments().get(0), "java.lang.String");
    if (!ok || text != 1 || !list) {
      reporter.report(Diagnostic.COMPLETION_SIGNATURE, method, where, method.getSimpleName());
      return null;
    }
    return c;
  }

  // ---------------------------------------------------------------- generation

  private void generate(FeaturesModel f) {
    ClassName user = ClassName.get(f.type);
    ClassName self = featuresName(f.type);
    Checks checks = new Checks();
    TypeSpec.Builder type = TypeSpec.classBuilder(self)
        .addOriginatingElement(f.type)
        .addAnnotation(Sources.GENERATED)
        .addJavadoc("The prompts, resources and completions of {@link $T}.\n", user)
        .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
        .addSuperinterface(Sources.spi("GeneratedFeatures"));
    type.addField(FieldSpec.builder(Sources.spi("FeaturesDescriptor"), "DESCRIPTOR",
        Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL).initializer("buildDescriptor()").build());
    type.addField(user, "target", Modifier.PRIVATE, Modifier.FINAL);
    type.addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE)
        .addParameter(user, "target")
        .addStatement("this.target = $T.requireNonNull(target, $S)", Objects.class, "target").build());
    type.addMethod(MethodSpec.methodBuilder("bind")
        .addJavadoc("Binds an instance of {@link $T}, without reflection.\n", user)
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .returns(Sources.spi("GeneratedFeatures"))
        .addParameter(user, "target")
        .addStatement("return new $T(target)", self).build());
    type.addMethod(MethodSpec.methodBuilder("describe")
        .addJavadoc("The descriptor without an instance of {@link $T}: for build tools such as the\n"
            + "capability lockfile, which must never run user code.\n", user)
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .returns(Sources.spi("FeaturesDescriptor"))
        .addStatement("return DESCRIPTOR").build());
    type.addMethod(override("spiVersion", TypeName.INT)
        .addStatement("return $L", PresenterStep.SPI_VERSION).build());
    type.addMethod(override("descriptor", Sources.spi("FeaturesDescriptor"))
        .addStatement("return DESCRIPTOR").build());

    MethodSpec.Builder decode = override("decodePrompt", ArrayTypeName.of(Object.class))
        .addParameter(TypeName.INT, "prompt")
        .addParameter(MAP_OF_ANY, "arguments")
        .addParameter(PROBLEMS, "problems");
    decode.addStatement("$T args = arguments == null ? $T.of() : arguments", MAP_OF_ANY, Map.class);
    decode.beginControlFlow("switch (prompt)");
    for (int i = 0; i < f.prompts.size(); i++) {
      decode.addCode("case $L:\n$>", i)
          .addStatement("return decodePrompt$L(args, problems)", i).addCode("$<");
    }
    fail(decode, "No prompt number in " + Names.display(f.type) + ": ", "prompt");
    type.addMethod(decode.build());

    MethodSpec.Builder prompt = override("prompt", ClassName.OBJECT)
        .addParameter(TypeName.INT, "prompt")
        .addParameter(ArrayTypeName.of(Object.class), "a")
        .addParameter(Sources.spi("ContextLookup"), "ctx")
        .addException(Exception.class);
    prompt.beginControlFlow("switch (prompt)");
    for (int i = 0; i < f.prompts.size(); i++) {
      PromptModel p = f.prompts.get(i);
      List<CodeBlock> args = new ArrayList<>();
      for (int j = 0; j < p.params.size(); j++) {
        Param param = p.params.get(j);
        args.add(param.context ? context(param)
            : CodeBlock.of("($T) a[$L]", Sources.plain(param.element.asType()).box(), j));
      }
      prompt.addCode("case $L:\n$>", i).addStatement("return $L", call(user, p.method, args))
          .addCode("$<");
    }
    fail(prompt, "No prompt number in " + Names.display(f.type) + ": ", "prompt");
    if (needsUnchecked(f.prompts.stream().flatMap(p -> p.params.stream()).toList())) {
      prompt.addAnnotation(unchecked());
    }
    type.addMethod(prompt.build());

    MethodSpec.Builder resource = override("resource", ClassName.OBJECT)
        .addParameter(TypeName.INT, "resource")
        .addParameter(MAP_OF_STRINGS, "variables")
        .addParameter(Sources.spi("ContextLookup"), "ctx")
        .addException(Exception.class);
    resource.beginControlFlow("switch (resource)");
    for (int i = 0; i < f.resources.size(); i++) {
      ResourceModel r = f.resources.get(i);
      List<CodeBlock> args = new ArrayList<>();
      for (Param param : r.params) {
        args.add(param.context ? context(param) : CodeBlock.of("variables.get($S)", param.name()));
      }
      resource.addCode("case $L:\n$>", i).addStatement("return $L", call(user, r.method, args))
          .addCode("$<");
    }
    fail(resource, "No resource number in " + Names.display(f.type) + ": ", "resource");
    if (needsUnchecked(f.resources.stream().flatMap(r -> r.params.stream()).toList())) {
      resource.addAnnotation(unchecked());
    }
    type.addMethod(resource.build());

    TypeName strings = ParameterizedTypeName.get(List.class, String.class);
    MethodSpec.Builder complete = override("complete", strings)
        .addParameter(TypeName.INT, "completion")
        .addParameter(String.class, "value")
        .addParameter(Sources.spi("ContextLookup"), "ctx")
        .addException(Exception.class);
    complete.beginControlFlow("switch (completion)");
    for (int i = 0; i < f.completions.size(); i++) {
      CompletionModel c = f.completions.get(i);
      List<CodeBlock> args = new ArrayList<>();
      for (Param param : c.params) {
        args.add(param.context ? context(param) : CodeBlock.of("value"));
      }
      complete.addCode("case $L:\n$>", i).addStatement("return $L", call(user, c.method, args))
          .addCode("$<");
    }
    fail(complete, "No completion number in " + Names.display(f.type) + ": ", "completion");
    if (needsUnchecked(f.completions.stream().flatMap(c -> c.params.stream()).toList())) {
      complete.addAnnotation(unchecked());
    }
    type.addMethod(complete.build());

    type.addMethod(descriptorMethod(f));
    for (int i = 0; i < f.prompts.size(); i++) {
      type.addMethod(decodePrompt(i, f.prompts.get(i), checks));
    }
    for (FieldSpec field : checks.patternFields) {
      type.addField(field);
    }
    String error = Sources.write(filer, self.packageName(), type.build(), f.type);
    if (error != null) {
      reporter.report(Diagnostic.GENERATION_FAILED, f.type, self, error);
    }
  }

  private static com.palantir.javapoet.AnnotationSpec unchecked() {
    return com.palantir.javapoet.AnnotationSpec.builder(SuppressWarnings.class)
        .addMember("value", "$S", "unchecked").build();
  }

  private boolean needsUnchecked(List<Param> params) {
    for (Param p : params) {
      TypeMirror t = p.element.asType();
      if (!Sources.plain(t).equals(Sources.plain(types.erasure(t)))) {
        return true;
      }
    }
    return false;
  }

  private static void fail(MethodSpec.Builder m, String message, String variable) {
    m.addCode("default:\n$>").addStatement("throw new $T($S + $N)", IllegalArgumentException.class,
        message, variable).addCode("$<");
    m.endControlFlow();
  }

  private static MethodSpec.Builder override(String name, TypeName returns) {
    return MethodSpec.methodBuilder(name).addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC).returns(returns);
  }

  private static CodeBlock call(ClassName user, ExecutableElement method, List<CodeBlock> args) {
    String name = method.getSimpleName().toString();
    return method.getModifiers().contains(Modifier.STATIC)
        ? CodeBlock.of("$T.$N($L)", user, name, CodeBlock.join(args, ", "))
        : CodeBlock.of("target.$N($L)", name, CodeBlock.join(args, ", "));
  }

  private CodeBlock context(Param param) {
    TypeMirror t = param.element.asType();
    TypeName erased = Sources.plain(types.erasure(t));
    TypeName full = Sources.plain(t);
    return full.equals(erased) ? CodeBlock.of("ctx.get($T.class)", erased)
        : CodeBlock.of("($T) ctx.get($T.class)", full, erased);
  }

  private CodeBlock contexts(List<Param> params) {
    List<CodeBlock> items = new ArrayList<>();
    for (Param p : params) {
      if (p.context) {
        items.add(CodeBlock.of("new $T($S, $T.class)", Sources.spi("ContextParameter"), p.name(),
            Sources.plain(types.erasure(p.element.asType()))));
      }
    }
    return CodeBlock.of("$T.of($L)", List.class, CodeBlock.join(items, ", "));
  }

  private CodeBlock classList(List<TypeMirror> classes) {
    List<CodeBlock> items = new ArrayList<>();
    for (TypeMirror t : classes) {
      items.add(CodeBlock.of("$T.class", Sources.plain(types.erasure(t))));
    }
    return CodeBlock.of("$T.<$T<?>>of($L)", List.class, Class.class, CodeBlock.join(items, ", "));
  }

  private static CodeBlock presenter(TypeElement view) {
    return view == null ? CodeBlock.of("null") : CodeBlock.of("$T.INSTANCE",
        PresenterStep.presenterName(view));
  }

  private MethodSpec descriptorMethod(FeaturesModel f) {
    MethodSpec.Builder m = MethodSpec.methodBuilder("buildDescriptor")
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .returns(Sources.spi("FeaturesDescriptor"));
    ClassName pd = Sources.spi("PromptDescriptor");
    ClassName rd = Sources.spi("ResourceDescriptor");
    ClassName cd = Sources.spi("CompletionDescriptor");
    m.addStatement("$T<$T> prompts = new $T<>()", List.class, pd, ArrayList.class);
    for (PromptModel p : f.prompts) {
      List<CodeBlock> arguments = new ArrayList<>();
      for (Param param : p.params) {
        if (param.context) {
          continue;
        }
        Inputs.In value = param.site.in.value();
        List<String> constants = value.kind == Inputs.In.Kind.ENUM
            ? Views.enumConstants(value.type) : List.of();
        arguments.add(CodeBlock.of("new $T($S, $S, $L, $L)", Sources.spi("PromptArgument"),
            param.name(), param.site.description, param.site.required,
            PresenterWriter.listOf(constants)));
      }
      m.addStatement("prompts.add(new $T($S, $S, $S, $S,\n$>$>$T.of($L),\n$L, $L, $L)$<$<)", pd,
          p.name, p.method.getSimpleName().toString(), p.title, p.description, List.class,
          CodeBlock.join(arguments, ",\n"), contexts(p.params), presenter(p.view),
          classList(p.middleware));
    }
    m.addStatement("$T<$T> resources = new $T<>()", List.class, rd, ArrayList.class);
    for (ResourceModel r : f.resources) {
      m.addStatement("resources.add(new $T($S, $S, $S, $S, $S, $S,\n$>$>$L, $L, $L, $L, $L)$<$<)",
          rd, r.uri, r.name, r.method.getSimpleName().toString(), r.title, r.description,
          r.mimeType, PresenterWriter.listOf(r.variables), contexts(r.params), presenter(r.view),
          r.binary, classList(r.middleware));
    }
    m.addStatement("$T<$T> completions = new $T<>()", List.class, cd, ArrayList.class);
    for (CompletionModel c : f.completions) {
      m.addStatement("completions.add(new $T($S, $S, $S, $S, $L))", cd, c.prompt, c.resource,
          c.argument, c.method.getSimpleName().toString(), contexts(c.params));
    }
    m.addStatement("return new $T($S, $T.class, prompts, resources, completions, $L)",
        Sources.spi("FeaturesDescriptor"), f.router, ClassName.get(f.type), classList(f.middleware));
    return m.build();
  }

  private MethodSpec decodePrompt(int index, PromptModel p, Checks checks) {
    MethodSpec.Builder m = MethodSpec.methodBuilder("decodePrompt" + index)
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .returns(ArrayTypeName.of(Object.class))
        .addParameter(MAP_OF_ANY, "args")
        .addParameter(PROBLEMS, "p");
    List<String> accepted = new ArrayList<>();
    for (int j = 0; j < p.params.size(); j++) {
      Param param = p.params.get(j);
      if (param.context) {
        continue;
      }
      Inputs.Site s = param.site;
      Inputs.In value = s.in.value();
      accepted.add(s.name);
      m.addStatement("Object raw$L = args.get($S)", j, s.name);
      if (value.kind == Inputs.In.Kind.ENUM) {
        m.addStatement("$T v$L = $T.enumValue(raw$L, $S, $T.class, p)", ClassName.get(value.type), j,
            ARGS, j, s.name, ClassName.get(value.type));
      } else {
        m.addStatement("String v$L = $T.string(raw$L, $S, p)", j, ARGS, j, s.name);
      }
    }
    m.addStatement("$T.rejectUnknown(args, $S, $L, p)", ARGS, "", PresenterWriter.listOf(accepted));
    for (int j = 0; j < p.params.size(); j++) {
      Param param = p.params.get(j);
      if (!param.context) {
        checks.add(m, param.site, "v" + j, CodeBlock.of("$S", param.site.name));
      }
    }
    m.addStatement("Object[] out = new Object[$L]", p.params.size());
    for (int j = 0; j < p.params.size(); j++) {
      Param param = p.params.get(j);
      if (param.context) {
        continue;
      }
      if (param.site.in.kind == Inputs.In.Kind.OPTIONAL) {
        m.addStatement("out[$L] = $T.ofNullable(v$L)", j, Optional.class, j);
      } else {
        m.addStatement("out[$L] = v$L", j, j);
      }
    }
    m.addStatement("return out");
    return m.build();
  }

  /** The generated checks of text arguments and the compiled patterns they share. */
  private static final class Checks {
    final Map<String, String> patterns = new LinkedHashMap<>();
    final List<FieldSpec> patternFields = new ArrayList<>();

    void add(MethodSpec.Builder m, Inputs.Site s, String value, CodeBlock path) {
      if (s.required) {
        m.addStatement("$T.required($N, $L, p)", ARGS, value, path);
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
      CodeBlock.Builder init = CodeBlock.builder().add("$T.compile($S", Pattern.class, regexp);
      for (int i = 0; i < flags.size(); i++) {
        init.add(i == 0 ? ", $T.$N" : " | $T.$N", Pattern.class, flags.get(i));
      }
      init.add(")");
      patternFields.add(FieldSpec.builder(Pattern.class, name, Modifier.PRIVATE, Modifier.STATIC,
          Modifier.FINAL).initializer(init.build()).build());
      return name;
    }
  }
}
