package dev.mcpfusion.core.elicit;

import dev.mcpfusion.core.FusionError;

import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.LegacyEnumNames;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.lang.annotation.Annotation;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Elicitation forms: the restricted JSON schema MCP allows for {@code elicitation/create} (a flat
 * object of strings, numbers, booleans and enums) made from a record, and the client's answer read
 * back into that record — checked against the form first, so a handler never sees values the form
 * does not allow. A form class is analysed once.
 *
 * <p>Framework-internal ({@link dev.mcpfusion.core.RequestContext#elicit} is the user's entry
 * point); reading an answer back is {@code FormAnswers}.
 */
public final class Forms {
  private static final ClassValue<Form> FORMS = new ClassValue<>() {
    @Override
    protected Form computeValue(Class<?> type) {
      return Form.of(type);
    }
  };

  private Forms() {}

  /** The analysed form {@code type}; fails with the fix when it cannot be a form. */
  public static Form of(Class<?> type) {
    return FORMS.get(type);
  }

  enum Kind { STRING, INTEGER, NUMBER, BOOLEAN, ENUM, ENUM_SET }

  /** One field of a form: a record component. */
  record Field(String name, Kind kind, Class<?> type, Class<? extends Enum<?>> enumType,
      boolean required, boolean collectionIsSet, Map<String, Object> schema) {}

  /** A record as an elicitation form. */
  public static final class Form {
    final Class<?> type;
    final List<Field> fields;
    final Constructor<?> constructor;

    private Form(Class<?> type, List<Field> fields, Constructor<?> constructor) {
      this.type = type;
      this.fields = fields;
      this.constructor = constructor;
    }

    static Form of(Class<?> type) {
      if (!type.isRecord()) {
        throw new IllegalArgumentException("An elicitation form must be a record; " + type.getName()
            + " is not. Declare it as record " + type.getSimpleName() + "(String name, ...).");
      }
      List<Field> fields = new ArrayList<>();
      RecordComponent[] components = type.getRecordComponents();
      for (RecordComponent c : components) {
        fields.add(field(type, c));
      }
      Class<?>[] types = Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
      try {
        Constructor<?> constructor = type.getDeclaredConstructor(types);
        constructor.setAccessible(true);
        return new Form(type, List.copyOf(fields), constructor);
      } catch (NoSuchMethodException | RuntimeException e) {
        throw new IllegalArgumentException("The elicitation form " + type.getName()
            + " cannot be constructed (" + e.getClass().getSimpleName() + "); make the record public"
            + " or open its package to dev.mcpfusion.core.");
      }
    }

    @SuppressWarnings("unchecked")
    private static Field field(Class<?> form, RecordComponent c) {
      Class<?> raw = c.getType();
      Map<String, Object> schema = new LinkedHashMap<>();
      Kind kind;
      Class<? extends Enum<?>> enumType = null;
      boolean set = false;
      if (raw == String.class) {
        kind = Kind.STRING;
        schema.put("type", "string");
      } else if (raw == int.class || raw == Integer.class || raw == long.class || raw == Long.class
          || raw == short.class || raw == Short.class) {
        kind = Kind.INTEGER;
        schema.put("type", "integer");
      } else if (raw == double.class || raw == Double.class || raw == float.class || raw == Float.class
          || raw == BigDecimal.class) {
        kind = Kind.NUMBER;
        schema.put("type", "number");
      } else if (raw == boolean.class || raw == Boolean.class) {
        kind = Kind.BOOLEAN;
        schema.put("type", "boolean");
      } else if (raw.isEnum()) {
        kind = Kind.ENUM;
        enumType = (Class<? extends Enum<?>>) raw;
        schema.put("type", "string");
      } else if ((raw == List.class || raw == Set.class)
          && c.getGenericType() instanceof ParameterizedType p
          && p.getActualTypeArguments()[0] instanceof Class<?> item && item.isEnum()) {
        kind = Kind.ENUM_SET;
        enumType = (Class<? extends Enum<?>>) item;
        set = raw == Set.class;
        schema.put("type", "array");
      } else {
        throw new IllegalArgumentException("The elicitation form " + form.getSimpleName() + " has the"
            + " field '" + c.getName() + "' of type " + c.getGenericType().getTypeName() + ", which"
            + " a form cannot ask for. Use String, int, long, double, boolean, BigDecimal, an enum,"
            + " or a List or Set of an enum (MCP forms are flat).");
      }
      Describe describe = find(c, Describe.class);
      if (describe != null) {
        schema.put("description", describe.value());
      }
      Size size = find(c, Size.class);
      Min min = find(c, Min.class);
      Max max = find(c, Max.class);
      if (kind == Kind.STRING && size != null) {
        if (size.min() > 0) {
          schema.put("minLength", size.min());
        }
        if (size.max() < Integer.MAX_VALUE) {
          schema.put("maxLength", size.max());
        }
      }
      if ((kind == Kind.INTEGER || kind == Kind.NUMBER)) {
        if (min != null) {
          schema.put("minimum", min.value());
        }
        if (max != null) {
          schema.put("maximum", max.value());
        }
      }
      if (kind == Kind.ENUM) {
        enumSchema(enumType, find(c, LegacyEnumNames.class) != null, "oneOf", schema);
      }
      if (kind == Kind.ENUM_SET) {
        if (size != null && size.min() > 0) {
          schema.put("minItems", size.min());
        }
        if (size != null && size.max() < Integer.MAX_VALUE) {
          schema.put("maxItems", size.max());
        }
        Map<String, Object> items = new LinkedHashMap<>();
        if (titled(enumType)) {
          items.put("anyOf", titles(enumType));
        } else {
          items.put("type", "string");
          items.put("enum", names(enumType));
        }
        schema.put("items", items);
      }
      boolean required = raw.isPrimitive() || find(c, NotNull.class) != null
          || find(c, NotBlank.class) != null || find(c, NotEmpty.class) != null;
      return new Field(c.getName(), kind, raw, enumType, required, set, schema);
    }

    private static void enumSchema(Class<? extends Enum<?>> type, boolean legacy, String key,
        Map<String, Object> schema) {
      if (!titled(type)) {
        schema.put("enum", names(type));
      } else if (legacy) {
        schema.put("enum", names(type));
        List<String> titles = new ArrayList<>();
        for (Map<String, Object> t : titles(type)) {
          titles.add((String) t.get("title"));
        }
        schema.put("enumNames", titles);
      } else {
        schema.put(key, titles(type));
      }
    }

    /** Whether any constant of {@code type} has a title ({@code @Describe}). */
    private static boolean titled(Class<? extends Enum<?>> type) {
      for (Enum<?> constant : type.getEnumConstants()) {
        if (title(constant) != null) {
          return true;
        }
      }
      return false;
    }

    private static String title(Enum<?> constant) {
      try {
        Describe d = constant.getDeclaringClass().getField(constant.name()).getAnnotation(Describe.class);
        return d == null ? null : d.value();
      } catch (NoSuchFieldException e) {
        return null;
      }
    }

    private static List<Map<String, Object>> titles(Class<? extends Enum<?>> type) {
      List<Map<String, Object>> out = new ArrayList<>();
      for (Enum<?> constant : type.getEnumConstants()) {
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("const", constant.name());
        String title = title(constant);
        option.put("title", title == null ? constant.name() : title);
        out.add(option);
      }
      return out;
    }

    private static List<String> names(Class<? extends Enum<?>> type) {
      List<String> names = new ArrayList<>();
      for (Enum<?> constant : type.getEnumConstants()) {
        names.add(constant.name());
      }
      return names;
    }

    private static <A extends Annotation> A find(RecordComponent c, Class<A> annotation) {
      A found = c.getAnnotation(annotation);
      if (found == null) {
        found = c.getAccessor().getAnnotation(annotation);
      }
      if (found == null) {
        try {
          found = c.getDeclaringRecord().getDeclaredField(c.getName()).getAnnotation(annotation);
        } catch (NoSuchFieldException e) {
          found = null;
        }
      }
      return found;
    }

    /**
     * The {@code requestedSchema}: {@code defaults} (a form instance, or {@code null}) gives each
     * field whose value is not {@code null} its {@code default}.
     */
    public Map<String, Object> schema(Object defaults) {
      Map<String, Object> properties = new LinkedHashMap<>();
      List<String> required = new ArrayList<>();
      RecordComponent[] components = type.getRecordComponents();
      for (int i = 0; i < fields.size(); i++) {
        Field f = fields.get(i);
        Map<String, Object> property = new LinkedHashMap<>(f.schema());
        if (defaults != null) {
          Object value = value(components[i], defaults);
          if (value != null) {
            property.put("default", wire(value));
          }
        }
        properties.put(f.name(), property);
        if (f.required()) {
          required.add(f.name());
        }
      }
      Map<String, Object> schema = new LinkedHashMap<>();
      schema.put("type", "object");
      schema.put("properties", properties);
      schema.put("required", required);
      return schema;
    }

    private static Object value(RecordComponent c, Object instance) {
      try {
        c.getAccessor().setAccessible(true);
        return c.getAccessor().invoke(instance);
      } catch (IllegalAccessException | InvocationTargetException | RuntimeException e) {
        throw new IllegalArgumentException("Could not read the default of '" + c.getName() + "' from "
            + instance.getClass().getSimpleName() + ": " + e);
      }
    }

    private static Object wire(Object value) {
      if (value instanceof Enum<?> e) {
        return e.name();
      }
      if (value instanceof Collection<?> values) {
        List<Object> out = new ArrayList<>();
        for (Object v : values) {
          out.add(wire(v));
        }
        return out;
      }
      if (value instanceof Float f) {
        return f.doubleValue();
      }
      return value;
    }

    /**
     * The client's {@code content} as a form instance.
     *
     * @throws FusionError {@code INVALID_ELICITATION} listing every field that does not match
     */
    public Object read(Object content) {
      return FormAnswers.read(this, content);
    }
  }
}
