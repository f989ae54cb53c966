package dev.mcpfusion.processor;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;
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
  private static final List<String> MARKERS = List.of("Guarded", "Hidden", "McpHeader");

  /** The JSON shape of an input type. */
  static class In {
    enum Kind { SCALAR, ENUM, RECORD, LIST, SET, ARRAY, OPTIONAL }

    final Kind kind;
    final TypeMirror mirror;
    final Scalar scalar;
    final TypeElement type;
    final In element;
    final List<Site> components;
    /** A record's components marked {@code @Guarded}, {@code @Hidden}, {@code @McpHeader}: name → marker. */
    final Map<String, String> markers;

    In(Kind kind, TypeMirror mirror, Scalar scalar, TypeElement type, In element, List<Site> components) {
      this(kind, mirror, scalar, type, element, components, Map.of());
    }

    In(Kind kind, TypeMirror mirror, Scalar scalar, TypeElement type, In element,
        List<Site> components, Map<String, String> markers) {
      this.kind = kind;
      this.mirror = mirror;
      this.scalar = scalar;
      this.type = type;
      this.element = element;
      this.components = components;
      this.markers = markers;
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
    /** The constraint's own {@code message}, interpolated; {@code null} for our catalogue's. */
    String message;

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
    /** The own {@code message} of the constraint that makes the value required, or {@code null}. */
    String requiredMessage;
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
    /** The {@code x-mcp-header} a top-level argument is mirrored in ({@link HeaderMarks}). */
    String header;
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


  private final Elements elements;
  private final Types types;
  private final Reporter reporter;
  private final Map<String, In> records = new HashMap<>();
  private final ConstraintReader constraintReader;

  Inputs(Elements elements, Types types, Reporter reporter) {
    this.elements = elements;
    this.types = types;
    this.reporter = reporter;
    this.constraintReader = new ConstraintReader(elements, reporter);
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
      Map<String, String> markers = new LinkedHashMap<>();
      for (Props.Prop p : Props.ofRecord(e, types)) {
        MARKERS.stream().filter(p::has).findFirst().ifPresent(m -> markers.put(p.name, "@" + m));
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
      In r = new In(In.Kind.RECORD, type, null, e, null, components, Map.copyOf(markers));
      records.put(qn, r);
      return r;
    }
    throw new Unsupported("it has no JSON input mapping.");
  }

  /**
   * Reports every {@code @Guarded}, {@code @Hidden} or {@code @McpHeader} component of the input
   * records reachable from {@code in} on {@code anchor}, the parameter (or annotation) that makes
   * them tool input: a record may come from a library jar, where a component has no file or line.
   * {@code where} names the action, {@code path} the input. Returns whether there was none.
   */
  boolean reportMarked(In in, String path, Element anchor, AnnotationMirror mirror,
      AnnotationValue value, String where) {
    boolean clean = true;
    switch (in.kind) {
      case RECORD:
        for (Site s : in.components) {
          String marker = in.markers.get(s.name);
          if (marker != null) {
            clean = false;
            Diagnostic d = marker.equals("@Guarded") ? Diagnostic.GUARDED_RECORD_COMPONENT
                : marker.equals("@Hidden") ? Diagnostic.HIDDEN_INPUT : Diagnostic.MCP_HEADER_NESTED;
            reporter.reportOn(d, anchor, mirror, value, s.name, Names.display(in.type), where,
                path);
          } else {
            clean &= reportMarked(s.in, path + "." + s.name, anchor, mirror, value, where);
          }
        }
        return clean;
      case LIST:
      case SET:
      case ARRAY:
        return reportMarked(in.element, path + "[]", anchor, mirror, value, where);
      case OPTIONAL:
        return reportMarked(in.element, path, anchor, mirror, value, where);
      default:
        return true;
    }
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
    Constraints c = constraintReader.read(name, anchor, in, annotations);
    // Constraints on type arguments (List<@NotBlank String>) have no generated check: Bean
    // Validation checks them at run time.
    c.beanValidation |= ConstraintReader.containerConstraint(in.mirror);
    boolean required = in.primitive() || c.required
        || (common && !nullable && in.kind != In.Kind.OPTIONAL);
    return new Site(name, anchor, in, c, description, required);
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
    putIfSet(s, "x-mcp-header", c.header);
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
