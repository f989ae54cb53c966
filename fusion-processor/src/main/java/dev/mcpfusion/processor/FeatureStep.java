package dev.mcpfusion.processor;

import com.palantir.javapoet.ClassName;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * The {@code @Prompt} / {@code @Resource} / {@code @Complete} family: validates every class that
 * declares such methods (a {@code @Router} class or any other) and generates {@code X_Features}
 * (nested: {@code Outer_Inner_Features}) with its descriptor and {@code switch} dispatchers. It
 * validates a whole class first and generates only from a clean model, on {@link TypeStep}'s round
 * loop.
 */
final class FeatureStep extends TypeStep<FeatureStep.FeaturesModel> {
  static final String PROMPT = Props.ANN + "Prompt";
  static final String RESOURCE = Props.ANN + "Resource";
  static final String COMPLETE = Props.ANN + "Complete";
  private static final String ROUTER = Props.ANN + "Router";

  private final Elements elements;
  private final Reporter reporter;
  private final FeatureValidation validation;
  private final FeatureWriter writer;

  FeatureStep(ProcessingEnvironment env, Reporter reporter) {
    // No one annotation marks the unit (a class with such methods): collect finds them.
    super(env.getElementUtils(), reporter, null);
    this.elements = env.getElementUtils();
    this.reporter = reporter;
    Types types = env.getTypeUtils();
    this.validation = new FeatureValidation(elements, types, reporter,
        new Views(elements, types, new Nullness(env)));
    this.writer = new FeatureWriter(types, env.getFiler(), reporter);
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
    List<Icons.Model> icons = List.of();
    String description;
    TypeElement view;
    boolean returnsString;
    final List<Param> params = new ArrayList<>();
    List<TypeMirror> middleware = List.of();
    List<String> scopes = List.of();
  }

  static final class ResourceModel {
    ExecutableElement method;
    String uri;
    String name;
    String title;
    List<Icons.Model> icons = List.of();
    String description;
    String mimeType;
    TypeElement view;
    boolean binary;
    final List<String> variables = new ArrayList<>();
    final List<Param> params = new ArrayList<>();
    List<TypeMirror> middleware = List.of();
    List<String> scopes = List.of();
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

  /** The classes that declare a {@code @Prompt}, {@code @Resource} or {@code @Complete} method. */
  @Override
  void collect(RoundEnvironment round, Set<String> names) {
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
  }

  @Override
  String missing(TypeElement type) {
    return unresolved(type) ? "a type one of its @Prompt, @Resource or @Complete methods names" : null;
  }

  @Override
  String generatedName(TypeElement type) {
    return featuresName(type).simpleName();
  }

  /** No generated class depends on an {@code X_Features}: its failure breaks nothing else. */
  @Override
  void failed(TypeElement type) {}

  @Override
  boolean dependsOnBroken(FeaturesModel f) {
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

  @Override
  void write(FeaturesModel model) {
    writer.write(model);
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

  @Override
  FeaturesModel validate(TypeElement type) {
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
    f.middleware = validation.use(type);
    Inputs inputs = validation.inputs();
    // A router's own step reports a bad scope name on the class; a plain feature class's, this one.
    List<String> classScopes = ActionValidation.scopes(elements, router != null ? null : reporter,
        type, display);
    boolean ok = classScopes != null;
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
        PromptModel p = validation.prompt(method, prompt, where, inputs);
        if (p == null) {
          ok = false;
          continue;
        }
        p.scopes = scopes(classScopes, method, where);
        if (p.scopes == null) {
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
        ResourceModel r = validation.resource(method, resource, where);
        if (r == null) {
          ok = false;
          continue;
        }
        r.scopes = scopes(classScopes, method, where);
        if (r.scopes == null) {
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
      CompletionModel c = validation.completion(method, Mirrors.find(method, COMPLETE), where, f);
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

  /** The class's scopes, then the method's, without duplicates; {@code null} after a bad name. */
  private List<String> scopes(List<String> classScopes, ExecutableElement method, String where) {
    List<String> own = ActionValidation.scopes(elements, reporter, method, where);
    if (own == null || classScopes == null) {
      return null;
    }
    java.util.LinkedHashSet<String> all = new java.util.LinkedHashSet<>(classScopes);
    all.addAll(own);
    return List.copyOf(all);
  }

  private boolean hasVerb(ExecutableElement method) {
    for (String verb : List.of("Query", "Mutation", "Action")) {
      if (Mirrors.find(method, Props.ANN + verb) != null) {
        return true;
      }
    }
    return false;
  }
}
