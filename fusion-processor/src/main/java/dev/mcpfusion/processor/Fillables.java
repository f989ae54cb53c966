package dev.mcpfusion.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Fillable input profiles: a parameter {@code @Input(profile = "create") Invoice draft} takes the
 * model properties that are {@code @Fillable("create")} (never a {@code @Hidden} or {@code @Guarded}
 * one) as one nested object under the parameter's name, like any record parameter, and the
 * generated decoder builds the model from them.
 */
final class Fillables {
  static final String INPUT = Props.ANN + "Input";
  static final String FILLABLE = Props.ANN + "Fillable";
  /** The profile whose properties are required unless {@code Optional} or {@code @Nullable}. */
  static final String CREATE = "create";

  /**
   * The input shape of a profile parameter: a record-shaped input whose components are the
   * fillable properties, plus how to build the model from them.
   */
  static final class ProfileIn extends Inputs.In {
    final String profile;
    /** A record: per record component in order, the index of its fillable site, or -1. */
    final List<Integer> slots;
    /** A record: per record component in order, its type (for the value of an unfilled one). */
    final List<TypeMirror> slotTypes;
    /** A class: per fillable site, the name of its setter. */
    final List<String> setters;

    ProfileIn(TypeMirror mirror, TypeElement type, List<Inputs.Site> components, String profile,
        List<Integer> slots, List<TypeMirror> slotTypes, List<String> setters) {
      super(Kind.RECORD, mirror, null, type, null, components);
      this.profile = profile;
      this.slots = slots;
      this.slotTypes = slotTypes;
      this.setters = setters;
    }

    boolean anyRequired() {
      return components.stream().anyMatch(s -> s.required);
    }

    /** The suffix of the decoder helper's name: {@code Create} for {@code "create"}. */
    String label() {
      StringBuilder b = new StringBuilder("As");
      boolean up = true;
      for (char c : profile.toCharArray()) {
        if (Character.isLetterOrDigit(c)) {
          b.append(up ? Character.toUpperCase(c) : c);
          up = false;
        } else {
          up = true;
        }
      }
      return b.toString();
    }
  }

  private final Elements elements;
  private final Types types;
  private final Reporter reporter;

  Fillables(Elements elements, Types types, Reporter reporter) {
    this.elements = elements;
    this.types = types;
    this.reporter = reporter;
  }

  /** The profiles of a model's properties the agent may send, in declaration order. */
  static Set<String> profiles(List<Props.Prop> props, Elements elements) {
    Set<String> out = new LinkedHashSet<>();
    for (Props.Prop prop : props) {
      AnnotationMirror f = prop.annotation(FILLABLE);
      if (f != null && !prop.has("Guarded") && !prop.has("Hidden")) {
        out.addAll(Mirrors.strings(elements, f, "value"));
      }
    }
    return out;
  }

  /**
   * The input site of an {@code @Input(profile)} parameter, or {@code null} after reporting why
   * there is none.
   */
  Inputs.Site site(VariableElement p, AnnotationMirror input, String where, Inputs inputs) {
    String pname = p.getSimpleName().toString();
    String profile = Mirrors.string(elements, input, "profile");
    AnnotationValue at = Mirrors.explicitValue(input, "profile");
    TypeMirror t = p.asType();
    TypeElement model = t.getKind() == TypeKind.DECLARED
        ? (TypeElement) ((DeclaredType) t).asElement() : null;
    if (model == null || Mirrors.find(model, Props.ANN + "Model") == null
        || (model.getKind() != ElementKind.CLASS && model.getKind() != ElementKind.RECORD)) {
      reporter.reportOn(Diagnostic.INPUT_NOT_A_MODEL, p, input, at, where, pname, profile,
          Views.display(t));
      return null;
    }
    List<Props.Prop> props = Props.of(model, types);
    Set<String> declared = profiles(props, elements);
    if (!declared.contains(profile)) {
      reporter.reportOn(Diagnostic.UNKNOWN_PROFILE, p, input, at, where, pname, profile,
          Names.display(model), declared.isEmpty() ? "none"
              : "\"" + String.join("\", \"", declared) + "\"");
      return null;
    }
    List<Props.Prop> filled = new ArrayList<>();
    for (Props.Prop prop : props) {
      AnnotationMirror f = prop.annotation(FILLABLE);
      if (f != null && !prop.has("Guarded") && !prop.has("Hidden")
          && Mirrors.strings(elements, f, "value").contains(profile)) {
        filled.add(prop);
      }
    }
    boolean record = Props.isRecord(model);
    String unbuildable = record ? recordProblem(model) : classProblem(model, filled);
    if (unbuildable != null) {
      reporter.reportOn(Diagnostic.MODEL_NOT_BUILDABLE, p, input, at, where, pname, profile,
          Names.display(model), unbuildable);
      return null;
    }
    List<Inputs.Site> sites = new ArrayList<>();
    List<String> setters = new ArrayList<>();
    for (Props.Prop prop : filled) {
      Inputs.In in;
      try {
        in = inputs.resolve(prop.type, List.of(model.getQualifiedName().toString()));
      } catch (Inputs.Unsupported u) {
        reporter.reportOn(Diagnostic.UNSUPPORTED_FILLABLE_TYPE, p, input, at, where, pname,
            profile, Names.display(model) + "." + prop.name, Views.display(prop.type),
            u.getMessage());
        return null;
      }
      boolean create = profile.equals(CREATE);
      Inputs.Site s = inputs.site(prop.name, prop.anchor, in, prop.annotations(),
          inputs.description(prop.sources, prop.type), create, prop.nullable());
      // Outside "create" every property is optional: an update sends what changes, a filter what
      // narrows. The value constraints still hold for what is sent.
      sites.add(create ? s
          : new Inputs.Site(s.name, s.anchor, s.in, s.constraints, s.description, false));
      setters.add(record ? null : setter(prop.name));
    }
    List<Integer> slots = new ArrayList<>();
    List<TypeMirror> slotTypes = new ArrayList<>();
    if (record) {
      for (Props.Prop prop : props) {
        slots.add(filled.indexOf(prop));
        slotTypes.add(prop.type);
      }
    }
    ProfileIn in = new ProfileIn(t, model, sites, profile, slots, slotTypes, setters);
    if (!inputs.reportMarked(in, pname, p, input, at, where)) {
      return null;
    }
    List<AnnotationMirror> annotations = new ArrayList<>(p.getAnnotationMirrors());
    Inputs.Site s = inputs.site(pname, p, in, annotations, inputs.description(List.of(p), t), false,
        false);
    // The object is required when something in it is: otherwise an agent could leave out the
    // whole draft and skip every required property.
    return new Inputs.Site(pname, p, in, s.constraints, s.description,
        s.required || in.anyRequired());
  }

  private static String setter(String property) {
    return "set" + Character.toUpperCase(property.charAt(0)) + property.substring(1);
  }

  private String recordProblem(TypeElement model) {
    ExecutableElement canonical = Props.canonicalConstructor(model, model.getRecordComponents(),
        types);
    if (canonical == null || canonical.getModifiers().contains(Modifier.PRIVATE)) {
      return "its canonical constructor is private";
    }
    return null;
  }

  private String classProblem(TypeElement model, List<Props.Prop> filled) {
    if (model.getModifiers().contains(Modifier.ABSTRACT)) {
      return "it is abstract";
    }
    if (model.getNestingKind() == NestingKind.MEMBER
        && !model.getModifiers().contains(Modifier.STATIC)) {
      return "it is an inner class (not static)";
    }
    boolean noArg = false;
    for (ExecutableElement c : ElementFilter.constructorsIn(model.getEnclosedElements())) {
      noArg |= c.getParameters().isEmpty() && c.getModifiers().contains(Modifier.PUBLIC);
    }
    if (!noArg) {
      return "it has no public no-argument constructor";
    }
    List<ExecutableElement> methods = ElementFilter.methodsIn(elements.getAllMembers(model));
    for (Props.Prop prop : filled) {
      String name = setter(prop.name);
      boolean found = false;
      for (ExecutableElement m : methods) {
        found |= m.getSimpleName().contentEquals(name) && m.getParameters().size() == 1
            && m.getModifiers().contains(Modifier.PUBLIC)
            && !m.getModifiers().contains(Modifier.STATIC)
            && types.isAssignable(prop.type, m.getParameters().get(0).asType());
      }
      if (!found) {
        return "the fillable property '" + prop.name + "' has no public setter " + name + "("
            + Views.display(prop.type) + ")";
      }
    }
    return null;
  }

  // ---------------------------------------------------------------- generated code

  /** Adds the statements that build the model from the decoded {@code v<i>} locals and return it. */
  static void writeBuild(MethodSpec.Builder m, ProfileIn in) {
    ClassName model = ClassName.get(in.type);
    // A model that checks its invariants in its constructor or setters (a record's compact
    // constructor) rejects a value with IllegalArgumentException: that is the agent's to fix.
    m.beginControlFlow("try");
    if (!in.slots.isEmpty()) {
      List<CodeBlock> args = new ArrayList<>();
      for (int k = 0; k < in.slots.size(); k++) {
        int i = in.slots.get(k);
        TypeMirror type = in.slotTypes.get(k);
        if (i < 0) {
          args.add(unfilled(type));
        } else if (in.components.get(i).in.kind == Inputs.In.Kind.OPTIONAL) {
          args.add(CodeBlock.of("$T.ofNullable(v$L)", Optional.class, i));
        } else if (type.getKind().isPrimitive()) {
          args.add(CodeBlock.of("v$L == null ? $L : v$L", i, unfilled(type), i));
        } else {
          args.add(CodeBlock.of("v$L", i));
        }
      }
      m.addStatement("return new $T($L)", model, CodeBlock.join(args, ", "));
    } else {
      writeSetters(m, in, model);
    }
    m.nextControlFlow("catch ($T e)", IllegalArgumentException.class);
    m.addStatement("p.add(path, e.getMessage() == null ? $S : $S + e.getMessage(), raw)",
        "was rejected by " + in.type.getSimpleName(),
        "was rejected by " + in.type.getSimpleName() + ": ");
    m.addStatement("return null");
    m.endControlFlow();
  }

  private static void writeSetters(MethodSpec.Builder m, ProfileIn in, ClassName model) {
    m.addStatement("$T model = new $T()", model, model);
    for (int i = 0; i < in.components.size(); i++) {
      boolean optional = in.components.get(i).in.kind == Inputs.In.Kind.OPTIONAL;
      m.beginControlFlow("if (v$L != null)", i)
          .addStatement(optional ? "model.$N($T.of(v$L))" : "model.$N(v$L)",
              optional ? new Object[] {in.setters.get(i), Optional.class, i}
                  : new Object[] {in.setters.get(i), i})
          .endControlFlow();
    }
    m.addStatement("return model");
  }

  /** The value of a record component the profile does not fill. */
  private static CodeBlock unfilled(TypeMirror type) {
    switch (type.getKind()) {
      case BOOLEAN:
        return CodeBlock.of("false");
      case BYTE:
        return CodeBlock.of("(byte) 0");
      case SHORT:
        return CodeBlock.of("(short) 0");
      case CHAR:
        return CodeBlock.of("'\\0'");
      case INT:
        return CodeBlock.of("0");
      case LONG:
        return CodeBlock.of("0L");
      case FLOAT:
        return CodeBlock.of("0f");
      case DOUBLE:
        return CodeBlock.of("0d");
      default:
        boolean optional = type.getKind() == TypeKind.DECLARED
            && ((TypeElement) ((DeclaredType) type).asElement()).getQualifiedName()
                .contentEquals(Scalar.OPTIONAL);
        return optional ? CodeBlock.of("$T.empty()", Optional.class) : CodeBlock.of("null");
    }
  }
}
