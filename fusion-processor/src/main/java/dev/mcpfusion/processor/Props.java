package dev.mcpfusion.processor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * The properties of a model, view or input record. A record's annotations are read from the
 * component, then the accessor, the field and the canonical-constructor parameter;
 * a class's from the getter, then the field.
 */
final class Props {
  static final String ANN = "dev.mcpfusion.annotation.";

  /** One property. */
  static final class Prop {
    final String name;
    final TypeMirror type;
    final Element anchor;
    final String accessor;
    final List<Element> sources;
    final List<TypeMirror> typeUses;

    Prop(String name, TypeMirror type, Element anchor, String accessor, List<Element> sources,
        List<TypeMirror> typeUses) {
      this.name = name;
      this.type = type;
      this.anchor = anchor;
      this.accessor = accessor;
      this.sources = sources;
      this.typeUses = typeUses;
    }

    AnnotationMirror annotation(String qualifiedName) {
      return Mirrors.findFirst(sources, qualifiedName);
    }

    boolean has(String simpleAnnotation) {
      return annotation(ANN + simpleAnnotation) != null;
    }

    boolean nullable() {
      return Mirrors.nullable(sources, typeUses);
    }

    /**
     * Whether the property is nullable, also counting a type-use {@code @Nullable} that javac
     * hides for a record read from a class file (see {@link Nullness}).
     */
    boolean nullable(Nullness nullness) {
      return nullable() || invisibleNullable(nullness);
    }

    /** Whether the only {@code @Nullable} is one javac does not show ({@code [fusion/NullnessInvisible]}). */
    boolean invisibleNullable(Nullness nullness) {
      Element first = sources.get(0);
      return nullness != null && first.getKind() == ElementKind.RECORD_COMPONENT
          && !type.getKind().isPrimitive() && !nullable()
          && nullness.inClassFile((TypeElement) first.getEnclosingElement(), name);
    }

    /** Every annotation on the property, first source wins per annotation type. */
    List<AnnotationMirror> annotations() {
      Map<String, AnnotationMirror> byName = new LinkedHashMap<>();
      for (Element e : sources) {
        for (AnnotationMirror m : e.getAnnotationMirrors()) {
          byName.putIfAbsent(Mirrors.name(m), m);
        }
      }
      for (TypeMirror t : typeUses) {
        for (AnnotationMirror m : t.getAnnotationMirrors()) {
          byName.putIfAbsent(Mirrors.name(m), m);
        }
      }
      return new ArrayList<>(byName.values());
    }
  }

  private Props() {}

  static boolean isRecord(TypeElement type) {
    return type.getKind() == ElementKind.RECORD;
  }

  /** The properties of a record (components) or class (getters, superclass first). */
  static List<Prop> of(TypeElement type, Types types) {
    return isRecord(type) ? ofRecord(type, types) : ofClass(type, types);
  }

  static List<Prop> ofRecord(TypeElement type, Types types) {
    List<? extends RecordComponentElement> components = type.getRecordComponents();
    ExecutableElement canonical = canonicalConstructor(type, components, types);
    List<Prop> out = new ArrayList<>();
    for (int i = 0; i < components.size(); i++) {
      RecordComponentElement c = components.get(i);
      List<Element> sources = new ArrayList<>();
      List<TypeMirror> typeUses = new ArrayList<>();
      sources.add(c);
      typeUses.add(c.asType());
      ExecutableElement accessor = c.getAccessor();
      if (accessor != null) {
        sources.add(accessor);
        typeUses.add(accessor.getReturnType());
      }
      for (VariableElement f : ElementFilter.fieldsIn(type.getEnclosedElements())) {
        if (f.getSimpleName().contentEquals(c.getSimpleName())
            && !f.getModifiers().contains(Modifier.STATIC)) {
          sources.add(f);
          typeUses.add(f.asType());
        }
      }
      if (canonical != null) {
        VariableElement p = canonical.getParameters().get(i);
        sources.add(p);
        typeUses.add(p.asType());
      }
      String name = c.getSimpleName().toString();
      // JDK 17 javac cannot place a diagnostic on a record component; its field carries the
      // component's source position.
      Element anchor = c;
      for (Element s : sources) {
        if (s.getKind() == ElementKind.FIELD) {
          anchor = s;
        }
      }
      out.add(new Prop(name, c.asType(), anchor, name, sources, typeUses));
    }
    return out;
  }

  static ExecutableElement canonicalConstructor(TypeElement type,
      List<? extends RecordComponentElement> components, Types types) {
    for (ExecutableElement ctor : ElementFilter.constructorsIn(type.getEnclosedElements())) {
      List<? extends VariableElement> params = ctor.getParameters();
      if (params.size() != components.size()) {
        continue;
      }
      boolean same = true;
      for (int i = 0; i < params.size() && same; i++) {
        same = types.isSameType(types.erasure(params.get(i).asType()),
            types.erasure(components.get(i).asType()));
      }
      if (same) {
        return ctor;
      }
    }
    return null;
  }

  static List<Prop> ofClass(TypeElement type, Types types) {
    List<TypeElement> chain = new ArrayList<>();
    TypeElement t = type;
    while (t != null && !t.getQualifiedName().contentEquals("java.lang.Object")) {
      chain.add(0, t);
      TypeMirror sup = t.getSuperclass();
      t = sup.getKind() == TypeKind.DECLARED ? (TypeElement) ((DeclaredType) sup).asElement() : null;
    }
    Map<String, Prop> byName = new LinkedHashMap<>();
    // Interfaces first, so that a class's override of an interface getter keeps what the interface
    // said (a @Hidden default getter must not be lost to an override), and a default getter the
    // class does not override is still a property.
    List<TypeElement> interfaces = new ArrayList<>();
    for (TypeElement c : chain) {
      collectInterfaces(c, interfaces);
    }
    for (TypeElement i : interfaces) {
      addGetters(i, byName);
    }
    for (TypeElement c : chain) {
      addGetters(c, byName);
    }
    // A property's field may be declared in any class of the chain, not only in the getter's.
    for (Prop p : byName.values()) {
      for (TypeElement c : chain) {
        for (VariableElement f : ElementFilter.fieldsIn(c.getEnclosedElements())) {
          if (f.getSimpleName().contentEquals(p.name) && !f.getModifiers().contains(Modifier.STATIC)
              && !p.sources.contains(f)) {
            p.sources.add(f);
            p.typeUses.add(f.asType());
          }
        }
      }
    }
    return new ArrayList<>(byName.values());
  }

  /** Adds the getters declared in {@code c} to {@code byName}, merging each override's sources. */
  private static void addGetters(TypeElement c, Map<String, Prop> byName) {
    for (ExecutableElement m : ElementFilter.methodsIn(c.getEnclosedElements())) {
      if (!m.getModifiers().contains(Modifier.PUBLIC) || m.getModifiers().contains(Modifier.STATIC)
          || !m.getParameters().isEmpty() || !m.getTypeParameters().isEmpty()
          || m.getReturnType().getKind() == TypeKind.VOID) {
        continue;
      }
      String n = m.getSimpleName().toString();
      String prop;
      if (n.startsWith("get") && n.length() > 3 && !n.equals("getClass")) {
        prop = Names.decapitalize(n.substring(3));
      } else if (n.startsWith("is") && n.length() > 2
          && m.getReturnType().getKind() == TypeKind.BOOLEAN) {
        prop = Names.decapitalize(n.substring(2));
      } else {
        continue;
      }
      List<Element> sources = new ArrayList<>();
      List<TypeMirror> typeUses = new ArrayList<>();
      sources.add(m);
      typeUses.add(m.getReturnType());
      // An override keeps what the overridden getter and its class said: an annotation such as
      // @Hidden on a superclass's field or getter must survive a subclass redeclaring the getter.
      Prop overridden = byName.get(prop);
      if (overridden != null) {
        sources.addAll(overridden.sources);
        typeUses.addAll(overridden.typeUses);
      }
      byName.put(prop, new Prop(prop, m.getReturnType(), m, n, sources, typeUses));
    }
  }

  /** The interfaces {@code type} implements, directly or through other interfaces, each once. */
  private static void collectInterfaces(TypeElement type, List<TypeElement> out) {
    for (TypeMirror i : type.getInterfaces()) {
      if (i.getKind() == TypeKind.DECLARED) {
        TypeElement e = (TypeElement) ((DeclaredType) i).asElement();
        if (!out.contains(e)) {
          collectInterfaces(e, out);
          out.add(e);
        }
      }
    }
  }

  /** The {@code @Describe} of a property: its text and rule flag, or {@code null}. */
  static AnnotationMirror describe(Prop p) {
    return p.annotation(ANN + "Describe");
  }

  static String describeText(Elements elements, AnnotationMirror describe) {
    return describe == null ? "" : Mirrors.string(elements, describe, "value");
  }
}
