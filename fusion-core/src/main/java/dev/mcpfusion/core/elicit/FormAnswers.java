package dev.mcpfusion.core.elicit;

import dev.mcpfusion.core.FusionError;

import java.lang.reflect.InvocationTargetException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a client's answer to an elicitation form back into the form's record, checked against the
 * form first: every missing, unknown or mistyped field is named in one {@code INVALID_ELICITATION}
 * error, so a handler never sees a value the form does not allow.
 */
final class FormAnswers {
  private FormAnswers() {}

  /**
   * The client's {@code content} as an instance of {@code form}.
   *
   * @throws FusionError {@code INVALID_ELICITATION} listing every field that does not match
   */
  static Object read(Forms.Form form, Object content) {
    List<Forms.Field> fields = form.fields;
    if (!(content instanceof Map<?, ?> values)) {
      throw mismatch(form, List.of("the answer has no content object"));
    }
    List<String> problems = new ArrayList<>();
    Set<String> known = new LinkedHashSet<>();
    Object[] args = new Object[fields.size()];
    for (int i = 0; i < fields.size(); i++) {
      Forms.Field f = fields.get(i);
      known.add(f.name());
      Object raw = values.get(f.name());
      if (raw == null) {
        if (f.required()) {
          problems.add("'" + f.name() + "' is required but missing");
        }
        args[i] = f.type().isPrimitive() ? zero(f.type()) : null;
        continue;
      }
      args[i] = convert(f, raw, problems);
    }
    for (Object key : values.keySet()) {
      if (!known.contains(String.valueOf(key))) {
        problems.add("'" + key + "' is not a field of the form (fields: " + known + ")");
      }
    }
    if (!problems.isEmpty()) {
      throw mismatch(form, problems);
    }
    try {
      return form.constructor.newInstance(args);
    } catch (InvocationTargetException e) {
      // The record's own constructor refused the values (its compact-constructor checks).
      String why = e.getCause() == null ? "rejected" : e.getCause().getMessage();
      throw mismatch(form, List.of(form.type.getSimpleName() + " refused the values: " + why));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Could not construct " + form.type.getName(), e);
    }
  }

  private static FusionError mismatch(Forms.Form form, List<String> problems) {
    return FusionError.of("INVALID_ELICITATION", "The client's answer to the "
            + form.type.getSimpleName() + " form does not match it: " + String.join("; ", problems) + ".")
        .recovery("Ask the user again; the form accepts only the fields and values its schema lists.");
  }

  private static Object convert(Forms.Field f, Object raw, List<String> problems) {
    String at = "'" + f.name() + "'";
    switch (f.kind()) {
      case STRING -> {
        if (raw instanceof String s) {
          Map<String, Object> schema = f.schema();
          if (schema.get("minLength") instanceof Integer min && s.length() < min) {
            problems.add(at + " must have at least " + min + " characters");
          }
          if (schema.get("maxLength") instanceof Integer max && s.length() > max) {
            problems.add(at + " must have at most " + max + " characters");
          }
          return s;
        }
      }
      case BOOLEAN -> {
        if (raw instanceof Boolean b) {
          return b;
        }
      }
      case INTEGER, NUMBER -> {
        if (raw instanceof Number n) {
          BigDecimal d = n instanceof BigDecimal b ? b : new BigDecimal(n.toString());
          Map<String, Object> schema = f.schema();
          if (schema.get("minimum") instanceof Long min && d.compareTo(BigDecimal.valueOf(min)) < 0) {
            problems.add(at + " must be at least " + min + " but was " + n);
            return null;
          }
          if (schema.get("maximum") instanceof Long max && d.compareTo(BigDecimal.valueOf(max)) > 0) {
            problems.add(at + " must be at most " + max + " but was " + n);
            return null;
          }
          Object number = number(f.type(), d);
          if (number == null) {
            problems.add(at + " must be " + (f.kind() == Forms.Kind.INTEGER ? "an integer" : "a number")
                + " that fits " + f.type().getSimpleName() + " but was " + n);
          }
          return number;
        }
      }
      case ENUM -> {
        Object constant = constant(f.enumType(), raw);
        if (constant != null) {
          return constant;
        }
        problems.add(at + " must be one of " + Arrays.toString(f.enumType().getEnumConstants())
            + " but was " + describe(raw));
        return null;
      }
      case ENUM_SET -> {
        if (raw instanceof List<?> items) {
          List<Object> out = new ArrayList<>();
          for (Object item : items) {
            Object constant = constant(f.enumType(), item);
            if (constant == null) {
              problems.add(at + " may hold only " + Arrays.toString(f.enumType().getEnumConstants())
                  + " but held " + describe(item));
              return null;
            }
            out.add(constant);
          }
          Map<String, Object> schema = f.schema();
          if (schema.get("minItems") instanceof Integer min && out.size() < min) {
            problems.add(at + " needs at least " + min + " choices but had " + out.size());
          }
          if (schema.get("maxItems") instanceof Integer max && out.size() > max) {
            problems.add(at + " allows at most " + max + " choices but had " + out.size());
          }
          return f.collectionIsSet() ? setOf(out) : List.copyOf(out);
        }
      }
      default -> { }
    }
    problems.add(at + " must be " + expected(f) + " but was " + describe(raw));
    return null;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Set<Object> setOf(List<Object> constants) {
    if (constants.isEmpty()) {
      return Set.of();
    }
    return java.util.Collections.unmodifiableSet(EnumSet.copyOf((Collection) constants));
  }

  private static String expected(Forms.Field f) {
    return switch (f.kind()) {
      case STRING -> "a string";
      case BOOLEAN -> "true or false";
      case INTEGER -> "an integer";
      case NUMBER -> "a number";
      case ENUM -> "one of " + Arrays.toString(f.enumType().getEnumConstants());
      case ENUM_SET -> "an array of " + Arrays.toString(f.enumType().getEnumConstants());
    };
  }

  private static String describe(Object raw) {
    return raw instanceof String s ? "'" + s + "'" : String.valueOf(raw);
  }

  private static Object constant(Class<? extends Enum<?>> type, Object raw) {
    if (raw instanceof String s) {
      for (Enum<?> constant : type.getEnumConstants()) {
        if (constant.name().equals(s)) {
          return constant;
        }
      }
    }
    return null;
  }

  private static Object number(Class<?> type, BigDecimal d) {
    try {
      if (type == int.class || type == Integer.class) {
        return d.intValueExact();
      }
      if (type == long.class || type == Long.class) {
        return d.longValueExact();
      }
      if (type == short.class || type == Short.class) {
        return d.shortValueExact();
      }
    } catch (ArithmeticException e) {
      return null;
    }
    if (type == double.class || type == Double.class) {
      return d.doubleValue();
    }
    if (type == float.class || type == Float.class) {
      return d.floatValue();
    }
    return d;
  }

  private static Object zero(Class<?> primitive) {
    if (primitive == boolean.class) {
      return false;
    }
    if (primitive == int.class) {
      return 0;
    }
    if (primitive == long.class) {
      return 0L;
    }
    if (primitive == short.class) {
      return (short) 0;
    }
    if (primitive == float.class) {
      return 0f;
    }
    return 0d;
  }
}
