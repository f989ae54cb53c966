package dev.mcpfusion.core.redact;

import dev.mcpfusion.redact.Tally;
import dev.mcpfusion.redact.Redactor;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.spi.ResultShape;
import dev.mcpfusion.wire.Blocks;
import dev.mcpfusion.wire.Markup;
import dev.mcpfusion.wire.Meta;
import dev.mcpfusion.wire.References;
import dev.mcpfusion.wire.Reply;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Pipeline step 7, first half: masks a presented reply before the egress byte cap measures it.
 * Every part the agent reads is covered — the data block and {@code structuredContent} (path
 * patterns relative to each view, and detectors), the {@code <domain_rules>} lines, the suggestions
 * (reasons by detectors, arguments as a tree), {@code <ui_passthrough>} blocks and any other text
 * block, and the {@code _meta} entries that repeat them. Parts it does not recognise are masked as
 * text rather than passed on.
 */
public final class EgressRedaction {
  private static final String RULES = Meta.RULES;
  private static final String SUGGESTIONS = Meta.SUGGESTIONS;
  private static final String TRUNCATION = Meta.TRUNCATION;
  private static final String UI_BLOCK = Blocks.UI_OPEN;

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
    // Copy on write throughout: a reply with nothing to mask (the usual case) allocates nothing
    // beyond the walk and goes out as it was built.
    int before = tally.count();
    List<String> blocks = reply.blocks();
    Map<String, Object> structured = reply.structuredContent();
    Map<String, Object> newStructured = structured;
    String data = null;
    int from = 0;
    if (structured != null && !blocks.isEmpty()) {
      data = blocks.get(0);
      Map<String, Object> masked = data(redactor, shape, structured, tally);
      if (masked != structured) {
        newStructured = masked;
        data = block(shape, reply, structured, data, masked);
      }
      from = 1;
    }
    Map<String, Object> meta = reply.meta();
    // _meta holds only the view's static rules (or nothing), found clean when the server was built.
    boolean cleanMeta = reply.staticMeta() && redactor.staticRulesClean();
    if (from == 1 && newStructured == structured && cleanMeta && reply.onlyStaticRules()) {
      // The usual answer: data with nothing to mask, and at most the view's static rules block,
      // whose rules were found clean when the server was built.
      return reply;
    }

    Map<String, Object> newMeta = null;
    List<String> rules = null;
    List<Map<String, Object>> suggestions = null;
    // Which of the two exists, for the blocks below.
    boolean hasRules;
    boolean hasSuggestions;
    if (cleanMeta) {
      hasRules = !meta.isEmpty();
      hasSuggestions = false;
    } else {
      MetaWalk metaWalk = new MetaWalk(redactor, meta, tally);
      // Each lookup only while entries remain unaccounted for: a reply with only its rules costs
      // one.
      int size = meta.size();
      Object ruleLines = size == 0 ? null : meta.get(RULES);
      int known = ruleLines == null ? 0 : 1;
      Object suggested = known < size ? meta.get(SUGGESTIONS) : null;
      known += suggested == null ? 0 : 1;
      if (known < size && meta.containsKey(TRUNCATION)) {
        known++;
      }
      // A present key with a null value is walked, and refused there.
      hasRules = ruleLines != null;
      hasSuggestions = suggested != null;
      if (known == size) {
        // Only the entries the presenter writes: looked up, not walked.
        if (ruleLines != null) {
          metaWalk.accept(RULES, ruleLines);
        }
        if (suggested != null) {
          metaWalk.accept(SUGGESTIONS, suggested);
        }
      } else {
        // forEach rather than entrySet: the map is an unmodifiable view, whose entry set wraps
        // every entry it hands out.
        meta.forEach(metaWalk);
        hasRules = meta.containsKey(RULES);
        hasSuggestions = meta.containsKey(SUGGESTIONS);
      }
      newMeta = metaWalk.out;
      rules = metaWalk.rules;
      suggestions = metaWalk.suggestions;
    }

    List<String> out = null;
    List<String> maskedValues = null;
    if (data != null && newStructured != null && newStructured != structured) {
      maskedValues = maskedValues(structured, newStructured);
    }
    for (int i = from; i < blocks.size(); i++) {
      String block = blocks.get(i);
      String masked;
      if (hasRules && block.startsWith(Blocks.RULES_OPEN)) {
        masked = rules != null ? Blocks.rules(rules) : block;
      } else if (hasSuggestions && block.startsWith(Blocks.SUGGESTIONS_OPEN)) {
        masked = suggestions != null ? Blocks.suggestions(suggestions, refs) : block;
      } else if (maskedValues != null && !maskedValues.isEmpty() && block.startsWith(UI_BLOCK)) {
        masked = redactor.text(withoutMaskedValues(block, maskedValues, tally), tally);
      } else {
        masked = redactor.text(block, tally);
      }
      if (out == null && masked != block) {
        out = new ArrayList<>(blocks.size());
        if (from == 1) {
          out.add(data);
        }
        out.addAll(blocks.subList(from, i));
      }
      if (out != null) {
        out.add(masked);
      }
    }
    if (tally.count() == before) {
      // Nothing was masked: what was checked goes out as it was built.
      return reply;
    }
    if (out == null) {
      out = new ArrayList<>(blocks);
      if (from == 1) {
        out.set(0, data);
      }
    }
    // Keeps the item count: the byte cap after this step drops whole items.
    return reply.rewritten(out, newStructured, newMeta == null ? meta : newMeta, reply.items());
  }

  /**
   * Whether {@link #success} would send {@code reply} as it is, when that is known without a walk
   * or a {@link Tally}: the usual answer, a view's data whose text fields hold nothing to mask
   * ({@link Redactor#viewClean}), followed by at most the view's static rules, which were found
   * clean when the server was built. {@code false} means "not known": call {@link #success}.
   *
   * @param shape the action's result shape; only a single view and a collection of views are
   *     decided here
   */
  public static boolean knownClean(Redactor redactor, Reply reply, ResultShape shape) {
    Map<String, Object> structured = reply.structuredContent();
    if (!reply.onlyStaticRules() || !redactor.staticRulesClean() || structured == null) {
      return false;
    }
    switch (shape) {
      case VOID:
      case VALUE:
        return false;
      case SINGLE:
      case OPTIONAL:
        return redactor.viewClean(structured);
      default: {
        // A collection: each item is one view.
        if (!(structured.get("items") instanceof List<?> items) || structured.size() != 1) {
          return false;
        }
        for (int i = 0; i < items.size(); i++) {
          if (!redactor.viewClean(items.get(i))) {
            return false;
          }
        }
        return true;
      }
    }
  }

  /**
   * The {@code _meta} entries masked, copy on write: rules and suggestions by their own shape (and
   * kept aside, so their blocks can be rendered again), the truncation record as it is (numbers
   * and a cursor the framework wrote), anything else as a tree.
   */
  private static final class MetaWalk implements BiConsumer<String, Object> {
    private final Redactor redactor;
    private final Map<String, Object> meta;
    private final Tally tally;
    private Map<String, Object> out;
    private List<String> rules;
    private List<Map<String, Object>> suggestions;

    MetaWalk(Redactor redactor, Map<String, Object> meta, Tally tally) {
      this.redactor = redactor;
      this.meta = meta;
      this.tally = tally;
    }

    @Override
    public void accept(String key, Object value) {
      Object masked;
      switch (key) {
        case RULES:
          masked = rules(redactor, value, tally);
          if (masked != value) {
            rules = castList(masked);
          }
          break;
        case SUGGESTIONS:
          masked = suggestions(redactor, value, tally);
          if (masked != value) {
            suggestions = castList(masked);
          }
          break;
        case TRUNCATION:
          masked = value;
          break;
        default:
          masked = redactor.tree(value, tally);
      }
      if (out == null && masked != value) {
        // Every entry copied; this one and any later change replace theirs in place, in order.
        out = new LinkedHashMap<>(meta);
      }
      if (out != null) {
        out.put(key, masked);
      }
    }
  }


  @SuppressWarnings("unchecked")
  private static <T> List<T> castList(Object list) {
    return (List<T>) list;
  }

  /**
   * {@code structured} with its data masked: the same instance when nothing was masked, else a
   * copy.
   */
  private static Map<String, Object> data(Redactor redactor, ResultShape shape,
      Map<String, Object> structured, Tally tally) {
    switch (shape) {
      case VOID:
        return structured;
      case VALUE: {
        Object value = structured.get("result");
        Object masked = value instanceof String s ? redactor.text(s, tally) : redactor.tree(value, tally);
        if (masked == value) {
          return structured;
        }
        Map<String, Object> copy = new LinkedHashMap<>(structured);
        copy.put("result", masked);
        return copy;
      }
      case SINGLE:
      case OPTIONAL:
        return asMap(redactor.viewTree(structured, tally));
      default: {
        Object items = structured.get("items");
        if (!(items instanceof List<?> list)) {
          throw new IllegalStateException("a collection reply without an items list");
        }
        // Each item is one view: the paths are relative to it.
        List<Object> masked = null;
        for (int i = 0; i < list.size(); i++) {
          Object item = list.get(i);
          Object after = redactor.viewTree(item, tally);
          if (masked == null && after != item) {
            masked = new ArrayList<>(list.size());
            masked.addAll(list.subList(0, i));
          }
          if (masked != null) {
            masked.add(after);
          }
        }
        if (masked == null) {
          return structured;
        }
        Map<String, Object> copy = new LinkedHashMap<>(structured);
        copy.put("items", masked);
        return copy;
      }
    }
  }

  /**
   * The data block of {@code masked}, written as {@code block} was written from {@code structured}:
   * a text result shown as it is stays bare text, anything else is JSON.
   */
  private static String block(ResultShape shape, Reply reply, Map<String, Object> structured,
      String block, Map<String, Object> masked) {
    switch (shape) {
      case VALUE: {
        Object value = masked.get("result");
        return value instanceof String s && block.equals(structured.get("result"))
            ? s : Json.write(value);
      }
      case SINGLE:
      case OPTIONAL:
        return Json.write(masked);
      default:
        return reply.itemsBlock((List<?>) masked.get("items"));
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

  /** The rule lines masked: the same list when nothing was. */
  private static List<?> rules(Redactor redactor, Object value, Tally tally) {
    if (!(value instanceof List<?> lines)) {
      throw new IllegalStateException("rules that are not a list");
    }
    if (redactor.knownClean(lines)) {
      return lines;
    }
    List<String> out = null;
    for (int i = 0; i < lines.size(); i++) {
      if (!(lines.get(i) instanceof String s)) {
        throw new IllegalStateException("a rule line that is not text");
      }
      String masked = redactor.text(s, tally);
      if (out == null && masked != s) {
        out = new ArrayList<>(lines.size());
        for (int j = 0; j < i; j++) {
          out.add((String) lines.get(j));
        }
      }
      if (out != null) {
        out.add(masked);
      }
    }
    if (out == null) {
      redactor.rememberClean(lines);
      return lines;
    }
    return out;
  }

  /** The suggestions masked (reasons as text, arguments as a tree): the same list when nothing was. */
  private static List<?> suggestions(Redactor redactor, Object value, Tally tally) {
    if (!(value instanceof List<?> entries)) {
      throw new IllegalStateException("suggestions that are not a list");
    }
    List<Map<String, Object>> out = null;
    for (int i = 0; i < entries.size(); i++) {
      Object entry = entries.get(i);
      if (!(entry instanceof Map<?, ?> e) || !(e.get("action") instanceof String action)
          || !(e.get("reason") instanceof String reason)) {
        throw new IllegalStateException("a suggestion without an action and a reason");
      }
      String maskedReason = redactor.text(reason, tally);
      Object arguments = e.get("arguments");
      Object maskedArguments = arguments == null ? null : redactor.tree(arguments, tally);
      boolean changed = maskedReason != reason || maskedArguments != arguments;
      if (out == null && changed) {
        out = new ArrayList<>(entries.size());
        for (int j = 0; j < i; j++) {
          out.add(suggestion((Map<?, ?>) entries.get(j), null, null));
        }
      }
      if (out != null) {
        out.add(suggestion(e, maskedReason, maskedArguments));
      }
    }
    return out == null ? entries : out;
  }

  /** A suggestion entry as the presenter writes it, with a masked reason and arguments if given. */
  private static Map<String, Object> suggestion(Map<?, ?> entry, String reason, Object arguments) {
    Map<String, Object> masked = new LinkedHashMap<>();
    masked.put("action", entry.get("action"));
    masked.put("reason", reason != null ? reason : entry.get("reason"));
    Object args = arguments != null ? arguments : entry.get("arguments");
    if (args != null) {
      masked.put("arguments", args);
    }
    return masked;
  }

}
