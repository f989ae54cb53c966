package dev.mcpfusion.processor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.WildcardType;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * The shape of {@code @Presenter} views: how a view component maps to its model property, the
 * output schema and the static rules. Shared by the presenter step (which validates and
 * generates) and nested views (whose schema and rules are inlined).
 */
final class Views {
  static final String PRESENTER = Props.ANN + "Presenter";

  /** The output shape of one view component (or collection element). */
  static final class Out {
    enum Kind { SCALAR, ENUM, VIEW, LIST, SET, OPTIONAL }

    final Kind kind;
    final Scalar scalar;
    final boolean primitive;
    final TypeElement type;
    final Out element;

    Out(Kind kind, Scalar scalar, boolean primitive, TypeElement type, Out element) {
      this.kind = kind;
      this.scalar = scalar;
      this.primitive = primitive;
      this.type = type;
      this.element = element;
    }
  }

  /** A view component that cannot be mapped. */
  static final class Mismatch extends Exception {
    final Diagnostic diagnostic;
    final Object[] args;

    Mismatch(Diagnostic diagnostic, Object... args) {
      super(diagnostic.message(args), null, false, false);
      this.diagnostic = diagnostic;
      this.args = args;
    }
  }

  /** One analysed view component. */
  static final class Component {
    final Props.Prop view;
    final Props.Prop model;
    final Out out;
    final String description;
    final boolean rule;
    final boolean nullable;

    Component(Props.Prop view, Props.Prop model, Out out, String description, boolean rule,
        boolean nullable) {
      this.view = view;
      this.model = model;
      this.out = out;
      this.description = description;
      this.rule = rule;
      this.nullable = nullable;
    }
  }

  private final Elements elements;
  private final Types types;
  private final Nullness nullness;

  Views(Elements elements, Types types, Nullness nullness) {
    this.elements = elements;
    this.types = types;
    this.nullness = nullness;
  }

  /** The model type a view presents, or {@code null} when unreadable. */
  TypeMirror modelOf(TypeElement view) {
    AnnotationMirror p = Mirrors.find(view, PRESENTER);
    return p == null ? null : Mirrors.type(elements, p, "model");
  }

  boolean isView(TypeElement type) {
    return Mirrors.find(type, PRESENTER) != null;
  }

  /** Maps a view component type to its model property type. */
  Out match(TypeMirror model, TypeMirror view, String where) throws Mismatch {
    return match(model, view, where, 0);
  }

  private Out match(TypeMirror model, TypeMirror view, String where, int depth) throws Mismatch {
    Scalar vs = Scalar.of(view);
    if (vs != null) {
      Scalar ms = Scalar.of(model);
      if (ms == vs && !(view.getKind().isPrimitive() && !model.getKind().isPrimitive())) {
        return new Out(Out.Kind.SCALAR, vs, view.getKind().isPrimitive(), null, null);
      }
      throw mismatch(model, view, where);
    }
    if (view.getKind() != TypeKind.DECLARED) {
      throw new Mismatch(Diagnostic.UNSUPPORTED_VIEW_TYPE, where, display(view));
    }
    TypeElement ve = (TypeElement) ((DeclaredType) view).asElement();
    if (ve.getKind() == ElementKind.ENUM) {
      if (types.isSameType(types.erasure(model), types.erasure(view))) {
        return new Out(Out.Kind.ENUM, null, false, ve, null);
      }
      throw mismatch(model, view, where);
    }
    if (isView(ve)) {
      TypeMirror vm = modelOf(ve);
      if (vm != null && types.isAssignable(types.erasure(model), types.erasure(vm))) {
        return new Out(Out.Kind.VIEW, null, false, ve, null);
      }
      throw new Mismatch(Diagnostic.VIEW_OF_ANOTHER_MODEL, where, Names.display(ve),
          vm == null ? "?" : display(vm), display(model));
    }
    String qn = ve.getQualifiedName().toString();
    boolean list = Scalar.LISTS.contains(qn);
    boolean set = Scalar.SET.equals(qn);
    boolean optional = Scalar.OPTIONAL.equals(qn);
    if (list || set || optional) {
      if (depth > 0) {
        throw new Mismatch(Diagnostic.VIEW_NESTED_IN_CONTAINER, where, display(view));
      }
      TypeMirror vArg = argument(view);
      TypeMirror mArg = model.getKind() == TypeKind.DECLARED ? argument(model) : null;
      if (vArg == null) {
        throw new Mismatch(Diagnostic.RAW_VIEW_TYPE, where, display(view));
      }
      if (mArg == null || !sameContainer(model, optional)) {
        throw mismatch(model, view, where);
      }
      Out element = match(mArg, vArg, where, depth + 1);
      return new Out(optional ? Out.Kind.OPTIONAL : set ? Out.Kind.SET : Out.Kind.LIST, null,
          false, null, element);
    }
    if (types.isSameType(types.erasure(model), types.erasure(view))) {
      if (ve.getKind() == ElementKind.RECORD || (ve.getKind() == ElementKind.CLASS
          && !qn.startsWith("java.") && !qn.startsWith("javax."))) {
        throw new Mismatch(Diagnostic.NESTED_MODEL_NEEDS_PRESENTER, where, Names.display(ve),
            ve.getSimpleName());
      }
    }
    if (types.isSameType(types.erasure(model), types.erasure(view))) {
      throw new Mismatch(Diagnostic.MODEL_EXPOSED_WHOLE, where, display(view));
    }
    throw mismatch(model, view, where);
  }

  static final String SUPPORTED = "Use String, a number, boolean, an enum, UUID, LocalDate,"
      + " Instant, OffsetDateTime, BigDecimal, BigInteger, a @Presenter view, or a List, Set or"
      + " Optional of these.";

  private boolean sameContainer(TypeMirror model, boolean optional) {
    String qn = ((TypeElement) ((DeclaredType) model).asElement()).getQualifiedName().toString();
    if (optional) {
      return qn.equals(Scalar.OPTIONAL);
    }
    TypeElement collection = elements.getTypeElement("java.util.Collection");
    return collection != null
        && types.isAssignable(types.erasure(model), types.erasure(collection.asType()));
  }

  static TypeMirror argument(TypeMirror type) {
    List<? extends TypeMirror> args = ((DeclaredType) type).getTypeArguments();
    if (args.size() != 1) {
      return null;
    }
    TypeMirror a = args.get(0);
    if (a.getKind() == TypeKind.WILDCARD) {
      return ((WildcardType) a).getExtendsBound();
    }
    return a;
  }

  private Mismatch mismatch(TypeMirror model, TypeMirror view, String where) {
    return new Mismatch(Diagnostic.VIEW_TYPE_MISMATCH, where, display(view), display(model));
  }

  /** A type without package prefixes: {@code List<String>}. */
  static String display(TypeMirror type) {
    return Sources.plain(type).toString().replaceAll("\\b(?:[a-z][a-z0-9_]*\\.)+(?=[A-Za-z_$])", "");
  }

  /**
   * Analyses a view without reporting: its components mapped to model properties. Returns
   * {@code null} if the view cannot be analysed (the presenter step reports why).
   */
  List<Component> components(TypeElement view) {
    TypeMirror model = modelOf(view);
    if (model == null || model.getKind() != TypeKind.DECLARED || !Props.isRecord(view)) {
      return null;
    }
    List<Props.Prop> modelProps = Props.of((TypeElement) ((DeclaredType) model).asElement(), types);
    Map<String, Props.Prop> byName = new LinkedHashMap<>();
    for (Props.Prop p : modelProps) {
      byName.put(p.name, p);
    }
    List<Component> out = new ArrayList<>();
    for (Props.Prop vp : Props.ofRecord(view, types)) {
      Props.Prop mp = byName.get(vp.name);
      if (mp == null) {
        return null;
      }
      Out o;
      try {
        o = match(mp.type, vp.type, vp.name);
      } catch (Mismatch m) {
        return null;
      }
      out.add(component(vp, mp, o));
    }
    return out;
  }

  Component component(Props.Prop vp, Props.Prop mp, Out o) {
    AnnotationMirror d = Props.describe(vp);
    if (d == null) {
      d = Props.describe(mp);
    }
    String description = Props.describeText(elements, d);
    boolean rule = d != null && Mirrors.bool(elements, d, "rule");
    // A null the model may hold reaches the view: either side's @Nullable makes it nullable.
    boolean nullable = o.kind == Out.Kind.OPTIONAL
        || (!o.primitive && (vp.nullable(nullness) || mp.nullable(nullness)));
    return new Component(vp, mp, o, description, rule, nullable);
  }

  /** The output JSON Schema of a view, nested views inlined. */
  Map<String, Object> schema(TypeElement view, List<Component> components, Set<String> visiting) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("type", "object");
    Map<String, Object> properties = new LinkedHashMap<>();
    List<Object> required = new ArrayList<>();
    visiting.add(view.getQualifiedName().toString());
    for (Component c : components) {
      Map<String, Object> p = schema(c.out, c.nullable, visiting);
      if (!c.description.isEmpty()) {
        p.put("description", c.description);
      }
      properties.put(c.view.name, p);
      if (!c.nullable) {
        required.add(c.view.name);
      }
    }
    visiting.remove(view.getQualifiedName().toString());
    s.put("properties", properties);
    if (!required.isEmpty()) {
      s.put("required", required);
    }
    s.put("additionalProperties", Boolean.FALSE);
    return s;
  }

  private Map<String, Object> schema(Out o, boolean nullable, Set<String> visiting) {
    Map<String, Object> s;
    switch (o.kind) {
      case SCALAR:
        s = new LinkedHashMap<>();
        s.put("type", type(o.scalar.jsonType, nullable));
        if (o.scalar.format != null) {
          s.put("format", o.scalar.format);
        }
        return s;
      case ENUM:
        s = new LinkedHashMap<>();
        s.put("type", type("string", nullable));
        List<Object> names = new ArrayList<>(enumConstants(o.type));
        if (nullable) {
          names.add(null);
        }
        s.put("enum", names);
        return s;
      case VIEW:
        if (visiting.contains(o.type.getQualifiedName().toString())) {
          throw new IllegalStateException("recursive view " + o.type);
        }
        List<Component> nested = components(o.type);
        s = schema(o.type, nested == null ? List.of() : nested, visiting);
        if (nullable) {
          Map<String, Object> n = new LinkedHashMap<>();
          n.put("type", List.of("object", "null"));
          s.remove("type");
          n.putAll(s);
          s = n;
        }
        return s;
      case LIST:
      case SET:
        s = new LinkedHashMap<>();
        s.put("type", type("array", nullable));
        s.put("items", schema(o.element, false, visiting));
        return s;
      case OPTIONAL:
      default:
        return schema(o.element, true, visiting);
    }
  }

  private static Object type(String type, boolean nullable) {
    return nullable ? List.of(type, "null") : type;
  }

  static List<String> enumConstants(TypeElement e) {
    List<String> out = new ArrayList<>();
    for (Element c : e.getEnclosedElements()) {
      if (c.getKind() == ElementKind.ENUM_CONSTANT) {
        out.add(c.getSimpleName().toString());
      }
    }
    return out;
  }

  /** Whether a view (directly or through nested views) contains itself. */
  boolean recursive(TypeElement view, Set<String> visiting) {
    if (!visiting.add(view.getQualifiedName().toString())) {
      return true;
    }
    List<Component> cs = components(view);
    if (cs != null) {
      for (Component c : cs) {
        Out o = c.out.element != null ? c.out.element : c.out;
        if (o.kind == Out.Kind.VIEW && recursive(o.type, visiting)) {
          return true;
        }
      }
    }
    visiting.remove(view.getQualifiedName().toString());
    return false;
  }

  /** The static rule lines: described properties in view order, nested views once, then @Rules. */
  List<String> staticRules(TypeElement view, List<Component> components, Set<String> seenViews) {
    Set<String> lines = new LinkedHashSet<>();
    seenViews.add(view.getQualifiedName().toString());
    for (Component c : components) {
      if (c.rule && !c.description.isEmpty()) {
        lines.add(c.view.name + ": " + c.description);
      }
      Out o = c.out.element != null ? c.out.element : c.out;
      if (o.kind == Out.Kind.VIEW && !seenViews.contains(o.type.getQualifiedName().toString())) {
        List<Component> nested = components(o.type);
        if (nested != null) {
          lines.addAll(staticRules(o.type, nested, seenViews));
        }
      }
    }
    AnnotationMirror rules = Mirrors.find(view, Props.ANN + "Rules");
    if (rules != null) {
      lines.addAll(Mirrors.strings(elements, rules, "value"));
    }
    return new ArrayList<>(lines);
  }
}
