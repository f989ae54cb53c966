package dev.mcpfusion.core.edge;

import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import dev.mcpfusion.json.Json;

/**
 * Reads JSON-RPC messages: each one parsed exactly once by Jackson's streaming parser, with
 * {@link Json#parse}'s limits (duplicate keys, trailing tokens and non-finite numbers rejected,
 * decimals as {@code BigDecimal}, nesting depth capped), then its envelope checked. Counts what it parses, so a test can prove no transport
 * parses a message a second time.
 */
final class MessageReader {
  static final int PARSE_ERROR = -32700;
  static final int INVALID_REQUEST = -32600;

  private final LongAdder parsed = new LongAdder();

  long parsed() {
    return parsed.sum();
  }

  Message read(byte[] bytes) {
    return read(bytes, bytes.length);
  }

  Message read(byte[] bytes, int length) {
    parsed.increment();
    try (JsonParser parser = Json.parser(bytes, length)) {
      return envelope(tree(parser));
    } catch (RuntimeException e) {
      return Message.invalid(null, PARSE_ERROR, "Parse error: the message is not valid JSON.");
    }
  }

  Message read(String text) {
    parsed.increment();
    try (JsonParser parser = Json.parser(text)) {
      return envelope(tree(parser));
    } catch (RuntimeException e) {
      return Message.invalid(null, PARSE_ERROR, "Parse error: the message is not valid JSON.");
    }
  }

  /**
   * One JSON value read straight off the parser into a plain tree — the types Jackson's mapper
   * gives for {@code Object} ({@code LinkedHashMap}, {@code ArrayList}, {@code String},
   * {@code Integer}/{@code Long}/{@code BigInteger} by size, {@code BigDecimal} for every number
   * with a fraction or exponent, {@code Boolean}, {@code null}) without a databind context per
   * message. The parser enforces the read features (duplicate keys, non-finite numbers) and stream
   * constraints (nesting depth); trailing tokens are rejected here.
   */
  private static Object tree(JsonParser parser) {
    JsonToken first = parser.nextToken();
    if (first == null) {
      throw new IllegalArgumentException("no JSON value");
    }
    Object value = value(parser, first);
    if (parser.nextToken() != null) {
      throw new IllegalArgumentException("trailing tokens after the JSON value");
    }
    return value;
  }

  private static Object value(JsonParser parser, JsonToken token) {
    switch (token) {
      case START_OBJECT: {
        java.util.LinkedHashMap<String, Object> object = new java.util.LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
          String name = parser.currentName();
          object.put(name, value(parser, parser.nextToken()));
        }
        return object;
      }
      case START_ARRAY: {
        java.util.ArrayList<Object> array = new java.util.ArrayList<>();
        JsonToken next;
        while ((next = parser.nextToken()) != JsonToken.END_ARRAY) {
          array.add(value(parser, next));
        }
        return array;
      }
      case VALUE_STRING:
        return parser.getString();
      case VALUE_NUMBER_INT:
        switch (parser.getNumberType()) {
          case INT:
            return parser.getIntValue();
          case LONG:
            return parser.getLongValue();
          default:
            return parser.getBigIntegerValue();
        }
      case VALUE_NUMBER_FLOAT:
        return parser.getDecimalValue();
      case VALUE_TRUE:
        return Boolean.TRUE;
      case VALUE_FALSE:
        return Boolean.FALSE;
      case VALUE_NULL:
        return null;
      default:
        throw new IllegalArgumentException("unexpected " + token);
    }
  }

  @SuppressWarnings("unchecked")
  private static Message envelope(Object tree) {
    if (tree instanceof java.util.List<?>) {
      return Message.invalid(null, INVALID_REQUEST,
          "Invalid Request: batches are not supported; send one JSON-RPC message at a time.");
    }
    if (!(tree instanceof Map<?, ?> object)) {
      return Message.invalid(null, INVALID_REQUEST, "Invalid Request: expected a JSON-RPC object.");
    }
    Object rawId = object.get("id");
    Object id = usableId(rawId);
    if (object.containsKey("id") && id == null) {
      return Message.invalid(null, INVALID_REQUEST, "Invalid Request: \"id\" must be a string or a number.");
    }
    if (!"2.0".equals(object.get("jsonrpc"))) {
      return Message.invalid(id, INVALID_REQUEST, "Invalid Request: \"jsonrpc\" must be \"2.0\".");
    }
    Object method = object.get("method");
    Map<String, Object> message = (Map<String, Object>) object;
    if (method != null) {
      if (!(method instanceof String name)) {
        return Message.invalid(id, INVALID_REQUEST, "Invalid Request: \"method\" must be a string.");
      }
      Object params = object.get("params");
      if (params != null && !(params instanceof Map<?, ?>) && !(params instanceof java.util.List<?>)) {
        return Message.invalid(id, INVALID_REQUEST, "Invalid Request: \"params\" must be an object.");
      }
      return id == null ? Message.notification(name, message) : Message.request(id, name, message);
    }
    if (id != null && (object.containsKey("result") || object.get("error") instanceof Map<?, ?>)) {
      return Message.response(id, message);
    }
    return Message.invalid(id, INVALID_REQUEST,
        "Invalid Request: not a JSON-RPC 2.0 request, notification or response.");
  }

  /**
   * The error for a message larger than {@code limit}, answered with its id when the id can be
   * read cheaply: a streaming scan of the top level of {@code prefix} (the first bytes of the
   * message) that skips every nested value and stops at the first {@code "id"} member.
   */
  Message oversized(byte[] prefix, int length, long limit) {
    return Message.invalid(scanId(prefix, length), INVALID_REQUEST,
        "Invalid Request: the message is larger than " + limit + " bytes; send a smaller one.");
  }

  private Object scanId(byte[] prefix, int length) {
    if (prefix == null || length <= 0) {
      return null;
    }
    try (JsonParser parser = Json.parser(prefix, length)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      JsonToken token;
      while ((token = parser.nextToken()) == JsonToken.PROPERTY_NAME) {
        String name = parser.currentName();
        JsonToken value = parser.nextToken();
        if ("id".equals(name)) {
          if (value == JsonToken.VALUE_STRING) {
            return parser.getString();
          }
          if (value == JsonToken.VALUE_NUMBER_INT) {
            return parser.getNumberValue();
          }
          return null;
        }
        if (value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY) {
          parser.skipChildren();
        }
      }
      return null;
    } catch (RuntimeException truncatedOrMalformed) {
      // The prefix ends inside the message (it always does for a message over the limit) or the
      // text is not JSON: the id, if any, lies beyond what is cheap to read.
      return null;
    }
  }

  /** The id when it is one JSON-RPC allows (a string or a number), else {@code null}. */
  static Object usableId(Object id) {
    return id instanceof String || id instanceof Number ? id : null;
  }
}
