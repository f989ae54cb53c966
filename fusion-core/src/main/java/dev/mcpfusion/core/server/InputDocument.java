package dev.mcpfusion.core.server;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.Problems;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The input schema document of an {@code @InputSchema} action, compiled once at {@code build()}
 * with a JSON Schema validator (2020-12 unless the document's {@code $schema} names another
 * dialect), and the call-time check of an action's arguments against it. Problems go where a
 * record input's do, so the agent gets the same {@code <validation_error>}: each with its path as
 * the agent wrote it ({@code address.city}, {@code lines[2].qty}) and the validator's message.
 *
 * <p>Nothing is fetched: the processor refuses a {@code $ref} that leaves the document, and the
 * registry here has no loader for anything but the document itself.
 */
final class InputDocument {
  /**
   * The validator and its mapper, created with the first document: most connectors have none,
   * and the validator's dialects and formats are hundreds of classes to load.
   */
  private static final class Validator {
    static final JsonMapper MAPPER = JsonMapper.builder().build();
    static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(Dialects.getDraft202012());
  }

  private final Schema schema;

  private InputDocument(Schema schema) {
    this.schema = schema;
  }

  /**
   * The compiled document of {@code action}, or {@code null} when its fields describe its input.
   *
   * @throws IllegalArgumentException naming what is wrong when the document cannot be compiled
   */
  static InputDocument of(ActionDescriptor action) {
    String json = action.inputSchemaJson();
    if (json == null) {
      return null;
    }
    try {
      JsonNode tree = Validator.MAPPER.readTree(json);
      return new InputDocument(Validator.REGISTRY.getSchema(tree));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(e.getMessage() == null ? e.getClass().getSimpleName()
          : e.getMessage(), e);
    }
  }

  /** Adds a problem to {@code problems} for every way {@code arguments} break the document. */
  void validate(Map<String, ?> arguments, Problems problems) {
    List<Error> errors = schema.validate(Validator.MAPPER.valueToTree(arguments));
    for (Error error : errors) {
      String path = path(error);
      Object sent = sentAt(arguments, error);
      problems.add(path, message(error), sent);
    }
  }

  /**
   * The instance path as the agent writes it ({@code address.city}, {@code lines[2].qty}) from the
   * validator's JSON Pointer; a missing required property is named at its own path.
   */
  static String path(Error error) {
    String pointer = error.getInstanceLocation() == null ? "" : error.getInstanceLocation().toString();
    StringBuilder out = new StringBuilder();
    for (String segment : pointer.split("/")) {
      if (segment.isEmpty()) {
        continue;
      }
      append(out, segment.replace("~1", "/").replace("~0", "~"));
    }
    if (required(error)) {
      append(out, error.getProperty());
    }
    return out.toString();
  }

  private static void append(StringBuilder path, String segment) {
    if (segment.chars().allMatch(Character::isDigit) && !segment.isEmpty()) {
      path.append('[').append(segment).append(']');
    } else {
      path.append(path.length() == 0 ? "" : ".").append(segment);
    }
  }

  private static boolean required(Error error) {
    return "required".equals(error.getKeyword()) && error.getProperty() != null;
  }

  /** The validator's message without the repeated path it starts with. */
  private static String message(Error error) {
    String m = error.getMessage();
    if (m == null) {
      return "is not valid";
    }
    String location = error.getInstanceLocation() == null ? "" : error.getInstanceLocation().toString();
    return (m.startsWith(location + ": ") ? m.substring(location.length() + 2) : m).strip();
  }

  private static Object sentAt(Map<String, ?> arguments, Error error) {
    JsonNode node = error.getInstanceNode();
    if (required(error) || node == null || node.isMissingNode()) {
      return Problems.MISSING;
    }
    return Validator.MAPPER.convertValue(node, Object.class);
  }
}
