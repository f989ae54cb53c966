package dev.mcpfusion.core.server;

import dev.mcpfusion.annotation.CachePolicy;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.presenter.PerCall;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.FieldDescriptor;
import dev.mcpfusion.core.spi.PresenterBinding;
import dev.mcpfusion.core.spi.ResultShape;
import dev.mcpfusion.core.spi.RouterDescriptor;
import dev.mcpfusion.wire.Toon;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Turns descriptors into MCP tools: names, descriptions, input and output
 * schemas and the four annotation hints, always explicit.
 */
public final class Exposer {
  /** The GROUPED discriminator property. */
  public static final String DISCRIMINATOR = "action";

  private static final Map<String, Object> VOID_SCHEMA = Map.of("type", "string");

  private Exposer() {}

  // ---------------------------------------------------------------- FLAT

  /**
   * The FLAT tool of one action. Its {@code title} ({@code title =} on the verb) is both the tool's
   * and its annotations' title, as clients read either; an action without one sends neither key.
   */
  public static McpSchema.Tool flatTool(String toolName, ActionDescriptor action) {
    String title = action.title().isBlank() ? null : action.title();
    Map<String, Object> properties = new LinkedHashMap<>();
    List<Object> required = new ArrayList<>();
    for (FieldDescriptor field : action.fields()) {
      properties.put(field.name(), parse(field.schemaJson()));
      if (field.required()) {
        required.add(field.name());
      }
    }
    McpSchema.Tool.Builder tool = McpSchema.Tool.builder()
        .name(toolName)
        .description(action.description() + cacheSuffix(action.cachePolicy()))
        .inputSchema(action.inputSchemaJson() != null ? parse(action.inputSchemaJson())
            : objectSchema(properties, required))
        .annotations(new McpSchema.ToolAnnotations(title, action.readOnlyHint(),
            action.destructiveHint(), action.idempotentHint(), action.openWorldHint(), null));
    if (title != null) {
      tool.title(title);
    }
    if (action.presenter() != null) {
      tool.outputSchema(outputBranch(action));
    }
    return tool.build();
  }

  // ---------------------------------------------------------------- GROUPED

  /** The GROUPED tool of a router: one tool, the {@code action} discriminator selects the action. */
  public static McpSchema.Tool groupedTool(RouterDescriptor router) {
    return groupedTool(router, false);
  }

  /**
   * The GROUPED tool of a router, its description in the TOON variant ({@link #toonDescription})
   * when {@code toon}.
   */
  public static McpSchema.Tool groupedTool(RouterDescriptor router, boolean toon) {
    List<ActionDescriptor> actions = router.actions();
    List<Object> actionNames = new ArrayList<>();
    for (ActionDescriptor action : actions) {
      actionNames.add(action.name());
    }

    Map<String, Object> properties = new LinkedHashMap<>();
    Map<String, Object> discriminator = new LinkedHashMap<>();
    discriminator.put("type", "string");
    discriminator.put("enum", actionNames);
    discriminator.put("description", "The operation to perform");
    properties.put(DISCRIMINATOR, discriminator);

    List<Object> required = new ArrayList<>();
    required.add(DISCRIMINATOR);
    for (MergedField field : mergeFields(router)) {
      properties.put(field.name(), field.schema());
      if (field.common() && field.requiredBy().size() == actions.size()) {
        required.add(field.name());
      }
    }

    boolean readOnly = true;
    boolean destructive = false;
    boolean idempotent = true;
    boolean openWorld = false;
    boolean anyPresenter = false;
    for (ActionDescriptor action : actions) {
      readOnly &= action.readOnlyHint();
      destructive |= action.destructiveHint();
      idempotent &= action.idempotentHint();
      openWorld |= action.openWorldHint();
      anyPresenter |= action.presenter() != null;
    }

    McpSchema.Tool.Builder tool = McpSchema.Tool.builder()
        .name(router.name())
        .description(toon ? toonDescription(router) : groupedDescription(router))
        .inputSchema(objectSchema(properties, required))
        .annotations(new McpSchema.ToolAnnotations(null, readOnly, destructive, idempotent,
            openWorld, null));
    if (anyPresenter) {
      List<Object> branches = new ArrayList<>();
      for (ActionDescriptor action : actions) {
        Map<String, Object> branch = outputBranch(action);
        if (!branches.contains(branch)) {
          branches.add(branch);
        }
      }
      Map<String, Object> output = new LinkedHashMap<>();
      output.put("type", "object");
      output.put("anyOf", branches);
      tool.outputSchema(output);
    }
    return tool.build();
  }

  /**
   * The GROUPED tool description: the router summary and the action list on the first
   * line, then, with two or more actions, a {@code Workflow:} line per action.
   */
  public static String groupedDescription(RouterDescriptor router) {
    List<String> names = new ArrayList<>();
    for (ActionDescriptor action : router.actions()) {
      names.add(action.name());
    }
    StringBuilder out = new StringBuilder();
    String summary = router.description() == null ? "" : router.description().strip();
    if (!summary.isEmpty()) {
      out.append(sentence(summary)).append(' ');
    }
    out.append("Select operation via the `action` parameter. Actions: ")
        .append(String.join(", ", names));
    if (router.actions().size() >= 2) {
      out.append("\n\nWorkflow:");
      for (ActionDescriptor action : router.actions()) {
        out.append('\n').append(workflowLine(action));
      }
    }
    return out.toString();
  }

  /**
   * The TOON variant of the GROUPED description: the router summary and the selection sentence,
   * then, with two or more actions, one TOON table whose rows are the actions (the same facts as
   * the {@code Workflow:} lines, every row the same four cells, {@code |}-separated so prose keeps
   * its commas unquoted):
   *
   * <pre>
   * Invoices: list, inspect and void them. Select operation via the `action` parameter.
   *
   * actions[3|]{action|description|requires|notes}:
   *   list_invoices|List invoices, newest first|""|"Cache-Control: no-store"
   *   get_invoice|Get one invoice|id|""
   *   void_invoice|Void an open invoice|id|DESTRUCTIVE
   * </pre>
   *
   * The table names every action, so the first line does not list them again. With one action
   * there is no table to gain from: the text description is returned.
   */
  public static String toonDescription(RouterDescriptor router) {
    if (router.actions().size() < 2) {
      return groupedDescription(router);
    }
    StringBuilder out = new StringBuilder();
    String summary = router.description() == null ? "" : router.description().strip();
    if (!summary.isEmpty()) {
      out.append(sentence(summary)).append(' ');
    }
    out.append("Select operation via the `action` parameter.\n\n");
    List<Map<String, Object>> rows = new ArrayList<>();
    for (ActionDescriptor action : router.actions()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("action", action.name());
      row.put("description", action.description() == null ? "" : action.description().strip());
      row.put("requires", String.join(", ", action.requiredFields()));
      List<String> notes = new ArrayList<>(2);
      if (action.destructiveHint()) {
        notes.add("DESTRUCTIVE");
      }
      String cache = cacheSuffix(action.cachePolicy());
      if (!cache.isEmpty()) {
        notes.add(cache.substring(2, cache.length() - 1));
      }
      row.put("notes", String.join(", ", notes));
      rows.add(row);
    }
    return out.append(Toon.pipeTable(Map.of("actions", rows))).toString();
  }

  /** {@code - 'name': description. Requires: a, b [DESTRUCTIVE] [Cache-Control: no-store]}. */
  static String workflowLine(ActionDescriptor action) {
    String description = action.description() == null ? "" : action.description().strip();
    List<String> requires = action.requiredFields();
    String body = description;
    if (!requires.isEmpty()) {
      String list = "Requires: " + String.join(", ", requires);
      body = body.isEmpty() ? list : sentence(body) + " " + list;
    }
    StringBuilder line = new StringBuilder("- '").append(action.name()).append('\'');
    if (!body.isEmpty()) {
      line.append(": ").append(body);
    }
    if (action.destructiveHint()) {
      line.append(" [DESTRUCTIVE]");
    }
    line.append(cacheSuffix(action.cachePolicy()));
    return line.toString();
  }

  /** {@code text} ending in a period, unless it already ends in punctuation. */
  static String sentence(String text) {
    char last = text.charAt(text.length() - 1);
    return ".!?:;…".indexOf(last) >= 0 ? text : text + ".";
  }

  /** The Cache-Control suffix of a policy, with its leading space, or empty. */
  static String cacheSuffix(CachePolicy policy) {
    if (policy == null) {
      return "";
    }
    return switch (policy) {
      case NO_STORE -> " [Cache-Control: no-store]";
      case IMMUTABLE -> " [Cache-Control: immutable]";
      case DEFAULT -> "";
    };
  }

  /**
   * The union of a router's input fields, common fields first, then each action's own fields in
   * first-seen order. A field declared with different schemas by different actions keeps the
   * keywords all its variants share when they agree on {@code type} (a schema no stricter than any
   * action's), else becomes {@code anyOf} its variants; the validator enforces each action's own. Descriptions
   * get a note on which actions use the field, unless every action uses it the same way.
   */
  static List<MergedField> mergeFields(RouterDescriptor router) {
    Map<String, FieldUse> uses = new LinkedHashMap<>();
    for (FieldDescriptor common : router.commonFields()) {
      uses.computeIfAbsent(common.name(), n -> new FieldUse(common));
    }
    for (ActionDescriptor action : router.actions()) {
      for (FieldDescriptor field : action.fields()) {
        FieldUse use = uses.computeIfAbsent(field.name(), n -> new FieldUse(field));
        use.add(action.name(), field);
      }
    }
    int actionCount = router.actions().size();
    List<MergedField> merged = new ArrayList<>();
    for (Map.Entry<String, FieldUse> entry : uses.entrySet()) {
      FieldUse use = entry.getValue();
      String note = use.note(actionCount);
      merged.add(new MergedField(entry.getKey(), use.schema(note), use.first.common(),
          List.copyOf(use.requiredBy)));
    }
    return merged;
  }

  record MergedField(String name, Map<String, Object> schema, boolean common, List<String> requiredBy) {}

  private static final class FieldUse {
    final FieldDescriptor first;
    final List<Map<String, Object>> variants = new ArrayList<>();
    final List<String> requiredBy = new ArrayList<>();
    final List<String> optionalFor = new ArrayList<>();

    FieldUse(FieldDescriptor first) {
      this.first = first;
    }

    void add(String action, FieldDescriptor field) {
      (field.required() ? requiredBy : optionalFor).add(action);
      Map<String, Object> variant = parse(field.schemaJson());
      variant.remove("description");
      if (!variants.contains(variant)) {
        variants.add(variant);
      }
    }

    String note(int actionCount) {
      if (first.common() && requiredBy.size() == actionCount) {
        return "(always required)";
      }
      boolean uniform = (requiredBy.size() == actionCount && optionalFor.isEmpty())
          || (optionalFor.size() == actionCount && requiredBy.isEmpty());
      if (uniform) {
        return "";
      }
      if (requiredBy.isEmpty()) {
        return "(For: " + String.join(", ", optionalFor) + ")";
      }
      if (optionalFor.isEmpty()) {
        return "(Required for: " + String.join(", ", requiredBy) + ")";
      }
      return "(Required for: " + String.join(", ", requiredBy) + ". For: "
          + String.join(", ", optionalFor) + ")";
    }

    boolean sameType() {
      Object type = variants.get(0).get("type");
      return type != null && variants.stream().allMatch(v -> type.equals(v.get("type")));
    }

    Map<String, Object> schema(String note) {
      Map<String, Object> schema;
      if (variants.size() <= 1) {
        schema = variants.isEmpty() ? parse(first.schemaJson()) : new LinkedHashMap<>(variants.get(0));
        schema.remove("description");
      } else if (sameType()) {
        // The keywords every variant shares: looser than each action's own schema, never stricter.
        schema = new LinkedHashMap<>(variants.get(0));
        schema.entrySet().removeIf(keyword -> variants.stream()
            .anyMatch(v -> !Objects.equals(v.get(keyword.getKey()), keyword.getValue())));
      } else {
        schema = new LinkedHashMap<>();
        schema.put("anyOf", new ArrayList<Object>(variants));
      }
      String description = first.description() == null ? "" : first.description().strip();
      if (description.isEmpty()) {
        Object fromSchema = parse(first.schemaJson()).get("description");
        description = fromSchema instanceof String s ? s.strip() : "";
      }
      String text = note.isEmpty() ? description
          : description.isEmpty() ? note.substring(1, note.length() - 1)
          : description + " " + note;
      if (!text.isEmpty()) {
        schema.put("description", text);
      }
      return schema;
    }
  }

  // ---------------------------------------------------------------- schemas

  /** The output schema branch of one action (BRIEF "output schema"). */
  static Map<String, Object> outputBranch(ActionDescriptor action) {
    PresenterBinding<?, ?> presenter = action.presenter();
    if (presenter != null) {
      Map<String, Object> view = parse(presenter.outputSchemaJson());
      view.remove("$schema");
      if (PerCall.selects(action)) {
        // With _select an item carries only the chosen fields: none of them can be required.
        view.remove("required");
      }
      return isCollection(action.resultShape())
          ? collectionSchema(view, action.resultShape() == ResultShape.PAGE) : view;
    }
    Object result;
    if (action.resultShape() == ResultShape.VOID) {
      result = new LinkedHashMap<>(VOID_SCHEMA);
    } else if (action.resultSchemaJson() != null) {
      result = parse(action.resultSchemaJson());
    } else {
      result = new LinkedHashMap<String, Object>();
    }
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put("result", result);
    Map<String, Object> branch = new LinkedHashMap<>();
    branch.put("type", "object");
    branch.put("properties", properties);
    branch.put("required", List.of("result"));
    branch.put("additionalProperties", false);
    return branch;
  }

  static boolean isCollection(ResultShape shape) {
    return shape == ResultShape.COLLECTION || shape == ResultShape.ARRAY
        || shape == ResultShape.ITERABLE || shape == ResultShape.STREAM
        || shape == ResultShape.PAGE;
  }

  private static Map<String, Object> collectionSchema(Map<String, Object> view, boolean paged) {
    Map<String, Object> items = new LinkedHashMap<>();
    items.put("type", "array");
    items.put("items", view);
    Map<String, Object> truncatedProps = new LinkedHashMap<>();
    truncatedProps.put("shown", Map.of("type", "integer"));
    truncatedProps.put("hidden", Map.of("type", "integer"));
    truncatedProps.put("more", Map.of("type", "boolean"));
    if (paged) {
      Map<String, Object> next = new LinkedHashMap<>();
      next.put("type", "string");
      next.put("description", "Send it as cursor, with the same other arguments, for the next page.");
      truncatedProps.put("next", next);
    }
    Map<String, Object> truncated = new LinkedHashMap<>();
    truncated.put("type", "object");
    truncated.put("properties", truncatedProps);
    truncated.put("additionalProperties", false);
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put("items", items);
    properties.put("truncated", truncated);
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("properties", properties);
    schema.put("required", List.of("items"));
    schema.put("additionalProperties", false);
    return schema;
  }

  private static Map<String, Object> objectSchema(Map<String, Object> properties, List<Object> required) {
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("properties", properties);
    schema.put("required", required);
    schema.put("additionalProperties", false);
    return schema;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> parse(String schemaJson) {
    Object parsed = Json.parse(schemaJson);
    if (!(parsed instanceof Map<?, ?>)) {
      throw new IllegalStateException("A generated schema is not a JSON object: " + schemaJson);
    }
    return new LinkedHashMap<>((Map<String, Object>) parsed);
  }
}
