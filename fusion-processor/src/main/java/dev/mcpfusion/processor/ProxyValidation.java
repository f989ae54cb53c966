package dev.mcpfusion.processor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * {@code @Proxy}: checks that an action whose body is a REST call can be written by the processor
 * (an abstract method of a router it can subclass, a path whose variables are parameters, scalar
 * inputs, a JSON result presented by a view) and reads it into a {@link ProxyModel}.
 */
final class ProxyValidation {
  static final String PROXY = Props.ANN + "Proxy";
  static final String UPSTREAMS = "dev.mcpfusion.outbound.ProxyUpstreams";
  private static final Pattern UPSTREAM = Pattern.compile("[a-z][a-z0-9-]{0,62}");
  private static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "PATCH", "DELETE");
  private static final Pattern VARIABLE = Pattern.compile("\\{([^{}]*)}");
  private static final Pattern LITERAL = Pattern.compile("[A-Za-z0-9._~!$&'()*+,;=:@%/-]*");

  /** A validated {@code @Proxy} action: what {@code X_Proxy} writes for it. */
  record ProxyModel(ExecutableElement method, String upstream, String httpMethod, String path,
      List<String> pathParams, List<String> restParams, boolean array, UpstreamDeclarations.Policy policy) {}

  private final Elements elements;
  private final Types types;
  private final Reporter reporter;
  private final UpstreamDeclarations declarations;

  ProxyValidation(Elements elements, Types types, Reporter reporter, com.sun.source.util.Trees trees) {
    this.elements = elements;
    this.types = types;
    this.reporter = reporter;
    this.declarations = new UpstreamDeclarations(elements, reporter, trees);
  }

  /** A {@code @Proxy} on a method without a verb: reported, since nothing would read it. */
  boolean checkVerbless(ExecutableElement method, String where) {
    AnnotationMirror proxy = Mirrors.find(method, PROXY);
    if (proxy != null) {
      reporter.reportOn(Diagnostic.PROXY_WITHOUT_VERB, method, proxy, null, where);
      return false;
    }
    return true;
  }

  /** The router's proxy actions, or {@code null} after reporting; empty when it has none. */
  List<ProxyModel> router(TypeElement router, List<RouterModel.ActionModel> actions, String display) {
    List<ProxyModel> out = new ArrayList<>();
    Map<String, UpstreamDeclarations.Policy> declared = declarations.read(router, display);
    boolean ok = declared != null;
    Set<String> called = new LinkedHashSet<>();
    Map<String, List<RouterModel.ActionModel>> undeclared = new LinkedHashMap<>();
    boolean routerChecked = false;
    for (RouterModel.ActionModel a : actions) {
      AnnotationMirror proxy = Mirrors.find(a.method(), PROXY);
      if (proxy == null) {
        continue;
      }
      String where = display + "." + a.method().getSimpleName();
      if (!routerChecked) {
        routerChecked = true;
        if (!subclassable(router, a.method(), proxy, display)) {
          return null;
        }
      }
      String upstream = Mirrors.string(elements, proxy, "upstream");
      called.add(upstream);
      if (declared != null && !declared.containsKey(upstream) && UPSTREAM.matcher(upstream).matches()) {
        undeclared.computeIfAbsent(upstream, u -> new ArrayList<>()).add(a);
      }
      ProxyModel m = action(a, proxy, where, declared == null ? Map.of() : declared);
      ok &= m != null;
      if (m != null) {
        out.add(m);
      }
    }
    ok &= declared != null && declarations.checkUsed(router, display, called);
    undeclared.forEach((upstream, callers) -> reportUndeclared(router, display, upstream, callers));
    return ok && undeclared.isEmpty() ? out : null;
  }

  /**
   * One error per undeclared upstream of a router, on the first action calling it and naming the
   * others: the fix is one declaration, so one error per fix.
   */
  private void reportUndeclared(TypeElement router, String display, String upstream,
      List<RouterModel.ActionModel> callers) {
    ExecutableElement first = callers.get(0).method();
    AnnotationMirror proxy = Mirrors.find(first, PROXY);
    List<String> others = callers.subList(1, callers.size()).stream()
        .map(a -> a.method().getSimpleName().toString()).toList();
    int n = others.size();
    String alsoCalledBy = n == 0 ? "" : n == 1 ? " (as does " + others.get(0) + ")"
        : " (as do " + String.join(", ", others.subList(0, n - 1)) + " and " + others.get(n - 1) + ")";
    reporter.reportOn(Diagnostic.UNDECLARED_PROXY_UPSTREAM, first, proxy, Mirrors.explicitValue(proxy, "upstream"),
        display + "." + first.getSimpleName(), upstream, alsoCalledBy, display);
  }

  private boolean subclassable(TypeElement router, ExecutableElement first, AnnotationMirror proxy, String display) {
    if (elements.getTypeElement(UPSTREAMS) == null) {
      reporter.reportOn(Diagnostic.PROXY_NEEDS_OUTBOUND, first, proxy, null, display + "." + first.getSimpleName());
      return false;
    }
    String why = null;
    if (router.getModifiers().contains(Modifier.FINAL) || router.getKind() == ElementKind.RECORD) {
      why = "final";
    } else if (router.getNestingKind() == NestingKind.MEMBER && !router.getModifiers().contains(Modifier.STATIC)) {
      why = "an inner class (not static)";
    } else {
      boolean noArg = false;
      for (ExecutableElement c : ElementFilter.constructorsIn(router.getEnclosedElements())) {
        noArg |= c.getParameters().isEmpty() && !c.getModifiers().contains(Modifier.PRIVATE);
      }
      if (!noArg) {
        why = "without a constructor that takes no arguments";
      }
    }
    if (why != null) {
      reporter.report(Diagnostic.PROXY_ROUTER, router, display, why);
      return false;
    }
    return true;
  }

  private ProxyModel action(RouterModel.ActionModel a, AnnotationMirror proxy, String where,
      Map<String, UpstreamDeclarations.Policy> declared) {
    ExecutableElement method = a.method();
    if (!method.getModifiers().contains(Modifier.ABSTRACT)) {
      reporter.reportOn(Diagnostic.PROXY_NOT_ABSTRACT, method, proxy, null, where);
      return null;
    }
    boolean ok = true;
    String upstream = Mirrors.string(elements, proxy, "upstream");
    if (!UPSTREAM.matcher(upstream).matches()) {
      reporter.reportOn(Diagnostic.INVALID_PROXY_UPSTREAM, method, proxy, Mirrors.explicitValue(proxy, "upstream"),
          where, upstream);
      ok = false;
    }
    String httpMethod = Mirrors.string(elements, proxy, "method");
    if (!METHODS.contains(httpMethod)) {
      reporter.reportOn(Diagnostic.INVALID_PROXY_METHOD, method, proxy, Mirrors.explicitValue(proxy, "method"),
          where, httpMethod);
      ok = false;
    }
    String path = Mirrors.string(elements, proxy, "path");
    String pathProblem = pathProblem(path);
    if (pathProblem != null) {
      reporter.reportOn(Diagnostic.INVALID_PROXY_PATH, method, proxy, Mirrors.explicitValue(proxy, "path"),
          where, path, pathProblem);
      return null;
    }
    List<String> inputs = new ArrayList<>();
    for (RouterModel.Param p : a.params()) {
      String name = p.element().getSimpleName().toString();
      if (p.kind() != RouterModel.ParamKind.JSON || !scalar(p.element().asType())) {
        reporter.report(Diagnostic.PROXY_PARAMETER, p.element(), where, name, Views.display(p.element().asType()));
        ok = false;
      } else {
        inputs.add(name);
      }
    }
    Set<String> variables = new LinkedHashSet<>();
    Matcher m = VARIABLE.matcher(path);
    while (m.find()) {
      String variable = m.group(1);
      if (!inputs.contains(variable)) {
        reporter.reportOn(Diagnostic.PROXY_PATH_VARIABLE, method, proxy, Mirrors.explicitValue(proxy, "path"),
            where, path, variable, Names.didYouMean(variable, inputs));
        ok = false;
      } else if (!variables.add(variable)) {
        reporter.reportOn(Diagnostic.INVALID_PROXY_PATH, method, proxy, Mirrors.explicitValue(proxy, "path"),
            where, path, "it uses {" + variable + "} twice");
        ok = false;
      }
    }
    Boolean array = resultIsArray(a);
    if (array == null) {
      reporter.report(Diagnostic.PROXY_RESULT, method, where, Views.display(method.getReturnType()));
      ok = false;
    }
    if (!ok) {
      return null;
    }
    List<String> rest = new ArrayList<>(inputs);
    rest.removeAll(variables);
    return new ProxyModel(method, upstream, httpMethod, path, List.copyOf(variables), rest, array,
        declared.get(upstream));
  }

  /** Why {@code path} cannot be appended to a base URL, or {@code null}. */
  private static String pathProblem(String path) {
    if (!path.startsWith("/")) {
      return "it does not start with /";
    }
    if (path.startsWith("//")) {
      return "it starts with //, which names a host";
    }
    String literal = VARIABLE.matcher(path).replaceAll("");
    if (literal.contains("{") || literal.contains("}")) {
      return "a { or } is not part of a {name} variable";
    }
    if (!LITERAL.matcher(literal).matches()) {
      return "it has a character a URL path cannot carry as is (a query or fragment belongs to the parameters)";
    }
    for (String segment : path.split("/", -1)) {
      if (segment.equals(".") || segment.equals("..")) {
        return "it has a . or .. segment";
      }
    }
    Matcher m = VARIABLE.matcher(path);
    while (m.find()) {
      if (!m.group(1).matches("[A-Za-z_$][A-Za-z0-9_$]*")) {
        return "{" + m.group(1) + "} is not a parameter name";
      }
      int start = m.start();
      int end = m.end();
      if (path.charAt(start - 1) != '/' || (end < path.length() && path.charAt(end) != '/')) {
        return "{" + m.group(1) + "} is not a whole segment (/{name}/)";
      }
    }
    return null;
  }

  private boolean scalar(TypeMirror t) {
    if (t.getKind().isPrimitive()) {
      return true;
    }
    if (t.getKind() != TypeKind.DECLARED) {
      return false;
    }
    TypeElement e = (TypeElement) ((DeclaredType) t).asElement();
    if (e.getKind() == ElementKind.ENUM) {
      return true;
    }
    String qn = e.getQualifiedName().toString();
    return qn.equals("java.lang.String") || qn.equals("java.lang.Boolean") || qn.equals("java.lang.Integer")
        || qn.equals("java.lang.Long") || qn.equals("java.lang.Double") || qn.equals("java.lang.Float")
        || qn.equals("java.lang.Short") || qn.equals("java.lang.Byte");
  }

  /** {@code false} for a JSON object, {@code true} for an array of them, {@code null} otherwise. */
  private Boolean resultIsArray(RouterModel.ActionModel a) {
    if (a.view() == null || !a.elementKind().equals("MAP")) {
      return null;
    }
    TypeMirror r = a.method().getReturnType();
    TypeElement list = elements.getTypeElement("java.util.List");
    TypeElement map = elements.getTypeElement("java.util.Map");
    if (a.shape().equals("SINGLE") && isObjectMap(r, map)) {
      return false;
    }
    if (a.shape().equals("COLLECTION") && types.isSameType(types.erasure(r), types.erasure(list.asType()))
        && isObjectMap(Views.argument(r), map)) {
      return true;
    }
    return null;
  }

  private boolean isObjectMap(TypeMirror t, TypeElement map) {
    if (t == null || t.getKind() != TypeKind.DECLARED
        || !types.isSameType(types.erasure(t), types.erasure(map.asType()))) {
      return false;
    }
    List<? extends TypeMirror> args = ((DeclaredType) t).getTypeArguments();
    return args.size() == 2 && args.get(0).toString().equals("java.lang.String")
        && args.get(1).toString().equals("java.lang.Object");
  }
}
