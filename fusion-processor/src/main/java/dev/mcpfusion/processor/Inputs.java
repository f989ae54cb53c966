package dev.mcpfusion.processor;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.PatternSyntaxException;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.WildcardType;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Tool inputs: how a parameter or input-record component maps to JSON (its {@link In} type), which
 * jakarta constraints it carries ({@link Constraints}), and its input JSON Schema.
 */
final class Inputs {
  static final String JAKARTA = "jakarta.validation.constraints.";

  /** The JSON shape of an input type. */
  static final class In {
    enum Kind { SCALAR, ENUM, RECORD, LIST, SET, ARRAY, OPTIONAL }

    final Kind kind;
    final TypeMirror mirror;
    final Scalar scalar;
    final TypeElement type;
    final In element;
    final List<Site> components;

    In(Kind kind, TypeMirror mirror, Scalar scalar, TypeElement type, In element, List<Site> components) {
      this.kind = kind;
      this.mirror = mirror;
      this.scalar = scalar;
      this.type = type;
      this.element = element;
      this.components = components;
    }

    /** The type constraints apply to: the content of an {@code Optional}. */
    In value() {
      return kind == Kind.OPTIONAL ? element : this;
    }

    boolean primitive() {
      return mirror.getKind().isPrimitive();
    }

    boolean collection() {
      return kind == Kind.LIST || kind == Kind.SET || kind == Kind.ARRAY;
    }
  }

  /** One input value with a name: a parameter, or a component of an input record. */
  static final class Site {
    final String name;
    final Element anchor;
    final In in;
    final Constraints constraints;
    final String description;
    final boolean required;

    Site(String name, Element anchor, In in, Constraints constraints, String description,
        boolean required) {
      this.name = name;
      this.anchor = anchor;
      this.in = in;
      this.constraints = constraints;
      this.description = description;
      this.required = required;
    }
  }

  /** One generated check: {@code Checks.method(value, args..., path, p)}. */
  static final class Check {
    final String method;
    final List<Object> args;
    final String regexp;
    final List<String> flags;

    Check(String method, List<Object> args, String regexp, List<String> flags) {
      this.method = method;
      this.args = args;
      this.regexp = regexp;
      this.flags = flags;
    }
  }

  /** The constraints of one site, as schema keywords and generated checks. */
  static final class Constraints {
    boolean required;
    boolean beanValidation;
    Integer minLength;
    Integer maxLength;
    Integer minItems;
    Integer maxItems;
    BigDecimal minimum;
    BigDecimal exclusiveMinimum;
    BigDecimal maximum;
    BigDecimal exclusiveMaximum;
    String pattern;
    String format;
    final List<Check> checks = new ArrayList<>();
  }

  /** A type without a JSON mapping. */
  static final class Unsupported extends Exception {
    Unsupported(String message) {
      super(message, null, false, false);
    }
  }

  static final String SUPPORTED = "Use String, a number, boolean, an enum, UUID, LocalDate,"
      + " Instant, OffsetDateTime, BigDecimal, BigInteger, a record, a List, Set or array of"
      + " these, or Optional of one.";

  private static final List<String> ORDER = List.of("NotNull", "NotBlank", "NotEmpty", "Size", "Min",
      "Max", "DecimalMin", "DecimalMax", "Positive", "PositiveOrZero", "Negative", "NegativeOrZero",
      "Pattern", "Email");

  private final Elements elements;
  private final Types types;
  private final Reporter reporter;
  private final Map<String, In> records = new HashMap<>();

  Inputs(Elements elements, Types types, Reporter reporter) {
    this.elements = elements;
    this.types = types;
    this.reporter = reporter;
  }

  /** The JSON shape of a type, reporting problems of nested record components. */
  In resolve(TypeMirror type, List<String> visiting) throws Unsupported {
    Scalar s = Scalar.of(type);
    if (s != null) {
      return new In(In.Kind.SCALAR, type, s, null, null, null);
    }
    if (type.getKind() == TypeKind.ARRAY) {
      TypeMirror component = ((ArrayType) type).getComponentType();
      if (component.getKind() == TypeKind.DECLARED
          && !((DeclaredType) component).getTypeArguments().isEmpty()) {
        throw new Unsupported("an array of a generic type cannot be created; use a List instead.");
      }
      In element = resolve(component, visiting);
      if (element.kind == In.Kind.OPTIONAL) {
        throw new Unsupported("Optional cannot be an array element.");
      }
      return new In(In.Kind.ARRAY, type, null, null, element, null);
    }
    if (type.getKind() != TypeKind.DECLARED) {
      throw new Unsupported("it has no JSON input mapping.");
    }
    DeclaredType d = (DeclaredType) type;
    TypeElement e = (TypeElement) d.asElement();
    String qn = e.getQualifiedName().toString();
    if (e.getKind() == ElementKind.ENUM) {
      return new In(In.Kind.ENUM, type, null, e, null, null);
    }
    boolean list = Scalar.LISTS.contains(qn);
    boolean set = Scalar.SET.equals(qn);
    boolean optional = Scalar.OPTIONAL.equals(qn);
    if (list || set || optional) {
      if (d.getTypeArguments().size() != 1) {
        throw new Unsupported("it is a raw " + e.getSimpleName() + "; give it a type argument.");
      }
      TypeMirror arg = d.getTypeArguments().get(0);
      if (arg.getKind() == TypeKind.WILDCARD) {
        arg = ((WildcardType) arg).getExtendsBound();
        if (arg == null) {
          throw new Unsupported("its element type is a wildcard; name the element type.");
        }
      }
      In element = resolve(arg, visiting);
      if (element.kind == In.Kind.OPTIONAL) {
        throw new Unsupported("Optional cannot be nested in a " + e.getSimpleName() + ".");
      }
      return new In(optional ? In.Kind.OPTIONAL : set ? In.Kind.SET : In.Kind.LIST, type, null, null,
          element, null);
    }
    if (e.getKind() == ElementKind.RECORD) {
      if (!e.getTypeParameters().isEmpty()) {
        throw new Unsupported("generic records are not supported as inputs.");
      }
      if (visiting.contains(qn)) {
        throw new Unsupported("the record " + e.getSimpleName() + " contains itself.");
      }
      In known = records.get(qn);
      if (known != null) {
        return known;
      }
      List<String> deeper = new ArrayList<>(visiting);
      deeper.add(qn);
      List<Site> components = new ArrayList<>();
      for (Props.Prop p : Props.ofRecord(e, types)) {
        if (p.has("Guarded")) {
          reporter.report(Diagnostic.GUARDED_RECORD_COMPONENT, p.anchor, p.name, Names.display(e));
        } else if (p.has("Hidden")) {
          reporter.report(Diagnostic.HIDDEN_INPUT, p.anchor, p.name, Names.display(e));
        }
        In in;
        try {
          in = resolve(p.type, deeper);
        } catch (Unsupported u) {
          throw new Unsupported("its component " + e.getSimpleName() + "." + p.name + " has type "
              + Views.display(p.type) + ": " + u.getMessage());
        }
        components.add(site(p.name, p.anchor, in, p.annotations(), description(p.sources, p.type),
            false, p.nullable()));
      }
      In r = new In(In.Kind.RECORD, type, null, e, null, components);
      records.put(qn, r);
      return r;
    }
    throw new Unsupported("it has no JSON input mapping.");
  }

  /** The description of a site: its own {@code @Describe}, else its record type's. */
  String description(List<? extends Element> sources, TypeMirror type) {
    AnnotationMirror d = Mirrors.findFirst(sources, Props.ANN + "Describe");
    if (d != null) {
      return Mirrors.string(elements, d, "value");
    }
    if (type.getKind() == TypeKind.DECLARED) {
      Element t = ((DeclaredType) type).asElement();
      AnnotationMirror td = Mirrors.find(t, Props.ANN + "Describe");
      if (td != null) {
        return Mirrors.string(elements, td, "value");
      }
      AnnotationMirror model = Mirrors.find(t, Props.ANN + "Model");
      if (model != null) {
        return Mirrors.string(elements, model, "description");
      }
    }
    return "";
  }

  /**
   * A site with its constraints read. {@code common} sites (router-wide fields) are required unless
   * nullable or {@code Optional}.
   */
  Site site(String name, Element anchor, In in, List<AnnotationMirror> annotations,
      String description, boolean common, boolean nullable) {
    Constraints c = constraints(name, anchor, in, annotations);
    // Constraints on type arguments (List<@NotBlank String>) have no generated check: Bean
    // Validation checks them at run time.
    c.beanValidation |= containerConstraint(in.mirror);
    boolean required = in.primitive() || c.required
        || (common && !nullable && in.kind != In.Kind.OPTIONAL);
    return new Site(name, anchor, in, c, description, required);
  }

  private Constraints constraints(String name, Element anchor, In in, List<AnnotationMirror> all) {
    Constraints c = new Constraints();
    In v = in.value();
    boolean text = v.kind == In.Kind.SCALAR && v.scalar == Scalar.STRING;
    boolean number = v.kind == In.Kind.SCALAR && v.scalar.isNumber();
    boolean items = v.collection();
    Map<String, AnnotationMirror> builtIn = new HashMap<>();
    for (AnnotationMirror m : all) {
      String qn = Mirrors.name(m);
      if (qn.startsWith(JAKARTA) && ORDER.contains(qn.substring(JAKARTA.length()))) {
        builtIn.put(qn.substring(JAKARTA.length()), m);
      } else if (isConstraint(m)) {
        c.beanValidation = true;
      }
    }
    for (String simple : ORDER) {
      AnnotationMirror m = builtIn.get(simple);
      if (m == null) {
        continue;
      }
      boolean applicable;
      switch (simple) {
        case "NotNull":
          applicable = true;
          c.required = true;
          break;
        case "NotBlank":
          applicable = text;
          c.required = true;
          c.minLength = max(c.minLength, 1);
          c.checks.add(new Check("notBlank", List.of(), null, null));
          break;
        case "NotEmpty":
          applicable = text || items;
          c.required = true;
          if (text) {
            c.minLength = max(c.minLength, 1);
          } else {
            c.minItems = max(c.minItems, 1);
          }
          c.checks.add(new Check("notEmpty", List.of(), null, null));
          break;
        case "Size": {
          applicable = text || items;
          int min = (int) Mirrors.number(elements, m, "min", 0);
          int max = (int) Mirrors.number(elements, m, "max", Integer.MAX_VALUE);
          if (text) {
            c.minLength = min > 0 ? max(c.minLength, min) : c.minLength;
            c.maxLength = max < Integer.MAX_VALUE ? min(c.maxLength, max) : c.maxLength;
          } else {
            c.minItems = min > 0 ? max(c.minItems, min) : c.minItems;
            c.maxItems = max < Integer.MAX_VALUE ? min(c.maxItems, max) : c.maxItems;
          }
          c.checks.add(new Check("size", List.of(min, max), null, null));
          break;
        }
        case "Min":
        case "Max": {
          applicable = number;
          long value = Mirrors.number(elements, m, "value", 0);
          if (simple.equals("Min")) {
            c.minimum = maxDecimal(c.minimum, BigDecimal.valueOf(value));
          } else {
            c.maximum = minDecimal(c.maximum, BigDecimal.valueOf(value));
          }
          c.checks.add(new Check(simple.equals("Min") ? "min" : "max", List.of(value), null, null));
          break;
        }
        case "DecimalMin":
        case "DecimalMax": {
          applicable = number;
          String value = Mirrors.string(elements, m, "value");
          boolean inclusive = Mirrors.bool(elements, m, "inclusive");
          BigDecimal d;
          try {
            d = new BigDecimal(value.trim());
          } catch (NumberFormatException e) {
            reporter.reportOn(Diagnostic.INVALID_CONSTRAINT, anchor, m,
                Mirrors.explicitValue(m, "value"), simple, name, value);
            continue;
          }
          boolean lower = simple.equals("DecimalMin");
          if (lower && inclusive) {
            c.minimum = maxDecimal(c.minimum, d);
          } else if (lower) {
            c.exclusiveMinimum = maxDecimal(c.exclusiveMinimum, d);
          } else if (inclusive) {
            c.maximum = minDecimal(c.maximum, d);
          } else {
            c.exclusiveMaximum = minDecimal(c.exclusiveMaximum, d);
          }
          c.checks.add(new Check(lower ? "decimalMin" : "decimalMax",
              List.of(value.trim(), inclusive), null, null));
          break;
        }
        case "Positive":
          applicable = number;
          c.exclusiveMinimum = maxDecimal(c.exclusiveMinimum, BigDecimal.ZERO);
          c.checks.add(new Check("positive", List.of(), null, null));
          break;
        case "PositiveOrZero":
          applicable = number;
          c.minimum = maxDecimal(c.minimum, BigDecimal.ZERO);
          c.checks.add(new Check("positiveOrZero", List.of(), null, null));
          break;
        case "Negative":
          applicable = number;
          c.exclusiveMaximum = minDecimal(c.exclusiveMaximum, BigDecimal.ZERO);
          c.checks.add(new Check("negative", List.of(), null, null));
          break;
        case "NegativeOrZero":
          applicable = number;
          c.maximum = minDecimal(c.maximum, BigDecimal.ZERO);
          c.checks.add(new Check("negativeOrZero", List.of(), null, null));
          break;
        case "Pattern": {
          applicable = text;
          String regexp = Mirrors.string(elements, m, "regexp");
          List<String> flags = new ArrayList<>();
          for (AnnotationValue f : Mirrors.list(elements, m, "flags")) {
            if (f.getValue() instanceof VariableElement) {
              flags.add(((VariableElement) f.getValue()).getSimpleName().toString());
            }
          }
          try {
            java.util.regex.Pattern.compile(regexp);
          } catch (PatternSyntaxException e) {
            reporter.reportOn(Diagnostic.INVALID_PATTERN, anchor, m,
                Mirrors.explicitValue(m, "regexp"), name, e.getDescription());
            continue;
          }
          String construct = flags.isEmpty() ? PatternPortability.javaOnly(regexp)
              : "flags " + flags;
          if (construct == null) {
            c.pattern = "^(?:" + regexp + ")$";
          } else if (applicable) {
            reporter.report(Diagnostic.PATTERN_NOT_PORTABLE, anchor, name, construct);
          }
          c.checks.add(new Check("pattern", List.of(), regexp, flags));
          break;
        }
        case "Email":
        default:
          applicable = text;
          c.format = "email";
          c.checks.add(new Check("email", List.of(), null, null));
          break;
      }
      if (!applicable) {
        reporter.reportOn(Diagnostic.CONSTRAINT_NOT_APPLICABLE, anchor, m, null, simple, name,
            Views.display(in.mirror));
      }
    }
    return c;
  }

  private static boolean isConstraint(AnnotationMirror m) {
    String qn = Mirrors.name(m);
    return qn.startsWith(JAKARTA) || qn.equals("jakarta.validation.Valid")
        || Mirrors.find(m.getAnnotationType().asElement(), "jakarta.validation.Constraint") != null;
  }

  private static boolean containerConstraint(TypeMirror type) {
    List<TypeMirror> inner = new ArrayList<>();
    if (type.getKind() == TypeKind.DECLARED) {
      inner.addAll(((DeclaredType) type).getTypeArguments());
    } else if (type.getKind() == TypeKind.ARRAY) {
      inner.add(((ArrayType) type).getComponentType());
    }
    for (TypeMirror t : inner) {
      for (AnnotationMirror m : t.getAnnotationMirrors()) {
        if (isConstraint(m)) {
          return true;
        }
      }
      if (containerConstraint(t)) {
        return true;
      }
    }
    return false;
  }

  private static Integer max(Integer a, int b) {
    return a == null ? b : Math.max(a, b);
  }

  private static Integer min(Integer a, int b) {
    return a == null ? b : Math.min(a, b);
  }

  private static BigDecimal maxDecimal(BigDecimal a, BigDecimal b) {
    return a == null || b.compareTo(a) > 0 ? b : a;
  }

  private static BigDecimal minDecimal(BigDecimal a, BigDecimal b) {
    return a == null || b.compareTo(a) < 0 ? b : a;
  }

  // ---------------------------------------------------------------- schema

  /** The complete JSON Schema of a site, description included. */
  static Map<String, Object> schema(Site site) {
    Map<String, Object> s = typeSchema(site.in.value());
    Constraints c = site.constraints;
    putIfSet(s, "minLength", c.minLength);
    putIfSet(s, "maxLength", c.maxLength);
    putIfSet(s, "pattern", c.pattern);
    if (c.format != null && !s.containsKey("format")) {
      s.put("format", c.format);
    }
    putIfSet(s, "minimum", c.minimum);
    putIfSet(s, "exclusiveMinimum", c.exclusiveMinimum);
    putIfSet(s, "maximum", c.maximum);
    putIfSet(s, "exclusiveMaximum", c.exclusiveMaximum);
    putIfSet(s, "minItems", c.minItems);
    putIfSet(s, "maxItems", c.maxItems);
    if (!site.description.isEmpty()) {
      s.put("description", site.description);
    }
    return s;
  }

  private static void putIfSet(Map<String, Object> s, String key, Object value) {
    if (value != null) {
      s.put(key, value);
    }
  }

  static Map<String, Object> typeSchema(In in) {
    Map<String, Object> s = new LinkedHashMap<>();
    switch (in.kind) {
      case SCALAR:
        s.put("type", in.scalar.jsonType);
        if (in.scalar.format != null) {
          s.put("format", in.scalar.format);
        }
        break;
      case ENUM:
        s.put("type", "string");
        s.put("enum", Views.enumConstants(in.type));
        break;
      case LIST:
      case SET:
      case ARRAY:
        s.put("type", "array");
        s.put("items", typeSchema(in.element.value()));
        break;
      case RECORD: {
        s.put("type", "object");
        Map<String, Object> properties = new LinkedHashMap<>();
        List<String> required = new ArrayList<>();
        for (Site c : in.components) {
          properties.put(c.name, schema(c));
          if (c.required) {
            required.add(c.name);
          }
        }
        s.put("properties", properties);
        if (!required.isEmpty()) {
          s.put("required", required);
        }
        s.put("additionalProperties", Boolean.FALSE);
        break;
      }
      case OPTIONAL:
      default:
        return typeSchema(in.element);
    }
    return s;
  }

  /** Whether the site or anything nested in it needs Bean Validation at run time. */
  static boolean beanValidation(Site site, Set<String> seen) {
    if (site.constraints.beanValidation) {
      return true;
    }
    In in = site.in;
    while (in.element != null) {
      in = in.element;
    }
    if (in.kind == In.Kind.RECORD && seen.add(in.type.getQualifiedName().toString())) {
      for (Site c : in.components) {
        if (beanValidation(c, seen)) {
          return true;
        }
      }
    }
    return false;
  }
}
