package dev.mcpfusion.wire;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one class that calls jtoon (see {@link Toon}), loaded on the first TOON text. It builds a
 * Jackson tree from the plain tree and hands it to jtoon's {@code ValueEncoder.encodeValue}
 * rather than {@code JToon.encode(Object)}: the latter first builds jtoon's own ObjectMapper, which
 * needs jackson-module-blackbird, a dependency fusion excludes (the views are already plain trees,
 * so jtoon's object mapping has nothing to do).
 *
 * <p>jtoon is reached by reflection: its jar names no module, so a {@code requires} would tie
 * fusion-core's module descriptor to a name derived from a file name. On the module path this
 * module is made to read jtoon's (automatic) module when one is present.
 */
final class JToonEncoder {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Method ENCODE;
  private static final Object COMMA;
  private static final Object PIPE;

  static {
    try {
      ClassLoader loader = JToonEncoder.class.getClassLoader();
      Class<?> encoder = Class.forName("dev.toonformat.jtoon.encoder.ValueEncoder", true, loader);
      Class<?> options = Class.forName("dev.toonformat.jtoon.EncodeOptions", true, loader);
      Class<?> delimiter = Class.forName("dev.toonformat.jtoon.Delimiter", true, loader);
      Class<?> folding = Class.forName("dev.toonformat.jtoon.KeyFolding", true, loader);
      JToonEncoder.class.getModule().addReads(encoder.getModule());
      ENCODE = encoder.getMethod("encodeValue", JsonNode.class, options);
      COMMA = options.getField("DEFAULT").get(null);
      PIPE = options.getConstructor(int.class, delimiter, boolean.class, folding, int.class)
          .newInstance(options.getMethod("indent").invoke(COMMA),
              delimiter.getField("PIPE").get(null),
              options.getMethod("lengthMarker").invoke(COMMA),
              options.getMethod("flatten").invoke(COMMA),
              options.getMethod("flattenDepth").invoke(COMMA));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("dev.toonformat:jtoon " + e.getMessage()
          + ": a jtoon version this fusion-core was not built against", e);
    }
  }

  private JToonEncoder() {}

  static String encode(Object tree, boolean pipe) {
    try {
      return (String) ENCODE.invoke(null, node(tree), pipe ? PIPE : COMMA);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new IllegalStateException("jtoon failed to write TOON", e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("jtoon's encoder is not accessible", e);
    }
  }

  private static JsonNode node(Object value) {
    if (value == null) {
      return NODES.nullNode();
    }
    if (value instanceof String s) {
      return NODES.stringNode(s);
    }
    if (value instanceof Boolean b) {
      return NODES.booleanNode(b);
    }
    if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return NODES.numberNode(((Number) value).intValue());
    }
    if (value instanceof Long l) {
      return NODES.numberNode(l);
    }
    if (value instanceof Double d) {
      return NODES.numberNode(d);
    }
    if (value instanceof Float f) {
      return NODES.numberNode(f);
    }
    if (value instanceof BigInteger i) {
      return NODES.numberNode(i);
    }
    if (value instanceof BigDecimal d) {
      return NODES.numberNode(d);
    }
    if (value instanceof Map<?, ?> map) {
      ObjectNode object = NODES.objectNode();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        object.set(String.valueOf(e.getKey()), node(e.getValue()));
      }
      return object;
    }
    if (value instanceof List<?> list) {
      ArrayNode array = NODES.arrayNode(list.size());
      for (Object element : list) {
        array.add(node(element));
      }
      return array;
    }
    throw new IllegalStateException("a view tree holds a " + value.getClass().getName()
        + ", which is not plain JSON");
  }
}
