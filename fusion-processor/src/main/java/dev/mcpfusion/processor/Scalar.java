package dev.mcpfusion.processor;

import java.util.List;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/** The value types with a JSON mapping: their schema, their spi decoder and converter. */
enum Scalar {
  STRING("java.lang.String", null, "string", null, "string", "asString"),
  BOOLEAN("java.lang.Boolean", TypeKind.BOOLEAN, "boolean", null, "bool", "asBoolean"),
  INT8("java.lang.Byte", TypeKind.BYTE, "integer", null, "int8", "asByte"),
  INT16("java.lang.Short", TypeKind.SHORT, "integer", null, "int16", "asShort"),
  INT32("java.lang.Integer", TypeKind.INT, "integer", null, "int32", "asInt"),
  INT64("java.lang.Long", TypeKind.LONG, "integer", null, "int64", "asLong"),
  BIG_INTEGER("java.math.BigInteger", null, "integer", null, "bigInteger", "asBigInteger"),
  FLOAT32("java.lang.Float", TypeKind.FLOAT, "number", null, "float32", "asFloat"),
  FLOAT64("java.lang.Double", TypeKind.DOUBLE, "number", null, "float64", "asDouble"),
  DECIMAL("java.math.BigDecimal", null, "number", null, "decimal", "asDecimal"),
  UUID("java.util.UUID", null, "string", "uuid", "uuid", "asUuid"),
  DATE("java.time.LocalDate", null, "string", "date", "date", "asDate"),
  INSTANT("java.time.Instant", null, "string", "date-time", "instant", "asInstant"),
  OFFSET_DATE_TIME("java.time.OffsetDateTime", null, "string", "date-time", "offsetDateTime",
      "asOffsetDateTime");

  final String boxed;
  final TypeKind primitive;
  final String jsonType;
  final String format;
  final String argsMethod;
  final String valuesMethod;

  Scalar(String boxed, TypeKind primitive, String jsonType, String format, String argsMethod,
      String valuesMethod) {
    this.boxed = boxed;
    this.primitive = primitive;
    this.jsonType = jsonType;
    this.format = format;
    this.argsMethod = argsMethod;
    this.valuesMethod = valuesMethod;
  }

  boolean isNumber() {
    return jsonType.equals("integer") || jsonType.equals("number");
  }

  boolean isText() {
    return this == STRING;
  }

  /** The scalar kind of a type (primitive or declared), or {@code null}. */
  static Scalar of(TypeMirror type) {
    if (type.getKind().isPrimitive()) {
      for (Scalar s : values()) {
        if (s.primitive == type.getKind()) {
          return s;
        }
      }
      return null;
    }
    if (type.getKind() != TypeKind.DECLARED) {
      return null;
    }
    String name = ((TypeElement) ((DeclaredType) type).asElement()).getQualifiedName().toString();
    for (Scalar s : values()) {
      if (s.boxed.equals(name)) {
        return s;
      }
    }
    return null;
  }

  /** Qualified names of the collection interfaces a list-like input or view may use. */
  static final List<String> LISTS = List.of("java.util.List", "java.util.Collection");
  static final String SET = "java.util.Set";
  static final String OPTIONAL = "java.util.Optional";
}
