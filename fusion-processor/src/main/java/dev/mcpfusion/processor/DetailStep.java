package dev.mcpfusion.processor;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.util.HashSet;
import java.util.Set;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * A model passed straight to {@code FusionError...detail(key, value)}: at run time it is rendered
 * through the presenter the server has for it, and without one the call fails (closed, never
 * sending the model's fields). When no {@code @Presenter} of the compilation presents the static
 * type of the value — a {@code @Model}, or any type with {@code @Hidden} members, declared in this
 * compilation — that failure is reported at compile time instead, as
 * {@code [fusion/UnpresentedDetail]} on the call. A type from a library is not reported: its
 * presenter may be declared in a module this compilation cannot see.
 *
 * <p>Argument types are known only once javac has attributed the code, after processing: the
 * check runs then, on each class as javac finishes analysing it (a javac task listener). Under
 * another compiler it does not run, and the run-time check remains.
 */
final class DetailStep implements FusionProcessor.Step {
  private static final String FUSION_ERROR = "dev.mcpfusion.core.FusionError";

  private final Elements elements;
  private final Types types;
  private final Trees trees;
  private final Reporter reporter;
  /** The qualified names of the models some {@code @Presenter} of the compilation presents. */
  private final Set<String> presented = new HashSet<>();
  /** The qualified names of the types declared in the sources of this compilation. */
  private final Set<String> declaredHere = new HashSet<>();

  DetailStep(ProcessingEnvironment env, Reporter reporter) {
    this.elements = env.getElementUtils();
    this.types = env.getTypeUtils();
    this.reporter = reporter;
    Trees t;
    try {
      t = Trees.instance(env);
      JavacTask.instance(env).addTaskListener(new TaskListener() {
        @Override
        public void finished(TaskEvent e) {
          if (e.getKind() == TaskEvent.Kind.ANALYZE && e.getTypeElement() != null) {
            check(e.getTypeElement());
          }
        }
      });
    } catch (IllegalArgumentException | IllegalStateException notJavac) {
      t = null; // another compiler, or a wrapped environment: the run-time check remains
    }
    this.trees = t;
  }

  @Override
  public void process(RoundEnvironment round) {
    for (Element root : round.getRootElements()) {
      addDeclared(root);
    }
    TypeElement presenter = elements.getTypeElement(FusionProcessor.PKG + "Presenter");
    if (presenter == null) {
      return;
    }
    for (Element e : round.getElementsAnnotatedWith(presenter)) {
      AnnotationMirror p = Mirrors.find(e, FusionProcessor.PKG + "Presenter");
      TypeMirror model = p == null ? null : Mirrors.type(elements, p, "model");
      if (model != null && model.getKind() == TypeKind.DECLARED) {
        presented.add(((TypeElement) types.asElement(model)).getQualifiedName().toString());
      }
    }
  }

  private void addDeclared(Element e) {
    if (e instanceof TypeElement t) {
      declaredHere.add(t.getQualifiedName().toString());
      for (Element inner : t.getEnclosedElements()) {
        addDeclared(inner);
      }
    }
  }

  private void check(TypeElement type) {
    TreePath path = trees == null ? null : trees.getPath(type);
    if (path == null) {
      return;
    }
    new TreePathScanner<Void, Void>() {
      @Override
      public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
        if (call.getArguments().size() == 2 && isDetail(trees.getElement(getCurrentPath()))) {
          ExpressionTree value = call.getArguments().get(1);
          TreePath at = new TreePath(getCurrentPath(), value);
          TypeMirror valueType = trees.getTypeMirror(at);
          if (valueType != null && valueType.getKind() == TypeKind.DECLARED) {
            checkValue((TypeElement) ((DeclaredType) valueType).asElement(), call, at);
          }
        }
        return super.visitMethodInvocation(call, unused);
      }
    }.scan(path, null);
  }

  private static boolean isDetail(Element method) {
    return method instanceof ExecutableElement
        && method.getSimpleName().contentEquals("detail")
        && method.getEnclosingElement() instanceof TypeElement owner
        && owner.getQualifiedName().contentEquals(FUSION_ERROR);
  }

  private void checkValue(TypeElement valueType, MethodInvocationTree call, TreePath at) {
    if (Mirrors.find(valueType, FusionProcessor.PKG + "Presenter") != null) {
      return; // a view: it is what the agent may read
    }
    if (!declaredHere.contains(valueType.getQualifiedName().toString())) {
      // Declared in a library: its presenter may live there too, or in any module the server
      // registers, which this compilation cannot see. The run-time check (fail closed) covers it.
      return;
    }
    String what = null;
    // A subclass of a model (an ORM proxy, say) is presented as that model.
    for (TypeElement t = valueType; t != null; t = superclass(t)) {
      if (presented.contains(t.getQualifiedName().toString())) {
        return;
      }
      if (what == null && Mirrors.find(t, FusionProcessor.PKG + "Model") != null) {
        what = "a @Model";
      }
    }
    if (what == null) {
      if (!hasHidden(valueType)) {
        return;
      }
      what = "a type with @Hidden members";
    }
    ExpressionTree key = call.getArguments().get(0);
    String keyText = key instanceof LiteralTree ? key.toString() : "key";
    reporter.reportAtTree(Diagnostic.UNPRESENTED_DETAIL, trees, at, site(at),
        Names.display(valueType), what, keyText, Names.display(valueType));
  }

  private boolean hasHidden(TypeElement type) {
    for (Element member : elements.getAllMembers(type)) {
      if (Mirrors.find(member, FusionProcessor.PKG + "Hidden") != null) {
        return true;
      }
    }
    for (TypeElement t = type; t != null; t = superclass(t)) {
      for (Element e : t.getEnclosedElements()) {
        if (e.getKind() == ElementKind.RECORD_COMPONENT
            && Mirrors.find(e, FusionProcessor.PKG + "Hidden") != null) {
          return true;
        }
      }
    }
    return false;
  }

  private TypeElement superclass(TypeElement type) {
    TypeMirror s = type.getSuperclass();
    return s.getKind() == TypeKind.DECLARED ? (TypeElement) types.asElement(s) : null;
  }

  /** {@code Type.method} of the code that holds {@code at}. */
  private static String site(TreePath at) {
    String method = null;
    for (TreePath p = at; p != null; p = p.getParentPath()) {
      Tree leaf = p.getLeaf();
      if (method == null && leaf instanceof MethodTree m) {
        method = m.getName().toString();
      }
      if (leaf instanceof ClassTree c) {
        return c.getSimpleName() + (method == null ? "" : "." + method);
      }
    }
    return "this code";
  }
}
