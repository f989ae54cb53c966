package dev.mcpfusion.processor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
import javax.lang.model.type.WildcardType;
import javax.lang.model.util.Elements;

/**
 * Reads annotations through mirrors and qualified names, never through {@code Class} objects, so
 * the processor path needs no runtime jar.
 */
final class Mirrors {
  private Mirrors() {}

  /** The qualified name of an annotation mirror's type. */
  static String name(AnnotationMirror mirror) {
    return ((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName().toString();
  }

  /** The annotation of the given qualified type on {@code element}, or {@code null}. */
  static AnnotationMirror find(Element element, String qualifiedName) {
    if (element == null) {
      return null;
    }
    for (AnnotationMirror m : element.getAnnotationMirrors()) {
      if (name(m).equals(qualifiedName)) {
        return m;
      }
    }
    return null;
  }

  /** A repeatable annotation's uses on {@code element}, written once or inside its container, in order. */
  static List<AnnotationMirror> repeated(Elements elements, Element element, String qualifiedName,
      String container) {
    List<AnnotationMirror> out = new ArrayList<>();
    AnnotationMirror one = find(element, qualifiedName);
    if (one != null) {
      out.add(one);
    }
    AnnotationMirror many = find(element, container);
    if (many != null) {
      for (AnnotationValue v : list(elements, many, "value")) {
        out.add((AnnotationMirror) v.getValue());
      }
    }
    return out;
  }

  /** The first annotation of that type found on the elements, in order. */
  static AnnotationMirror findFirst(List<? extends Element> sources, String qualifiedName) {
    for (Element e : sources) {
      AnnotationMirror m = find(e, qualifiedName);
      if (m != null) {
        return m;
      }
    }
    return null;
  }

  /** An annotation attribute, defaults included. */
  static AnnotationValue value(Elements elements, AnnotationMirror mirror, String attribute) {
    for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> e
        : elements.getElementValuesWithDefaults(mirror).entrySet()) {
      if (e.getKey().getSimpleName().contentEquals(attribute)) {
        return e.getValue();
      }
    }
    return null;
  }

  /** The explicitly written attribute value (no default), or {@code null}. */
  static AnnotationValue explicitValue(AnnotationMirror mirror, String attribute) {
    for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> e
        : mirror.getElementValues().entrySet()) {
      if (e.getKey().getSimpleName().contentEquals(attribute)) {
        return e.getValue();
      }
    }
    return null;
  }

  /** The name of an explicitly written enum attribute's constant, or {@code otherwise}. */
  static String enumConstant(AnnotationMirror mirror, String attribute, String otherwise) {
    AnnotationValue v = mirror == null ? null : explicitValue(mirror, attribute);
    return v != null && v.getValue() instanceof VariableElement constant
        ? constant.getSimpleName().toString() : otherwise;
  }

  static String string(Elements elements, AnnotationMirror mirror, String attribute) {
    AnnotationValue v = value(elements, mirror, attribute);
    return v == null || !(v.getValue() instanceof String) ? "" : (String) v.getValue();
  }

  static boolean bool(Elements elements, AnnotationMirror mirror, String attribute) {
    AnnotationValue v = value(elements, mirror, attribute);
    return v != null && Boolean.TRUE.equals(v.getValue());
  }

  static long number(Elements elements, AnnotationMirror mirror, String attribute, long otherwise) {
    AnnotationValue v = value(elements, mirror, attribute);
    return v != null && v.getValue() instanceof Number ? ((Number) v.getValue()).longValue() : otherwise;
  }

  /** A {@code Class<?>} attribute; {@code null} when absent; an ERROR type when unresolved. */
  static TypeMirror type(Elements elements, AnnotationMirror mirror, String attribute) {
    AnnotationValue v = value(elements, mirror, attribute);
    if (v == null) {
      return null;
    }
    Object o = v.getValue();
    if (o instanceof TypeMirror) {
      return (TypeMirror) o;
    }
    return null;
  }

  /** Whether a {@code Class<?>} attribute could not be resolved (a type not generated yet). */
  static boolean unresolvedType(Elements elements, AnnotationMirror mirror, String attribute) {
    AnnotationValue v = value(elements, mirror, attribute);
    if (v == null) {
      return false;
    }
    Object o = v.getValue();
    return !(o instanceof TypeMirror) || ((TypeMirror) o).getKind() == TypeKind.ERROR;
  }

  /** An array attribute's values. */
  @SuppressWarnings("unchecked")
  static List<AnnotationValue> list(Elements elements, AnnotationMirror mirror, String attribute) {
    AnnotationValue v = value(elements, mirror, attribute);
    if (v == null || !(v.getValue() instanceof List)) {
      return List.of();
    }
    return (List<AnnotationValue>) v.getValue();
  }

  static List<String> strings(Elements elements, AnnotationMirror mirror, String attribute) {
    List<String> out = new ArrayList<>();
    for (AnnotationValue v : list(elements, mirror, attribute)) {
      if (v.getValue() instanceof String) {
        out.add((String) v.getValue());
      }
    }
    return out;
  }

  /** Whether some annotation named {@code Nullable} (any package) is on the elements or type uses. */
  static boolean nullable(List<? extends Element> sources, List<TypeMirror> types) {
    for (Element e : sources) {
      for (AnnotationMirror m : e.getAnnotationMirrors()) {
        if (m.getAnnotationType().asElement().getSimpleName().contentEquals("Nullable")) {
          return true;
        }
      }
    }
    for (TypeMirror t : types) {
      if (t == null) {
        continue;
      }
      for (AnnotationMirror m : t.getAnnotationMirrors()) {
        if (m.getAnnotationType().asElement().getSimpleName().contentEquals("Nullable")) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether the type (or one of its type arguments / components) is not resolved yet. */
  static boolean hasErrorType(TypeMirror type) {
    return missingType(type) != null;
  }

  /** The first type inside {@code type} that does not exist, as written in the source; or null. */
  static String missingType(TypeMirror type) {
    if (type == null) {
      return null;
    }
    switch (type.getKind()) {
      case ERROR:
        return type.toString();
      case ARRAY:
        return missingType(((ArrayType) type).getComponentType());
      case DECLARED:
        for (TypeMirror a : ((DeclaredType) type).getTypeArguments()) {
          String missing = missingType(a);
          if (missing != null) {
            return missing;
          }
        }
        return null;
      case WILDCARD:
        WildcardType w = (WildcardType) type;
        String missing = missingType(w.getExtendsBound());
        return missing != null ? missing : missingType(w.getSuperBound());
      default:
        return null;
    }
  }

  /**
   * The class a {@code Class<?>} attribute names when it does not exist yet, described for a
   * message (javac may no longer know its name); {@code null} when it resolves or is absent.
   */
  static String missingClass(Elements elements, AnnotationMirror mirror, String attribute) {
    if (!unresolvedType(elements, mirror, attribute)) {
      return null;
    }
    Object o = value(elements, mirror, attribute).getValue();
    String written = o instanceof TypeMirror ? o.toString() : "";
    return written.isEmpty() || written.contains("<") ? "the class in @"
        + mirror.getAnnotationType().asElement().getSimpleName() + "(" + attribute + " = ...)"
        : written;
  }

}
