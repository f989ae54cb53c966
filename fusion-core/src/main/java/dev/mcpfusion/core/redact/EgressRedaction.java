package dev.mcpfusion.core.redact;

import dev.mcpfusion.core.json.Json;
import dev.mcpfusion.core.presenter.Markup;
import dev.mcpfusion.core.presenter.Presentation;
import dev.mcpfusion.core.presenter.References;
import dev.mcpfusion.core.presenter.Reply;
import dev.mcpfusion.core.spi.ResultShape;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pipeline step 7, first half: masks a presented reply before the egress byte cap measures it.
 * Every part the agent reads is covered — the data block and {@code structuredContent} (path
 * patterns relative to each view, and detectors), the {@code <domain_rules>} lines, the suggestions
 * (reasons by detectors, arguments as a tree), {@code <ui_passthrough>} blocks and any other text
 * block, and the {@code _meta} entries that repeat them. Parts it does not recognise are masked as
 * text rather than passed on.
 */
public final class EgressRedaction {
  private static final String RULES = "mcpfusion/rules";
  private static final String SUGGESTIONS = "mcpfusion/suggestions";
  private static final String TRUNCATION = "mcpfusion/truncation";
  private static final String UI_BLOCK = "<ui_passthrough ";

  private EgressRedaction() {}

  /**
   * The reply a successful action sends, masked by {@code redactor}.
   *
   * @param shape the action's result shape: which part of {@code structuredContent} the data block shows
   * @throws IllegalStateException if some part cannot be read as plain JSON or text: the caller
   *     answers {@code INTERNAL_ERROR} (fail closed)
   */
  public static Reply success(Redactor redactor, Reply reply, ResultShape shape, References refs,
      Tally tally) {
    if (reply.isError()) {
      throw new IllegalStateException("an error reply is redacted when it is rendered");
    }
    int before = tally.count();
    List<String> blocks = reply.blocks();
    Map<String, Object> structured = reply.structuredContent();
    Map<String, Object> newStructured = structured;
    String data = null;
    int from = 0;
    if (structured != null && !blocks.isEmpty()) {
      newStructured = new LinkedHashMap<>(structured);
      data = data(redactor, shape, blocks.get(0), newStructured, tally);
      from = 1;
    }

    Map<String, Object> meta = new LinkedHashMap<>();
    List<String> rules = null;
    List<Map<String, Object>> suggestions = null;
    boolean rulesChanged = false;
    boolean suggestionsChanged = false;
    for (Map.Entry<String, Object> e : reply.meta().entrySet()) {
      int mark = tally.count();
      switch (e.getKey()) {
        case RULES:
          rules = rules(redactor, e.getValue(), tally);
          rulesChanged = tally.count() != mark;
          meta.put(RULES, rules);
          break;
        case SUGGESTIONS:
          suggestions = suggestions(redactor, e.getValue(), tally);
          suggestionsChanged = tally.count() != mark;
          meta.put(SUGGESTIONS, suggestions);
          break;
        case TRUNCATION:
          meta.put(TRUNCATION, e.getValue());
          break;
        default:
          meta.put(e.getKey(), redactor.tree(e.getValue(), tally));
      }
    }

    List<String> out = new ArrayList<>(blocks.size());
    List<String> maskedValues = null;
    if (data != null) {
      out.add(data);
      if (newStructured != structured && tally.count() != before) {
        maskedValues = maskedValues(structured, newStructured);
      }
    }
    for (int i = from; i < blocks.size(); i++) {
      String block = blocks.get(i);
      if (rules != null && block.startsWith("<domain_rules>")) {
        out.add(rulesChanged ? Presentation.rulesBlock(rules) : block);
      } else if (suggestions != null && block.startsWith("<action_suggestions>")) {
        out.add(suggestionsChanged ? suggestionsBlock(suggestions, refs) : block);
      } else if (maskedValues != null && block.startsWith(UI_BLOCK)) {
        out.add(redactor.text(withoutMaskedValues(block, maskedValues, tally), tally));
      } else {
        out.add(redactor.text(block, tally));
      }
    }
    if (tally.count() == before) {
      // Nothing was masked: what was checked goes out as it was built.
      return reply;
    }
    // Keeps the item count: the byte cap after this step drops whole items.
    return reply.rewritten(out, newStructured, meta, reply.items());
  }

  /** Masks {@code structured} in place (a copy the caller owns) and returns the new data block. */
  private static String data(Redactor redactor, ResultShape shape, String block,
      Map<String, Object> structured, Tally tally) {
    switch (shape) {
      case VOID:
        return block;
      case VALUE: {
        Object value = structured.get("result");
        if (value instanceof String s && s.equals(block)) {
          String masked = redactor.text(s, tally);
          structured.put("result", masked);
          return masked;
        }
        int mark = tally.count();
        Object masked = redactor.tree(value, tally);
        if (tally.count() == mark) {
          return block;
        }
        structured.put("result", masked);
        return Json.write(masked);
      }
      case SINGLE:
      case OPTIONAL: {
        int mark = tally.count();
        Map<String, Object> masked = asMap(redactor.tree(structured, tally));
        if (tally.count() == mark) {
          return block;
        }
        structured.clear();
        structured.putAll(masked);
        return Json.write(masked);
      }
      default: {
        Object items = structured.get("items");
        if (!(items instanceof List<?> list)) {
          throw new IllegalStateException("a collection reply without an items list");
        }
        // Each item is one view: the paths are relative to it.
        int mark = tally.count();
        List<Object> masked = new ArrayList<>(list.size());
        for (Object item : list) {
          masked.add(redactor.tree(item, tally));
        }
        if (tally.count() == mark) {
          return block;
        }
        structured.put("items", masked);
        return Json.write(masked);
      }
    }
  }

  /**
   * The strings the data's masking changed (path patterns, detectors), longest first. A {@code @Ui}
   * block is built from the same views before redaction runs, so a value masked in the data by a
   * path pattern (which free text has no path for) is masked in the block too.
   */
  private static List<String> maskedValues(Object before, Object after) {
    java.util.Set<String> found = new java.util.HashSet<>();
    collect(before, after, found);
    List<String> out = new ArrayList<>(found);
    out.sort(java.util.Comparator.comparingInt(String::length).reversed()
        .thenComparing(java.util.Comparator.naturalOrder()));
    return out;
  }

  private static void collect(Object before, Object after, java.util.Set<String> found) {
    if (before instanceof String s) {
      if (!s.isEmpty() && !s.equals(after)) {
        found.add(s);
      }
    } else if (before instanceof Map<?, ?> b && after instanceof Map<?, ?> a) {
      for (Map.Entry<?, ?> e : b.entrySet()) {
        collect(e.getValue(), a.get(e.getKey()), found);
      }
    } else if (before instanceof List<?> b && after instanceof List<?> a && b.size() == a.size()) {
      for (int i = 0; i < b.size(); i++) {
        collect(b.get(i), a.get(i), found);
      }
    }
  }

  /**
   * {@code block} with every masked value replaced by {@link Redactor#FULL}, as the block shows it:
   * plain (a table cell, markdown, mermaid) or JSON-escaped (a chart), both after the block's own
   * text escaping.
   */
  private static String withoutMaskedValues(String block, List<String> values, Tally tally) {
    // Only the title and the content: the element's own name and type stay intact.
    int open = block.indexOf(">\n");
    int close = block.lastIndexOf("\n</ui_passthrough>");
    if (open < 0 || close < open) {
      throw new IllegalStateException("a UI block that is not one element");
    }
    String head = block.substring(0, open);
    int title = head.indexOf(" title=\"");
    if (title >= 0) {
      int start = title + 8;
      head = head.substring(0, start)
          + replace(head.substring(start, head.length() - 1), values, Markup::attribute, tally) + "\"";
    }
    return head + ">\n" + replace(block.substring(open + 2, close), values, Markup::text, tally)
        + block.substring(close);
  }

  private static String replace(String text, List<String> values,
      java.util.function.UnaryOperator<String> escape, Tally tally) {
    String out = text;
    for (String value : values) {
      String json = Json.write(value);
      for (String form : new String[] {value, json.substring(1, json.length() - 1)}) {
        String shown = escape.apply(form);
        if (shown.isEmpty()) {
          continue;
        }
        int at = out.indexOf(shown);
        if (at >= 0) {
          StringBuilder b = new StringBuilder(out.length());
          int from = 0;
          while (at >= 0) {
            b.append(out, from, at).append(Redactor.FULL);
            tally.add(1);
            from = at + shown.length();
            at = out.indexOf(shown, from);
          }
          out = b.append(out, from, out.length()).toString();
        }
      }
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> asMap(Object tree) {
    if (tree instanceof Map<?, ?> map) {
      return (Map<String, Object>) map;
    }
    throw new IllegalStateException("a single-item reply whose structuredContent is not an object");
  }

  private static List<String> rules(Redactor redactor, Object value, Tally tally) {
    if (!(value instanceof List<?> lines)) {
      throw new IllegalStateException("rules that are not a list");
    }
    List<String> out = new ArrayList<>(lines.size());
    for (Object line : lines) {
      if (!(line instanceof String s)) {
        throw new IllegalStateException("a rule line that is not text");
      }
      out.add(redactor.text(s, tally));
    }
    return out;
  }

  private static List<Map<String, Object>> suggestions(Redactor redactor, Object value, Tally tally) {
    if (!(value instanceof List<?> entries)) {
      throw new IllegalStateException("suggestions that are not a list");
    }
    List<Map<String, Object>> out = new ArrayList<>(entries.size());
    for (Object entry : entries) {
      if (!(entry instanceof Map<?, ?> e) || !(e.get("action") instanceof String action)
          || !(e.get("reason") instanceof String reason)) {
        throw new IllegalStateException("a suggestion without an action and a reason");
      }
      Map<String, Object> masked = new LinkedHashMap<>();
      masked.put("action", action);
      masked.put("reason", redactor.text(reason, tally));
      if (e.get("arguments") != null) {
        masked.put("arguments", redactor.tree(e.get("arguments"), tally));
      }
      out.add(masked);
    }
    return out;
  }

  /** The {@code <action_suggestions>} block, rendered as the presenter renders it. */
  private static String suggestionsBlock(List<Map<String, Object>> suggestions, References refs) {
    StringBuilder b = new StringBuilder("<action_suggestions>\n");
    for (Map<String, Object> s : suggestions) {
      b.append("- ").append(Markup.text(refs.render((String) s.get("action"))));
      Object arguments = s.get("arguments");
      if (arguments instanceof Map<?, ?> map && !map.isEmpty()) {
        b.append(' ').append(Markup.text(Json.write(arguments)));
      }
      b.append(": ").append(Markup.text((String) s.get("reason"))).append('\n');
    }
    return b.append("</action_suggestions>").toString();
  }
}
