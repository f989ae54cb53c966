package dev.mcpfusion.testing;

import dev.mcpfusion.testing.internal.JsonTrees;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.AbstractObjectAssert;

/**
 * AssertJ assertions on a plain JSON tree (a data block or {@code structuredContent}): maps,
 * lists and scalars as the test kit parses them (integers as {@code Integer}/{@code Long}/
 * {@code BigInteger}, decimals as {@code BigDecimal}).
 */
public final class JsonTreeAssert extends AbstractObjectAssert<JsonTreeAssert, Object> {
  private final String reply;

  JsonTreeAssert(Object actual, String reply) {
    super(actual, JsonTreeAssert.class);
    this.reply = reply;
  }

  /** No object property named {@code name} occurs at any depth of the tree. */
  public JsonTreeAssert hasNoField(String name) {
    List<String> found = JsonTrees.pathsOf(actual, name);
    if (!found.isEmpty()) {
      failWithMessage("Expecting no field \"%s\" at any depth, but found it at %s%nReply: %s",
          name, found, reply);
    }
    return this;
  }

  /** An object property named {@code name} occurs at some depth of the tree. */
  public JsonTreeAssert hasField(String name) {
    if (JsonTrees.pathsOf(actual, name).isEmpty()) {
      failWithMessage("Expecting a field \"%s\" at some depth, but found none%nReply: %s", name, reply);
    }
    return this;
  }

  /** The tree is a JSON array (a {@code List}) of {@code size} items, or an object of {@code size} properties. */
  public JsonTreeAssert hasSize(int size) {
    isNotNull();
    int actualSize;
    if (actual instanceof List<?> list) {
      actualSize = list.size();
    } else if (actual instanceof Map<?, ?> map) {
      actualSize = map.size();
    } else {
      failWithMessage("Expecting an array or an object, but was %s%nReply: %s", actual, reply);
      return this;
    }
    if (actualSize != size) {
      failWithMessage("Expecting %s entries, but there were %s%nReply: %s", size, actualSize, reply);
    }
    return this;
  }

  /** The tree is a JSON array. */
  public JsonTreeAssert isArray() {
    if (!(actual instanceof List)) {
      failWithMessage("Expecting a JSON array, but was %s%nReply: %s", actual, reply);
    }
    return this;
  }

  /** The tree is a JSON object. */
  public JsonTreeAssert isObject() {
    if (!(actual instanceof Map)) {
      failWithMessage("Expecting a JSON object, but was %s%nReply: %s", actual, reply);
    }
    return this;
  }

  /**
   * The value at a simple path ({@code id}, {@code items[0].status}, {@code [3].id}) equals
   * {@code expected}; numbers compare by value ({@code 5} equals {@code 5L}).
   */
  public JsonTreeAssert hasValue(String path, Object expected) {
    Object value = at(path);
    if (!sameJson(value, expected)) {
      failWithMessage("Expecting %s to be %s, but was %s%nReply: %s", path, expected, value, reply);
    }
    return this;
  }

  private Object at(String path) {
    Object node = actual;
    for (String step : path.replace("[", ".[").split("\\.")) {
      if (step.isEmpty()) {
        continue;
      }
      if (step.startsWith("[") && step.endsWith("]")) {
        int i = Integer.parseInt(step.substring(1, step.length() - 1));
        if (!(node instanceof List<?> list) || i >= list.size()) {
          failWithMessage("No element %s at %s%nReply: %s", step, path, reply);
          return null;
        }
        node = list.get(i);
      } else {
        if (!(node instanceof Map<?, ?> map) || !map.containsKey(step)) {
          failWithMessage("No field \"%s\" at %s%nReply: %s", step, path, reply);
          return null;
        }
        node = map.get(step);
      }
    }
    return node;
  }

  private static boolean sameJson(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y) {
      return new java.math.BigDecimal(x.toString()).compareTo(new java.math.BigDecimal(y.toString())) == 0;
    }
    return java.util.Objects.equals(JsonTrees.plain(a), JsonTrees.plain(b));
  }
}
