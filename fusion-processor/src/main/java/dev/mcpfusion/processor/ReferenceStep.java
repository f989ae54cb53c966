package dev.mcpfusion.processor;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.ImportTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;

/**
 * Logical action references written as string literals — {@code Suggestion.of("billing.void_invoice",
 * ...)}, {@code FusionError...actions("billing.list_invoices")} and {@code @Invalidates} patterns —
 * checked when processing is over against every {@code @Router} of the compilation. A reference to
 * a router of the compilation that lacks the action, or to a router name one typo away from one of
 * them, is an error with "Did you mean"; one to a router this compilation does not have is left to
 * {@code build()}, which knows every registered router.
 *
 * <p>A literal {@code FusionError...recovery("Call billing.list_invoices first.")} is prose that the
 * runtime writes with each real reference in it rendered as the agent calls it
 * ({@code References.renderIn}): every {@code router.action} in it whose router is of this
 * compilation must name one of its actions (the same error). Other dotted words of prose are not
 * guessed at, nor listed for {@code build()}.
 */
final class ReferenceStep implements FusionProcessor.Step {
  private static final String SUGGESTION = "dev.mcpfusion.core.Suggestion";
  private static final String FUSION_ERROR = "dev.mcpfusion.core.FusionError";
  /**
   * A logical reference inside prose: the pattern of fusion-core's {@code References.IN_TEXT}
   * (which the runtime renders with; a test keeps the two equal).
   */
  static final java.util.regex.Pattern IN_TEXT = java.util.regex.Pattern.compile(
      "(?<![A-Za-z0-9_.@/-])([a-z][a-z0-9_]*\\.[a-z][a-z0-9_]*)(?![A-Za-z0-9_-]|\\.[A-Za-z0-9_])");

  /**
   * One literal reference and where it was written: {@code element} anchors its message,
   * {@code owner} is the innermost type whose source holds it; a {@code prose} use is a recovery
   * text, whose references are found in it.
   */
  private record Use(String reference, String site, Element element, TypeElement owner,
      TreePath path, AnnotationMirror mirror, AnnotationValue value, boolean pattern,
      boolean prose) {}

  /** A reference left to {@code build()}: where it was written and the {@code router.action} it names. */
  record Unchecked(String site, String target) {}

  private final Elements elements;
  private final Trees trees;
  private final Reporter reporter;
  /** Router name → its action names, for every router of the compilation. */
  private final Map<String, Set<String>> routers = new TreeMap<>();
  private final List<Use> uses = new ArrayList<>();
  private final Set<String> scanned = new TreeSet<>();

  ReferenceStep(ProcessingEnvironment env, Reporter reporter) {
    this.elements = env.getElementUtils();
    Trees t;
    try {
      t = Trees.instance(env);
    } catch (IllegalArgumentException notJavac) {
      t = null; // another compiler (ecj): literal references are left to build()
    }
    this.trees = t;
    this.reporter = reporter;
  }

  @Override
  public void process(RoundEnvironment round) {
    TypeElement router = elements.getTypeElement(FusionProcessor.PKG + "Router");
    if (router != null) {
      for (Element e : round.getElementsAnnotatedWith(router)) {
        if (e instanceof TypeElement) {
          collectRouter((TypeElement) e);
        }
      }
    }
    for (Element e : round.getRootElements()) {
      if (e instanceof TypeElement && scanned.add(((TypeElement) e).getQualifiedName().toString())) {
        collectUses((TypeElement) e);
      }
    }
    if (round.processingOver()) {
      for (Use use : uses) {
        check(use);
      }
      uses.clear();
    }
  }

  /**
   * The {@code Suggestion}/{@code FusionError} references written in the source of {@code type}
   * (its own body and the types nested in it) whose router this compilation does not have (so
   * far), in source order without repeats: {@code build()} checks them.
   */
  List<Unchecked> uncheckedIn(TypeElement type) {
    Set<Unchecked> out = new LinkedHashSet<>();
    for (Use use : uses) {
      int dot = use.reference().indexOf('.');
      if (!use.pattern() && !use.prose() && dot > 0 && within(use.owner(), type)
          && !routers.containsKey(use.reference().substring(0, dot))) {
        out.add(new Unchecked(use.site(), use.reference()));
      }
    }
    return List.copyOf(out);
  }

  /** Whether {@code type}'s source is part of this compilation (so far). */
  boolean inCompilation(TypeElement type) {
    Element top = type;
    while (top.getEnclosingElement() instanceof TypeElement outer) {
      top = outer;
    }
    return scanned.contains(((TypeElement) top).getQualifiedName().toString());
  }

  /** Whether {@code inner} is {@code outer} or a type nested in it. */
  private static boolean within(Element inner, TypeElement outer) {
    for (Element e = inner; e != null; e = e.getEnclosingElement()) {
      if (e.equals(outer)) {
        return true;
      }
    }
    return false;
  }

  private void collectRouter(TypeElement type) {
    AnnotationMirror ann = Mirrors.find(type, FusionProcessor.PKG + "Router");
    String name = Mirrors.string(elements, ann, "value");
    Set<String> actions = routers.computeIfAbsent(name, n -> new TreeSet<>());
    for (ExecutableElement m : ElementFilter.methodsIn(type.getEnclosedElements())) {
      for (String verb : List.of("Query", "Mutation", "Action")) {
        AnnotationMirror v = Mirrors.find(m, FusionProcessor.PKG + verb);
        if (v != null) {
          String explicit = Mirrors.string(elements, v, "name");
          actions.add(explicit.isEmpty() ? Names.snake(m.getSimpleName().toString()) : explicit);
        }
      }
    }
  }

  private void collectUses(TypeElement type) {
    for (ExecutableElement m : ElementFilter.methodsIn(elements.getAllMembers(type))) {
      if (!m.getEnclosingElement().equals(type)) {
        continue;
      }
      AnnotationMirror inv = Mirrors.find(m, FusionProcessor.PKG + "Invalidates");
      if (inv != null) {
        for (AnnotationValue v : Mirrors.list(elements, inv, "value")) {
          // Elements of an earlier round cannot anchor a message in the last one; tree paths can.
          TreePath at = trees == null ? null : trees.getPath(m, inv, v);
          uses.add(new Use(String.valueOf(v.getValue()), "@Invalidates on " + Names.display(type)
              + "." + m.getSimpleName(), m, type, at, inv, v, true, false));
        }
      }
    }
    if (trees == null) {
      return;
    }
    TreePath path = trees.getPath(type);
    if (path == null) {
      return;
    }
    CompilationUnitTree unit = path.getCompilationUnit();
    boolean seesSuggestion = sees(unit, SUGGESTION);
    boolean seesError = sees(unit, FUSION_ERROR);
    new TreePathScanner<Void, Void>() {
      @Override
      public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
        ExpressionTree select = call.getMethodSelect();
        if (select instanceof MemberSelectTree) {
          MemberSelectTree ms = (MemberSelectTree) select;
          String method = ms.getIdentifier().toString();
          String where = " in " + Names.display(type);
          if (method.equals("of") && !call.getArguments().isEmpty()
              && (seesSuggestion && endsWith(ms.getExpression(), "Suggestion")
                  || ms.getExpression().toString().equals(SUGGESTION))) {
            literal(call.getArguments().get(0), "Suggestion.of" + where, false);
          } else if (method.equals("actions")
              && (seesError && rootedAt(ms.getExpression(), "FusionError")
                  || rootedAt(ms.getExpression(), FUSION_ERROR))) {
            for (ExpressionTree arg : call.getArguments()) {
              literal(arg, "FusionError.actions" + where, false);
            }
          } else if (method.equals("recovery") && call.getArguments().size() == 1
              && (seesError && rootedAt(ms.getExpression(), "FusionError")
                  || rootedAt(ms.getExpression(), FUSION_ERROR))) {
            literal(call.getArguments().get(0), "FusionError.recovery" + where, true);
          }
        }
        return super.visitMethodInvocation(call, unused);
      }

      /** A string literal, or a compile-time constant ({@code static final String}). */
      private void literal(ExpressionTree arg, String site, boolean prose) {
        TreePath at = new TreePath(getCurrentPath(), arg);
        Object value = null;
        if (arg instanceof LiteralTree) {
          value = ((LiteralTree) arg).getValue();
        } else if (arg instanceof IdentifierTree || arg instanceof MemberSelectTree) {
          Element e = trees.getElement(at);
          if (e instanceof VariableElement) {
            value = ((VariableElement) e).getConstantValue();
          }
        }
        if (value instanceof String) {
          uses.add(new Use((String) value, site, type, owner(at), at, null, null, false, prose));
        }
      }

      /** The innermost type declared around {@code at}. */
      private TypeElement owner(TreePath at) {
        for (TreePath p = at; p != null; p = p.getParentPath()) {
          if (p.getLeaf() instanceof ClassTree && trees.getElement(p) instanceof TypeElement t) {
            return t;
          }
        }
        return type;
      }
    }.scan(path, null);
  }

  /** Whether the compilation unit can name {@code qualified} by its simple name. */
  private static boolean sees(CompilationUnitTree unit, String qualified) {
    String pkg = qualified.substring(0, qualified.lastIndexOf('.'));
    if (unit.getPackageName() != null && unit.getPackageName().toString().equals(pkg)) {
      return true;
    }
    for (ImportTree i : unit.getImports()) {
      String name = i.getQualifiedIdentifier().toString();
      if (!i.isStatic() && (name.equals(qualified) || name.equals(pkg + ".*"))) {
        return true;
      }
    }
    return false;
  }

  private static boolean endsWith(ExpressionTree e, String simpleName) {
    if (e instanceof IdentifierTree) {
      return ((IdentifierTree) e).getName().contentEquals(simpleName);
    }
    return e instanceof MemberSelectTree
        && ((MemberSelectTree) e).getIdentifier().contentEquals(simpleName);
  }

  /** Whether a call chain starts at {@code FusionError} ({@code FusionError.x(...).actions}). */
  private static boolean rootedAt(ExpressionTree e, String simpleName) {
    Tree t = e;
    while (true) {
      if (t instanceof MethodInvocationTree) {
        t = ((MethodInvocationTree) t).getMethodSelect();
      } else if (t instanceof MemberSelectTree) {
        if (endsWith((ExpressionTree) t, simpleName)) {
          return true;
        }
        t = ((MemberSelectTree) t).getExpression();
      } else if (t instanceof NewClassTree) {
        return endsWith(((NewClassTree) t).getIdentifier(), simpleName);
      } else {
        return t instanceof IdentifierTree && endsWith((ExpressionTree) t, simpleName);
      }
    }
  }

  private void check(Use use) {
    if (use.prose()) {
      java.util.regex.Matcher m = IN_TEXT.matcher(use.reference());
      while (m.find()) {
        String ref = m.group(1);
        int dot = ref.indexOf('.');
        Set<String> actions = routers.get(ref.substring(0, dot));
        if (actions != null && !actions.contains(ref.substring(dot + 1))) {
          unknownAction(use, ref, ref.substring(0, dot), ref.substring(dot + 1), actions);
        }
      }
      return;
    }
    String ref = use.reference();
    int dot = ref.indexOf('.');
    if (dot < 0) {
      if (!(use.pattern() && ref.equals("*"))) {
        report(use, Diagnostic.MALFORMED_REFERENCE, use.site(), ref);
      }
      return;
    }
    String router = ref.substring(0, dot);
    String action = ref.substring(dot + 1);
    Set<String> actions = routers.get(router);
    if (actions == null) {
      String near = Names.nearest(router, routers.keySet());
      if (near != null) {
        report(use, Diagnostic.UNKNOWN_ROUTER_REFERENCE, use.site(), ref, router,
            " Did you mean '" + near + "." + action + "'?", String.join(", ", routers.keySet()));
      }
      return;
    }
    if (use.pattern() && action.contains("*")) {
      return;
    }
    if (!actions.contains(action)) {
      unknownAction(use, ref, router, action, actions);
    }
  }

  private void unknownAction(Use use, String ref, String router, String action,
      Set<String> actions) {
    List<String> qualified = new ArrayList<>();
    for (String a : actions) {
      qualified.add(router + "." + a);
    }
    report(use, Diagnostic.UNKNOWN_ACTION_REFERENCE, use.site(), ref, router, action,
        Names.didYouMean(ref, qualified), String.join(", ", qualified));
  }

  private void report(Use use, Diagnostic d, Object... args) {
    if (use.path() != null) {
      reporter.reportAtTree(d, trees, use.path(), args);
    } else {
      reporter.reportOn(d, use.element(), use.mirror(), use.value(), args);
    }
  }
}
