package dev.mcpfusion.core.presenter;

import dev.toonformat.jtoon.Delimiter;
import dev.toonformat.jtoon.EncodeOptions;
import dev.toonformat.jtoon.encoder.ValueEncoder;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one class that names jtoon (see {@link Toon}). It hands jtoon a Jackson tree built here from
 * the plain tree, through jtoon's encoder rather than {@code JToon.encode(Object)}: the latter first
 * builds jtoon's own ObjectMapper, which needs jackson-module-blackbird, a dependency fusion
 * excludes (the views are already plain trees, so jtoon's object mapping has nothing to do).
 */
final class JToonEncoder {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private JToonEncoder() {}

  private static final EncodeOptions PIPE = new EncodeOptions(EncodeOptions.DEFAULT.indent(),
      Delimiter.PIPE, EncodeOptions.DEFAULT.lengthMarker(), EncodeOptions.DEFAULT.flatten(),
      EncodeOptions.DEFAULT.flattenDepth());

  static String encode(Object tree, boolean pipe) {
    return ValueEncoder.encodeValue(node(tree), pipe ? PIPE : EncodeOptions.DEFAULT);
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
