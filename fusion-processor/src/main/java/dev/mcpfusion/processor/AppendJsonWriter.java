package dev.mcpfusion.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeName;
import java.util.List;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;

/**
 * {@code appendJson} of a generated presenter: the JSON text of a view written straight into a
 * {@code StringBuilder}, the same text {@code Json.write(toTree(view))} gives.
 */
final class AppendJsonWriter {
  private AppendJsonWriter() {}

  /**
   * {@code appendJson}: the text {@code Json.write(toTree(view))} produces, written without the
   * tree. It mirrors {@code toTree} component by component (same reads, same null checks in the
   * same order); keys are constants escaped at compile time as the runtime escapes them.
   */
  static MethodSpec appendJson(TypeElement view, ClassName viewName,
      List<Views.Component> components) {
    MethodSpec.Builder m = PresenterWriter.override("appendJson", TypeName.VOID).addParameter(viewName, "view")
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
        m.addStatement("throw $N($S)", NULL_COMPONENT, c.view.name);
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

  /** The generated helper both {@code toTree} and {@code appendJson} throw from. */
  static final String NULL_COMPONENT = "nullComponent";

  /** Whether a component is checked for {@code null} (a reference that is not {@code @Nullable}). */
  static boolean checksNull(List<Views.Component> components) {
    for (Views.Component c : components) {
      if (!c.out.primitive && !c.nullable) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code nullComponent(name)}: the one place a presenter words a {@code null} in a component
   * that is not {@code @Nullable}, so {@code toTree} and {@code appendJson} carry only the name.
   */
  static MethodSpec nullComponent(TypeElement view) {
    return MethodSpec.methodBuilder(NULL_COMPONENT)
        .addJavadoc("The failure of a component that is not {@code @Nullable} but holds null.\n")
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .returns(IllegalStateException.class)
        .addParameter(String.class, "component")
        .addStatement("return new $T($S + component + $S)", IllegalStateException.class,
            view.getSimpleName() + ".", " is null, but it is not @Nullable: mark the component"
                + " (or the model property) @Nullable, or never leave it null")
        .build();
  }

  /** Appends a value that may be {@code null} (written as {@code null}, as in the tree). */
  private static void appendNullable(MethodSpec.Builder m, Views.Out o, String var) {
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
  private static void appendPresent(MethodSpec.Builder m, Views.Out o, String var) {
    ClassName jsonOut = Sources.spi("JsonOut");
    switch (o.kind) {
      case ENUM:
        m.addStatement("$T.string($L.name(), out)", jsonOut, var);
        return;
      case VIEW:
        m.addStatement("$T.INSTANCE.appendJson($L, out)", PresenterStep.presenterName(o.type), var);
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
}
