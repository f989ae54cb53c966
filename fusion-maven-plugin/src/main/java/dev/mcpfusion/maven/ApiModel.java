package dev.mcpfusion.maven;

import java.util.List;
import java.util.Map;

/**
 * What the generator reads from an OpenAPI document, already named for Java and sorted: the
 * records, enums and operations to write, and what it could not map (with the JSON pointer).
 */
record ApiModel(String title, String description, String server, List<Model> models,
    List<EnumType> enums, List<Operation> operations, List<Unsupported> unsupported) {

  /** A Java type of a property, parameter or result. */
  record JType(Kind kind, String name, JType element) {
    enum Kind { STRING, INTEGER, LONG, DOUBLE, BOOLEAN, ENUM, MODEL, LIST }

    static JType of(Kind kind) {
      return new JType(kind, null, null);
    }

    /** The Java source spelling; {@code view} spells a model as its view. */
    String java(boolean view) {
      return switch (kind) {
        case STRING -> "String";
        case INTEGER -> "Integer";
        case LONG -> "Long";
        case DOUBLE -> "Double";
        case BOOLEAN -> "Boolean";
        case ENUM -> name;
        case MODEL -> view ? name + "View" : name;
        case LIST -> "List<" + element.java(view) + ">";
      };
    }
  }

  /**
   * Schema constraints as jakarta annotations (source text, e.g. {@code @Size(max = 64)}), in a
   * fixed order.
   */
  record Constraints(List<String> annotations) {}

  /**
   * A record component: {@code json} is the document's name (equal to {@code java}, since the
   * view reads the upstream's JSON by component name); {@code hidden} is write-only, secret-like
   * or configured; {@code readOnly} is never filled.
   */
  record Prop(String java, JType type, String description, boolean required, boolean hidden,
      String hiddenWhy, boolean readOnly, Constraints constraints) {}

  /** A {@code @Model} record and, when it has readable properties, its view. */
  record Model(String name, String description, String pointer, List<Prop> props) {
    boolean presentable() {
      return props.stream().anyMatch(p -> !p.hidden());
    }
  }

  /**
   * Whether an agent may fill {@code p} in a request body: not hidden, not read-only, and any
   * record it holds nests cleanly (a nested record is decoded whole, so it may hide nothing).
   */
  static boolean fillable(Prop p, Map<String, Model> models) {
    String nested = OpenApiReader.modelOf(p.type());
    return !p.hidden() && !p.readOnly() && (nested == null || nestable(nested, models, new java.util.HashSet<>()));
  }

  /** Whether any property of {@code model} is {@link #fillable}. */
  static boolean anyFillable(Model model, Map<String, Model> models) {
    return model.props().stream().anyMatch(p -> fillable(p, models));
  }

  private static boolean nestable(String name, Map<String, Model> models, java.util.Set<String> seen) {
    Model m = models.get(name);
    if (m == null || !seen.add(name)) {
      return m != null;
    }
    for (Prop p : m.props()) {
      String nested = OpenApiReader.modelOf(p.type());
      if (p.hidden() || (nested != null && !nestable(nested, models, seen))) {
        return false;
      }
    }
    return true;
  }

  /** Whether a view may show {@code p}: not hidden, and any record it holds has a view. */
  static boolean viewable(Prop p, Map<String, Model> models) {
    String nested = OpenApiReader.modelOf(p.type());
    return !p.hidden() && (nested == null || (models.get(nested) != null && models.get(nested).presentable()));
  }

  /** A Java enum whose constants are the document's values as they are. */
  record EnumType(String name, String description, List<String> values) {}

  /** An input of an action: a path, query or header parameter. */
  record Param(String wire, String java, String in, JType type, String description, boolean required,
      Constraints constraints) {}

  /** The request body: a model filled through a profile. */
  record Body(String java, String model, String profile, String description) {}

  /**
   * What an action answers: {@code VOID}; {@code VALUE} (a scalar); {@code SINGLE} or
   * {@code LIST} of {@code model}, presented by its view.
   */
  record Result(String shape, JType type) {}

  /** One action: the operation's method, path template, inputs, body, result and documented errors. */
  record Operation(String operationId, String method, String javaName, String path, String description,
      String pointer, List<Param> params, Body body, Result result, Map<Integer, String> documented) {
    boolean query() {
      return method.equals("GET");
    }

    boolean idempotent() {
      return !method.equals("POST") && !method.equals("PATCH");
    }
  }

  /** A construct the generator does not map: where it is, what it is, and how to get past it. */
  record Unsupported(String pointer, String what, String fix) {}
}
