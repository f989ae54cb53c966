package dev.mcpfusion.maven;

import dev.mcpfusion.maven.ApiModel.EnumType;
import dev.mcpfusion.maven.ApiModel.JType;
import dev.mcpfusion.maven.ApiModel.JType.Kind;
import dev.mcpfusion.maven.ApiModel.Model;
import dev.mcpfusion.maven.ApiModel.Operation;
import dev.mcpfusion.maven.ApiModel.Prop;
import dev.mcpfusion.maven.ApiModel.Unsupported;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Schema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads a parsed OpenAPI document into an {@link ApiModel}: component schemas become records
 * (inline objects too, named after their owner), string enums Java enums, operations actions.
 * What cannot be mapped is recorded with its JSON pointer instead of being guessed at.
 */
final class OpenApiReader {
  /** Property names (lower case, without {@code _-.}) that mark a secret: the property is {@code @Hidden}. */
  static final List<String> SECRET_WORDS = List.of("password", "passwd", "passphrase", "secret", "token",
      "apikey", "accesskey", "privatekey", "credential");
  private static final Set<String> RESERVED = Set.of("String", "Integer", "Long", "Double", "Boolean",
      "List", "Map", "Object", "Override", "Nullable", "ProxyUpstreams", "Model", "Presenter",
      "Describe", "Hidden", "Fillable", "Input", "Query", "Mutation", "Router", "NotNull", "Size",
      "Pattern", "Min", "Max", "DecimalMin", "DecimalMax", "Email", "Generated", "Record", "Enum");

  private final OpenAPI api;
  private final OpenApiConfig config;
  private final Map<String, Model> models = new TreeMap<>();
  private final Map<String, String> componentNames = new TreeMap<>();
  private final Map<String, EnumType> enums = new TreeMap<>();
  private final Map<List<String>, String> enumByValues = new LinkedHashMap<>();
  private final Set<String> typeNames = new HashSet<>();
  private final List<Unsupported> unsupported = new ArrayList<>();
  private final Set<String> hiddenUsed = new HashSet<>();

  OpenApiReader(OpenAPI api, OpenApiConfig config) {
    this.api = api;
    this.config = config;
    typeNames.add(config.routerClass());
  }

  /** The model of the document; throws {@link IllegalArgumentException} for configuration naming nothing. */
  ApiModel read() {
    Map<String, Schema> schemas = api.getComponents() == null || api.getComponents().getSchemas() == null
        ? Map.of() : new TreeMap<>(api.getComponents().getSchemas());
    for (Map.Entry<String, Schema> e : schemas.entrySet()) {
      // An object's record takes its name now; an enum component takes it when first referred to.
      String name = JavaText.pascal(e.getKey());
      componentNames.put(e.getKey(), hasProperties(e.getValue()) ? unique(name) : name);
    }
    for (Map.Entry<String, Schema> e : schemas.entrySet()) {
      Schema<?> s = e.getValue();
      if (hasProperties(s)) {
        model(componentNames.get(e.getKey()), s, "#/components/schemas/" + pointer(e.getKey()));
      }
    }
    List<Operation> operations = new ArrayList<>();
    Set<String> seenIds = new HashSet<>();
    Set<String> methods = new HashSet<>();
    Map<String, PathItem> paths = api.getPaths() == null ? Map.of() : new TreeMap<>(api.getPaths());
    for (Map.Entry<String, PathItem> p : paths.entrySet()) {
      for (Map.Entry<PathItem.HttpMethod, io.swagger.v3.oas.models.Operation> o
          : p.getValue().readOperationsMap().entrySet()) {
        String method = o.getKey().name();
        String id = o.getValue().getOperationId() != null ? o.getValue().getOperationId()
            : method.toLowerCase(Locale.ROOT) + " " + p.getKey();
        seenIds.add(id);
        if (config.excludeOperations().contains(id)) {
          continue;
        }
        String where = "#/paths/" + pointer(p.getKey()) + "/" + method.toLowerCase(Locale.ROOT);
        try {
          operations.add(new OperationReader(this, api, models).operation(id, method, p.getKey(), p.getValue(),
              o.getValue(), where, methods));
        } catch (Skip skip) {
          unsupported.add(new Unsupported(skip.pointer, "operation " + id + ": " + skip.what,
              skip.fix + ", or leave the operation out with <excludeOperations><excludeOperation>" + id
                  + "</excludeOperation></excludeOperations>"));
        }
      }
    }
    for (String excluded : config.excludeOperations()) {
      if (!seenIds.contains(excluded)) {
        throw new IllegalArgumentException("excludeOperations names \"" + excluded + "\", which is no"
            + " operationId of the document" + Suggest.didYouMean(excluded, seenIds) + ".");
      }
    }
    for (String hidden : config.hiddenFields()) {
      if (!hiddenUsed.contains(hidden)) {
        throw new IllegalArgumentException("hiddenFields names \"" + hidden + "\", which is no property of"
            + " the document's schemas (write Schema.property or property)"
            + Suggest.didYouMean(hidden, propertyNames()) + ".");
      }
    }
    breakCycles();
    operations.sort((a, b) -> a.javaName().compareTo(b.javaName()));
    unsupported.sort((a, b) -> a.pointer().compareTo(b.pointer()));
    String server = api.getServers() == null || api.getServers().isEmpty() ? "" : api.getServers().get(0).getUrl();
    return new ApiModel(api.getInfo() == null ? "" : nonNull(api.getInfo().getTitle()),
        api.getInfo() == null ? "" : nonNull(api.getInfo().getDescription()), server,
        List.copyOf(models.values()), List.copyOf(enums.values()), operations, List.copyOf(unsupported));
  }

  // ------------------------------------------------------------------ schemas

  private String model(String name, Schema<?> s, String where) {
    if (models.containsKey(name)) {
      return name;
    }
    models.put(name, null); // reserved while its properties are read (a property may refer back)
    Set<String> required = s.getRequired() == null ? Set.of() : new HashSet<>(s.getRequired());
    List<Prop> props = new ArrayList<>();
    Map<String, Schema> properties = s.getProperties();
    for (Map.Entry<String, Schema> e : properties.entrySet()) {
      String key = e.getKey();
      String at = where + "/properties/" + pointer(key);
      if (!JavaText.isIdentifier(key)) {
        unsupported.add(new Unsupported(at, "property \"" + key + "\" of " + name + " is not a Java"
            + " identifier, and a view reads the upstream's JSON by component name",
            "rename it in the document or leave it unmapped (it is left out of " + name + ")"));
        continue;
      }
      Schema<?> ps = e.getValue();
      try {
        JType t = type(ps, at, name + JavaText.pascal(key));
        String why = hiddenWhy(name, key, ps);
        props.add(new Prop(key, t, description(ps), required.contains(key), why != null, why,
            Boolean.TRUE.equals(ps.getReadOnly()), SchemaConstraints.of(ps, t, required.contains(key))));
      } catch (Skip skip) {
        unsupported.add(new Unsupported(skip.pointer, "property " + name + "." + key + ": " + skip.what,
            skip.fix + " (the property is left out of " + name + ")"));
      }
    }
    models.put(name, new Model(name, description(s), where, props));
    return name;
  }

  private String hiddenWhy(String model, String key, Schema<?> s) {
    String configured = null;
    for (String h : config.hiddenFields()) {
      if (h.equals(key) || h.equals(model + "." + key)) {
        hiddenUsed.add(h);
        configured = "excluded by configuration";
      }
    }
    if (configured != null) {
      return configured;
    }
    if (Boolean.TRUE.equals(s.getWriteOnly())) {
      return "write-only";
    }
    return secretLike(key) ? "secret-like name" : null;
  }

  static boolean secretLike(String name) {
    String n = name.toLowerCase(Locale.ROOT).replaceAll("[_.\\-]", "");
    return SECRET_WORDS.stream().anyMatch(n::contains);
  }

  /** The Java type of {@code s}; {@code inline} names an object or enum declared in place. */
  JType type(Schema<?> s, String where, String inline) {
    if (s.get$ref() != null) {
      return ref(s.get$ref(), where);
    }
    if (notEmpty(s.getAllOf()) || notEmpty(s.getOneOf()) || notEmpty(s.getAnyOf())) {
      throw new Skip(where, "a composed schema (allOf, oneOf or anyOf)",
          "give it one object schema with its properties");
    }
    String t = typeOf(s);
    if (t == null && hasProperties(s)) {
      t = "object";
    }
    if (t == null) {
      throw new Skip(where, "a schema without a type", "give it a type");
    }
    switch (t) {
      case "string":
        if ("binary".equals(s.getFormat()) || "byte".equals(s.getFormat())) {
          throw new Skip(where, "binary content (format " + s.getFormat() + ")",
              "an agent sends and reads text; serve files through a resource");
        }
        return notEmpty(s.getEnum()) ? enumType(inline, s) : JType.of(Kind.STRING);
      case "integer":
        return JType.of("int32".equals(s.getFormat()) ? Kind.INTEGER : Kind.LONG);
      case "number":
        return JType.of(Kind.DOUBLE);
      case "boolean":
        return JType.of(Kind.BOOLEAN);
      case "array":
        if (s.getItems() == null) {
          throw new Skip(where, "an array without items", "give it an items schema");
        }
        JType element = type(s.getItems(), where + "/items", inline + "Item");
        if (element.kind() == Kind.LIST) {
          throw new Skip(where, "an array of arrays", "wrap the inner array in an object");
        }
        return new JType(Kind.LIST, null, element);
      case "object":
        if (!hasProperties(s)) {
          throw new Skip(where, "a free-form object (no properties)",
              "declare its properties, so that a view can allow-list them");
        }
        return new JType(Kind.MODEL, model(unique(inline), s, where), null);
      default:
        throw new Skip(where, "a schema of type " + t, "give it a JSON type");
    }
  }

  private JType ref(String ref, String where) {
    String prefix = "#/components/schemas/";
    if (!ref.startsWith(prefix)) {
      throw new Skip(where, "a reference outside the document's schemas (" + ref + ")",
          "bundle the document into one file");
    }
    String key = ref.substring(prefix.length());
    Schema<?> target = api.getComponents().getSchemas().get(key);
    if (target == null) {
      throw new Skip(where, "a reference to a missing schema " + ref, "declare the schema");
    }
    if (hasProperties(target)) {
      return new JType(Kind.MODEL, componentNames.get(key), null);
    }
    return type(target, prefix + pointer(key), componentNames.get(key));
  }

  private JType enumType(String name, Schema<?> s) {
    List<String> values = new ArrayList<>();
    for (Object v : s.getEnum()) {
      if (v == null || !JavaText.isIdentifier(v.toString())) {
        return JType.of(Kind.STRING); // checked by Constraints as a pattern of the values instead
      }
      values.add(v.toString());
    }
    String known = enumByValues.get(values);
    if (known == null) {
      known = unique(name);
      enumByValues.put(values, known);
      enums.put(known, new EnumType(known, description(s), List.copyOf(values)));
    }
    return new JType(Kind.ENUM, known, null);
  }

  // ------------------------------------------------------------------ cycles

  /** A property that leads back to its own record is dropped: neither a view nor an input can nest it. */
  private void breakCycles() {
    for (String name : List.copyOf(models.keySet())) {
      Model m = models.get(name);
      List<Prop> kept = new ArrayList<>();
      for (Prop p : m.props()) {
        String target = modelOf(p.type());
        if (target != null && reaches(target, name, new HashSet<>())) {
          unsupported.add(new Unsupported(m.pointer() + "/properties/" + pointer(p.java()),
              "property " + name + "." + p.java() + " refers back to " + name + " (a cycle)",
              "an agent reads a tree; return the referred object by id (the property is left out of "
                  + name + ")"));
        } else {
          kept.add(p);
        }
      }
      models.put(name, new Model(m.name(), m.description(), m.pointer(), List.copyOf(kept)));
    }
  }

  private boolean reaches(String from, String target, Set<String> seen) {
    if (from.equals(target)) {
      return true;
    }
    if (!seen.add(from) || models.get(from) == null) {
      return false;
    }
    for (Prop p : models.get(from).props()) {
      String next = modelOf(p.type());
      if (next != null && reaches(next, target, seen)) {
        return true;
      }
    }
    return false;
  }

  static String modelOf(JType t) {
    return t.kind() == Kind.MODEL ? t.name() : t.kind() == Kind.LIST ? modelOf(t.element()) : null;
  }

  // ------------------------------------------------------------------ helpers

  private static String typeOf(Schema<?> s) {
    if (s.getType() != null) {
      return s.getType();
    }
    if (s.getTypes() != null) {
      List<String> types = s.getTypes().stream().filter(t -> !t.equals("null")).sorted().toList();
      return types.size() == 1 ? types.get(0) : null;
    }
    return null;
  }

  private static boolean hasProperties(Schema<?> s) {
    return s.getProperties() != null && !s.getProperties().isEmpty();
  }

  private static boolean notEmpty(List<?> list) {
    return list != null && !list.isEmpty();
  }

  private static String description(Schema<?> s) {
    return description(s.getDescription() != null ? s.getDescription() : s.getTitle());
  }

  static String description(String text) {
    return JavaText.oneLine(text);
  }

  private static String nonNull(String s) {
    return s == null ? "" : s;
  }

  /** A JSON pointer token: {@code ~} as {@code ~0}, {@code /} as {@code ~1}. */
  static String pointer(String token) {
    return token.replace("~", "~0").replace("/", "~1");
  }

  private String unique(String name) {
    String n = RESERVED.contains(name) ? name + "Schema" : name;
    String candidate = n;
    for (int i = 2; !typeNames.add(candidate); i++) {
      candidate = n + i;
    }
    return candidate;
  }

  static String uniqueIn(Set<String> names, String name) {
    String candidate = name;
    for (int i = 2; !names.add(candidate); i++) {
      candidate = name + i;
    }
    return candidate;
  }

  private Set<String> propertyNames() {
    Set<String> names = new HashSet<>();
    for (Model m : models.values()) {
      for (Prop p : m.props()) {
        names.add(p.java());
        names.add(m.name() + "." + p.java());
      }
    }
    return names;
  }

  /** A construct that cannot be mapped, thrown from deep inside a type to the property or operation that owns it. */
  static final class Skip extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final String pointer;
    final String what;
    final String fix;

    Skip(String pointer, String what, String fix) {
      super(what, null, false, false);
      this.pointer = pointer;
      this.what = what;
      this.fix = fix;
    }
  }
}
