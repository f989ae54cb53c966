package dev.mcpfusion.processor;

import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * {@code @ProxyUpstream}: reads and checks the upstream policies a router and its package declare
 * (a router's declaration of a name replaces its package's), and reports a router's declaration
 * that none of its {@code @Proxy} actions calls, most often a misspelt name.
 */
final class UpstreamDeclarations {
  static final String DECLARATION = Props.ANN + "ProxyUpstream";
  private static final String CONTAINER = DECLARATION + ".List";
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,62}");
  private static final String LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
  private static final Pattern HOST = Pattern.compile(LABEL + "(?:\\." + LABEL + ")*");
  private static final Pattern WILDCARD = Pattern.compile("\\*\\." + LABEL + "(?:\\." + LABEL + ")+");

  /** A checked declaration: what {@code X_Proxy} passes to {@code ProxyUpstreams.within}. */
  record Policy(String name, List<String> hosts, List<String> schemes, long maxResponseBytes,
      long connectTimeoutMs, long timeoutMs) {}

  private final Elements elements;
  private final Reporter reporter;
  private final Trees trees;
  private final Map<String, Map<String, Policy>> packages = new HashMap<>();

  UpstreamDeclarations(Elements elements, Reporter reporter, Trees trees) {
    this.elements = elements;
    this.reporter = reporter;
    this.trees = trees;
  }

  /** javac's trees, to place an error on a repeated declaration; {@code null} under another compiler. */
  static Trees trees(ProcessingEnvironment env) {
    try {
      return Trees.instance(env);
    } catch (IllegalArgumentException notJavac) {
      return null;
    }
  }

  /** The policies in force for {@code router} by upstream name, or {@code null} after reporting. */
  Map<String, Policy> read(TypeElement router, String display) {
    var pkg = elements.getPackageOf(router);
    String pkgName = pkg.getQualifiedName().toString();
    // Read once per package: its errors are reported once, not once per router in it.
    if (!packages.containsKey(pkgName)) {
      packages.put(pkgName, declared(pkg, pkgName));
    }
    Map<String, Policy> fromPackage = packages.get(pkgName);
    Map<String, Policy> fromRouter = declared(router, display);
    if (fromPackage == null || fromRouter == null) {
      return null;
    }
    Map<String, Policy> all = new LinkedHashMap<>(fromPackage);
    all.putAll(fromRouter);
    return all;
  }

  /** Reports each of the router's own declarations that no action calls. */
  boolean checkUsed(TypeElement router, String display, Collection<String> called) {
    boolean ok = true;
    for (AnnotationMirror m : mirrors(router)) {
      String name = Mirrors.string(elements, m, "name");
      if (!called.contains(name)) {
        report(Diagnostic.UNUSED_PROXY_UPSTREAM, router, m, "name", display, name, Names.didYouMean(name, called));
        ok = false;
      }
    }
    return ok;
  }

  private Map<String, Policy> declared(Element element, String display) {
    Map<String, Policy> out = new LinkedHashMap<>();
    boolean ok = true;
    for (AnnotationMirror m : mirrors(element)) {
      Policy p = policy(element, m, display);
      if (p == null) {
        ok = false;
      } else if (out.containsKey(p.name())) {
        report(Diagnostic.DUPLICATE_PROXY_UPSTREAM, element, m, "name", display, p.name());
        ok = false;
      } else {
        out.put(p.name(), p);
      }
    }
    return ok ? out : null;
  }

  /**
   * Reports on the declaration's attribute. Written twice or more, the declarations sit in a
   * container javac made up, which has no place in the source: then the n-th
   * {@code @ProxyUpstream} written on the element is found in its tree.
   */
  private void report(Diagnostic d, Element element, AnnotationMirror m, String attribute, Object... args) {
    if (element.getAnnotationMirrors().contains(m)) {
      reporter.reportOn(d, element, m, Mirrors.explicitValue(m, attribute), args);
      return;
    }
    TreePath path = trees == null ? null : trees.getPath(element);
    int index = mirrors(element).indexOf(m);
    if (path != null && path.getLeaf() instanceof ClassTree type) {
      int n = 0;
      for (AnnotationTree written : type.getModifiers().getAnnotations()) {
        if (written.getAnnotationType().toString().endsWith("ProxyUpstream") && n++ == index) {
          Tree at = written;
          for (ExpressionTree argument : written.getArguments()) {
            if (argument instanceof AssignmentTree assignment
                && assignment.getVariable().toString().equals(attribute)) {
              at = assignment.getExpression();
            }
          }
          reporter.reportAtTree(d, trees, TreePath.getPath(path.getCompilationUnit(), at), args);
          return;
        }
      }
    }
    reporter.report(d, element, args);
  }

  private List<AnnotationMirror> mirrors(Element element) {
    return Mirrors.repeated(elements, element, DECLARATION, CONTAINER);
  }

  private Policy policy(Element element, AnnotationMirror m, String display) {
    String name = Mirrors.string(elements, m, "name");
    List<String> hosts = Mirrors.strings(elements, m, "hosts");
    List<String> schemes = Mirrors.strings(elements, m, "schemes");
    String problem = null;
    String attribute = "name";
    if (!NAME.matcher(name).matches()) {
      problem = "the name '" + name + "', which does not match [a-z][a-z0-9-]*";
    } else if (hosts.isEmpty()) {
      problem = "no host";
      attribute = "hosts";
    } else if (schemes.isEmpty()) {
      problem = "no scheme";
      attribute = "schemes";
    }
    for (String host : hosts) {
      if (problem == null && !(HOST.matcher(host).matches() || WILDCARD.matcher(host).matches())) {
        problem = "the host '" + host + "', which is not a lower-case ASCII name, IPv4 address or *.domain.tld";
        attribute = "hosts";
      }
    }
    Set<String> seen = new LinkedHashSet<>();
    for (String scheme : schemes) {
      if (problem == null && (!(scheme.equals("https") || scheme.equals("http")) || !seen.add(scheme))) {
        problem = "the scheme '" + scheme + "', but the schemes are https and http, each once";
        attribute = "schemes";
      }
    }
    long[] numbers = new long[3];
    String[] names = {"maxResponseBytes", "connectTimeoutMs", "timeoutMs"};
    for (int i = 0; i < names.length; i++) {
      numbers[i] = Mirrors.number(elements, m, names[i], 0);
      if (problem == null && numbers[i] < 1) {
        problem = names[i] + " = " + numbers[i] + ", which must be 1 or more";
        attribute = names[i];
      }
    }
    if (problem != null) {
      report(Diagnostic.INVALID_PROXY_UPSTREAM_POLICY, element, m, attribute, display, name, problem);
      return null;
    }
    return new Policy(name, List.copyOf(hosts), List.copyOf(schemes), numbers[0], numbers[1], numbers[2]);
  }
}
