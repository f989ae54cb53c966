package dev.mcpfusion.processor;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Validates one {@code @Prompt}, {@code @Resource} or {@code @Complete} method into its model,
 * reporting every problem through the {@link Diagnostic} catalogue ({@link FeatureStep} runs it
 * over a class and checks what spans methods: duplicate names and URIs).
 */
final class FeatureValidation {
  private static final String REQUEST_CONTEXT = "dev.mcpfusion.core.RequestContext";
  private static final String PROMPT_RESULT = "dev.mcpfusion.core.PromptResult";
  private static final Pattern PROMPT_NAME = Pattern.compile("[a-zA-Z0-9_-]{1,64}");
  private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:.+");
  private static final Pattern VARIABLE = Pattern.compile("\\{([^{}]*)\\}");
  private static final Pattern VARIABLE_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  private final Elements elements;
  private final Types types;
  private final Reporter reporter;
  private final Views views;

  FeatureValidation(Elements elements, Types types, Reporter reporter, Views views) {
    this.elements = elements;
    this.types = types;
    this.reporter = reporter;
    this.views = views;
  }

  /** The input resolver of one class (its diagnostics go to this validation's reporter). */
  Inputs inputs() {
    return new Inputs(elements, types, reporter);
  }

  List<TypeMirror> use(Element e) {
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

  FeatureStep.PromptModel prompt(ExecutableElement method, AnnotationMirror ann, String where,
      Inputs inputs) {
    boolean[] ok = {true};
    FeatureStep.PromptModel p = new FeatureStep.PromptModel();
    p.method = method;
    String explicit = Mirrors.string(elements, ann, "name");
    p.name = explicit.isEmpty() ? Names.snake(method.getSimpleName().toString()) : explicit;
    if (!PROMPT_NAME.matcher(p.name).matches()) {
      reporter.reportOn(Diagnostic.INVALID_PROMPT_NAME, method, ann, Mirrors.explicitValue(ann, "name"),
          where, p.name, Names.snake(method.getSimpleName().toString()));
      ok[0] = false;
    }
    p.title = Mirrors.string(elements, ann, "title");
    int errors = reporter.errorCount();
    p.icons = Icons.read(elements, reporter, method, where);
    ok[0] &= reporter.errorCount() == errors;
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
        p.params.add(new FeatureStep.Param(param, true, null));
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
      p.params.add(new FeatureStep.Param(param, false, site));
    }
    return ok[0] ? p : null;
  }

  FeatureStep.ResourceModel resource(ExecutableElement method, AnnotationMirror ann, String where) {
    boolean[] ok = {true};
    FeatureStep.ResourceModel r = new FeatureStep.ResourceModel();
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
    int errors = reporter.errorCount();
    r.icons = Icons.read(elements, reporter, method, where);
    ok[0] &= reporter.errorCount() == errors;
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
        r.params.add(new FeatureStep.Param(param, true, null));
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
      r.params.add(new FeatureStep.Param(param, false, null));
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

  FeatureStep.CompletionModel completion(ExecutableElement method, AnnotationMirror ann, String where,
      FeatureStep.FeaturesModel f) {
    FeatureStep.CompletionModel c = new FeatureStep.CompletionModel();
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
      for (FeatureStep.PromptModel p : f.prompts) {
        targets.add(p.name);
        if (p.name.equals(c.prompt)) {
          arguments = new ArrayList<>();
          for (FeatureStep.Param param : p.params) {
            if (!param.context) {
              arguments.add(param.name());
            }
          }
        }
      }
    } else {
      for (FeatureStep.ResourceModel r : f.resources) {
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
        c.params.add(new FeatureStep.Param(param, true, null));
      } else if (isType(param.asType(), "java.lang.String") && text == 0) {
        c.params.add(new FeatureStep.Param(param, false, null));
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

}
