package dev.mcpfusion.core.presenter;

import dev.mcpfusion.annotation.Format;
import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.Page;
import dev.mcpfusion.core.Suggestion;
import dev.mcpfusion.core.UiBlock;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.ElementKind;
import dev.mcpfusion.core.spi.PresenterBinding;
import dev.mcpfusion.wire.Blocks;
import dev.mcpfusion.wire.Meta;
import dev.mcpfusion.wire.References;
import dev.mcpfusion.wire.Reply;
import dev.mcpfusion.wire.Toon;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * Pipeline step 6 for a successful handler result: strip (through the generated presenter), truncate
 * to the presenter's {@code agentLimit}, then rules, suggestions and UI blocks, in wire order
 * (data, {@code <ui_passthrough>}, {@code <domain_rules>}, {@code <action_suggestions>}).
 *
 * <p>Lazy results ({@code Stream}, non-collection {@code Iterable}) are read one item at a time and
 * at most {@code agentLimit + 1} items are pulled: the extra one only tells that more exist, so a
 * million-row or infinite stream costs the limit. Streams and closeable iterables/iterators are
 * closed on success, truncation and failure alike.
 */
public final class ResultPresenter {
  private ResultPresenter() {}

  /**
   * The {@code <ui_passthrough>} text of a UI block: {@code type} and {@code title} (when it has
   * one) as escaped attributes, the content as escaped text on its own lines.
   */
  public static String uiBlock(UiBlock block) {
    return Blocks.ui(block.type(), block.title(), block.content());
  }

  /**
   * Presents a successful handler result.
   *
   * @throws FusionError {@code NOT_FOUND} for {@code Optional.empty()}; a returned
   *     {@code FusionError} is thrown as is
   * @throws IllegalStateException {@code "returned null"} for a {@code null} result of any shape but
   *     {@code VOID}, or a result that does not match the action's declared presenter (the pipeline
   *     reports it as {@code INTERNAL_ERROR})
   */
  public static Reply present(ActionDescriptor action, Object result, References refs) {
    return present(Presentation.of(action), result, refs);
  }

  /**
   * Presents a successful handler result with what was prepared once for its action (the pipeline
   * prepares every action when the server is built).
   *
   * @throws FusionError as {@link #present(ActionDescriptor, Object, References)}
   * @throws IllegalStateException as {@link #present(ActionDescriptor, Object, References)}
   */
  public static Reply present(Presentation presentation, Object result, References refs) {
    return present(presentation, result, refs, PerCall.NONE);
  }

  /**
   * Presents a successful handler result with the call's field selection and page position.
   *
   * @throws FusionError as {@link #present(ActionDescriptor, Object, References)}
   * @throws IllegalStateException as {@link #present(ActionDescriptor, Object, References)}
   */
  public static Reply present(Presentation presentation, Object result, References refs,
      PerCall perCall) {
    ActionDescriptor action = presentation.action();
    if (result instanceof FusionError error) {
      throw error;
    }
    switch (action.resultShape()) {
      case VOID:
        return value(Blocks.OK, Blocks.OK);
      case VALUE:
        if (result == null) {
          throw new IllegalStateException("returned null");
        }
        if (result instanceof CharSequence cs) {
          return value(cs.toString(), cs.toString());
        }
        String json = Json.write(result);
        return value(json, Json.parse(json));
      case SINGLE:
        if (result == null) {
          throw new IllegalStateException("returned null");
        }
        return single(presentation, result, refs, perCall);
      case OPTIONAL:
        if (result == null) {
          throw new IllegalStateException("returned null");
        }
        Object item = result;
        if (result instanceof Optional<?> optional) {
          if (optional.isEmpty()) {
            throw notFound();
          }
          item = optional.get();
        }
        return single(presentation, item, refs, perCall);
      case PAGE:
        if (!(result instanceof Page<?> page)) {
          throw new IllegalStateException(result == null ? "returned null"
              : "returned a " + result.getClass().getName() + " where a Page was declared");
        }
        return Pages.present(presentation, page, refs, perCall);
      case COLLECTION:
      case ARRAY:
      case ITERABLE:
      case STREAM:
        if (result == null) {
          throw new IllegalStateException("returned null");
        }
        return many(presentation, result, refs, perCall);
      default:
        throw new IllegalStateException("unknown result shape " + action.resultShape());
    }
  }

  private static FusionError notFound() {
    return FusionError.notFound("No result was found.")
        .recovery("Check the identifiers you sent; list the items first if you do not have one.");
  }

  private static Reply value(String block, Object value) {
    Map<String, Object> structured = new LinkedHashMap<>();
    structured.put("result", value);
    return Reply.owned(List.of(block), structured, Map.of());
  }

  private static Reply single(Presentation presentation, Object item, References refs,
      PerCall perCall) {
    Shown shown = new Shown(presentation, binding(presentation.action()), 1, perCall);
    shown.add(item);
    Map<String, Object> tree = shown.trees.get(0);
    List<String> blocks = new ArrayList<>(4);
    blocks.add(shown.json.toString());
    Map<String, Object> meta = new LinkedHashMap<>();
    shown.finish(blocks, meta, refs);
    // The data block is the tree's JSON text (appendJson writes exactly Json.write(toTree(view))).
    int data = blocks.get(0).length();
    return Reply.owned(blocks, tree, meta, -1, false, data, shown.metaChars(),
        data + shown.finishedChars(), shown.onlyStaticRules());
  }

  private static Reply many(Presentation presentation, Object result, References refs,
      PerCall perCall) {
    ActionDescriptor action = presentation.action();
    // Everything happens inside the closer, so a stream is closed even when the presenter is
    // missing, an item does not fit or the generated writer throws.
    Shown shown;
    Long hidden = null;
    boolean more = false;
    try (Closer closer = new Closer(result)) {
      PresenterBinding<Object, Object> binding = binding(action);
      int limit = Math.max(0, binding.agentLimit());
      shown = new Shown(presentation, binding, Math.min(limit, 64), perCall);
      shown.toon = binding.format() == Format.TOON;
      shown.json.append('[');
      if (result instanceof Stream<?> stream) {
        more = pull(stream.iterator(), limit, shown);
      } else if (result instanceof Collection<?> collection) {
        int size = collection.size();
        Iterator<?> it = collection.iterator();
        closer.also(it);
        pull(it, limit, shown);
        hidden = (long) Math.max(0, size - shown.trees.size());
      } else if (result instanceof Object[] array) {
        pull(Arrays.asList(array).iterator(), limit, shown);
        hidden = (long) Math.max(0, array.length - shown.trees.size());
      } else if (result instanceof Iterable<?> iterable) {
        Iterator<?> it = iterable.iterator();
        closer.also(it);
        more = pull(it, limit, shown);
      } else if (result instanceof Iterator<?> iterator) {
        more = pull(iterator, limit, shown);
      } else {
        throw new IllegalStateException("returned a " + result.getClass().getName()
            + " where a " + action.resultShape().name().toLowerCase(java.util.Locale.ROOT)
            + " was declared");
      }
    }

    boolean cut = more || (hidden != null && hidden > 0);
    List<String> blocks = new ArrayList<>();
    blocks.add(shown.toon ? Toon.table(shown.trees) : shown.json.append(']').toString());
    Map<String, Object> structured = new LinkedHashMap<>();
    structured.put("items", shown.trees);
    Map<String, Object> meta = new LinkedHashMap<>();
    // {"items":<the data block>} as JSON text, when the data block is the items' JSON array.
    int structuredChars = shown.toon ? -1 : blocks.get(0).length() + "{\"items\":}".length();
    if (cut) {
      int count = shown.trees.size();
      Map<String, Object> truncation = new LinkedHashMap<>();
      truncation.put("shown", count);
      String rest;
      if (hidden != null) {
        truncation.put("hidden", hidden);
        rest = count + " shown, " + hidden + " hidden";
      } else {
        truncation.put("more", true);
        rest = count + " shown, more available";
      }
      structured.put("truncated", truncation);
      if (structuredChars >= 0) {
        structuredChars += ",\"truncated\":".length() + Json.write(truncation).length();
      }
      shown.ui().add(UiBlock.summary(Blocks.summary(rest, null)));
      shown.finish(blocks, meta, refs);
      meta.put(Meta.TRUNCATION, new LinkedHashMap<>(truncation));
      return Reply.owned(blocks, structured, meta, shown.trees.size(), shown.toon, structuredChars,
          -1, blocks.get(0).length() + shown.finishedChars(), false);
    }
    shown.finish(blocks, meta, refs);
    return Reply.owned(blocks, structured, meta, shown.trees.size(), shown.toon, structuredChars,
        shown.metaChars(), blocks.get(0).length() + shown.finishedChars(),
        shown.onlyStaticRules());
  }

  /**
   * Presents up to {@code limit} items, then tells whether another exists; pulls at most
   * {@code limit + 1} items.
   */
  static boolean pull(Iterator<?> it, int limit, Shown shown) {
    while (shown.trees.size() < limit && it.hasNext()) {
      shown.add(it.next());
    }
    return it.hasNext();
  }

  /** The presenter of {@code action}, its type parameters erased: the one unchecked step. */
  @SuppressWarnings("unchecked")
  static PresenterBinding<Object, Object> binding(ActionDescriptor action) {
    PresenterBinding<?, ?> binding = action.presenter();
    if (binding == null) {
      throw new IllegalStateException("action " + action.name() + " returns "
          + action.resultShape() + " but has no presenter");
    }
    return (PresenterBinding<Object, Object>) binding;
  }

  /**
   * The views shown so far and what they contribute to rules, suggestions and UI blocks. The static
   * rules come rendered from the {@link Presentation}; the data-dependent parts are asked of the
   * binding once, for all shown views together, when the answer is finished (so an item-level
   * method runs once per distinct view, a collection-level one once).
   */
  static final class Shown {
    final Presentation presentation;
    final ActionDescriptor action;
    final PresenterBinding<Object, Object> binding;
    final List<Map<String, Object>> trees;
    final List<Object> views;
    /**
     * The data block: each view's {@code appendJson} ({@code Json.write} of its tree, without
     * walking it), comma-separated, written right after its tree so both show the same view.
     */
    final StringBuilder json;
    /** A collection written as a TOON table from {@link #trees} at the end, not as JSON text. */
    boolean toon;
    private List<UiBlock> ui;
    /** Whether {@link #finish} wrote no {@code _meta} beyond the static rules. */
    private boolean staticMeta;
    /** The characters of the blocks {@link #finish} added. */
    private int finishedChars;
    /** The fields the agent selected, or {@code null} for all (the data and tree narrow to them). */
    private final PerCall perCall;

    Shown(Presentation presentation, PresenterBinding<Object, Object> binding, int expected,
        PerCall perCall) {
      this.perCall = perCall;
      this.presentation = presentation;
      this.action = presentation.action();
      this.binding = binding;
      this.trees = new ArrayList<>(Math.max(1, expected));
      this.views = new ArrayList<>(Math.max(1, expected));
      this.json = new StringBuilder(64 * Math.max(1, expected));
    }

    List<UiBlock> ui() {
      if (ui == null) {
        ui = new ArrayList<>(1);
      }
      return ui;
    }

    void add(Object item) {
      if (item == null) {
        throw new IllegalStateException("returned a null item at index " + trees.size());
      }
      Object view = view(item);
      // Selection narrows what is sent; rules and suggestions still read the whole view.
      Map<String, Object> tree = perCall.select() == null
          ? binding.toTree(view) : perCall.narrow(binding.toTree(view));
      trees.add(tree);
      if (!toon) {
        if (trees.size() > 1) {
          json.append(',');
        }
        if (perCall.select() == null) {
          binding.appendJson(view, json);
        } else {
          Json.appendValue(tree, json);
        }
      }
      views.add(view);
    }

    private Object view(Object item) {
      ElementKind kind = action.elementKind();
      switch (kind) {
        case VIEW:
          return expect(binding.viewType(), item);
        case MAP:
          return binding.fromMap(asRow(item));
        case TREE:
          Object plain = item instanceof JsonNode node ? Json.fromNode(node) : item;
          return binding.fromMap(asRow(plain));
        case MODEL:
        default:
          return binding.fromModel(expect(binding.modelType(), item));
      }
    }

    private static Object expect(Class<?> type, Object item) {
      if (!type.isInstance(item)) {
        throw new IllegalStateException("returned a " + item.getClass().getName() + " where a "
            + type.getName() + " was expected");
      }
      return item;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, ?> asRow(Object item) {
      if (item instanceof Map<?, ?> map) {
        return (Map<String, ?>) map;
      }
      throw new IllegalStateException("returned a " + item.getClass().getName()
          + " where a JSON object row was expected");
    }

    /**
     * The length of the {@code _meta} {@link #finish} wrote, as compact JSON text, when it is known
     * without writing it (only the static rules, or nothing); -1 otherwise.
     */
    int metaChars() {
      return staticMeta ? presentation.staticMetaChars() : -1;
    }

    /**
     * Whether {@link #finish} added no block but the static rules block, and no {@code _meta}
     * entry but the static rules.
     */
    boolean onlyStaticRules() {
      return staticMeta && (ui == null || ui.isEmpty());
    }

    /** The characters of the blocks {@link #finish} added, together. */
    int finishedChars() {
      return finishedChars;
    }

    private void add(List<String> blocks, String block) {
      blocks.add(block);
      finishedChars += block.length();
    }

    /** Appends the UI, rules and suggestion blocks and their {@code _meta} entries. */
    void finish(List<String> blocks, Map<String, Object> meta, References refs) {
      // The user's collection-level methods get a read-only list: the data block is already
      // written from it, so a method that sorted or filtered it would tell a different story.
      List<Object> shown = Collections.unmodifiableList(views);
      List<UiBlock> fromViews = binding.uiBlocksFor(shown);
      if (fromViews != null && !fromViews.isEmpty()) {
        Set<UiBlock> once = new LinkedHashSet<>(fromViews);
        once.remove(null);
        ui().addAll(once);
      }
      if (ui != null) {
        for (UiBlock block : ui) {
          add(blocks, uiBlock(block));
        }
      }
      Set<String> dynamicRules = null;
      List<String> dynamic = binding.rulesFor(shown);
      if (dynamic != null) {
        for (String rule : dynamic) {
          if (rule != null && !presentation.isStaticRule(rule)) {
            if (dynamicRules == null) {
              dynamicRules = new LinkedHashSet<>();
            }
            dynamicRules.add(rule);
          }
        }
      }
      Set<Suggestion> suggestions = null;
      List<Suggestion> next = binding.suggestionsFor(shown);
      if (next != null && !next.isEmpty()) {
        suggestions = new LinkedHashSet<>(next);
        suggestions.remove(null);
        if (suggestions.isEmpty()) {
          suggestions = null;
        }
      }
      staticMeta = dynamicRules == null && suggestions == null;
      if (dynamicRules == null) {
        if (presentation.rulesBlock() != null) {
          add(blocks, presentation.rulesBlock());
          meta.put(Meta.RULES, presentation.staticRules());
        }
      } else {
        List<String> all = new ArrayList<>(presentation.staticRules());
        all.addAll(dynamicRules);
        add(blocks, Blocks.rules(all));
        meta.put(Meta.RULES, List.copyOf(all));
      }
      if (suggestions != null) {
        List<Map<String, Object>> entries = new ArrayList<>();
        for (Suggestion s : suggestions) {
          Map<String, Object> entry = new LinkedHashMap<>();
          entry.put("action", s.action());
          entry.put("reason", s.reason());
          if (!s.arguments().isEmpty()) {
            entry.put("arguments", Json.parse(Json.write(s.arguments())));
          }
          entries.add(entry);
        }
        add(blocks, Blocks.suggestions(entries, refs));
        meta.put(Meta.SUGGESTIONS, entries);
      }
    }
  }

  /**
   * Closes the closeable parts of a lazily read result (the iterable and its iterator), keeping the
   * first failure and suppressing later ones.
   */
  private static final class Closer implements AutoCloseable {
    private final List<AutoCloseable> closeables = new ArrayList<>(2);

    Closer(Object first) {
      also(first);
    }

    void also(Object candidate) {
      if (candidate instanceof AutoCloseable c && !closeables.contains(c)) {
        closeables.add(c);
      }
    }

    @Override
    public void close() {
      RuntimeException failure = null;
      for (int i = closeables.size() - 1; i >= 0; i--) {
        try {
          closeables.get(i).close();
        } catch (Exception e) {
          if (failure == null) {
            failure = e instanceof RuntimeException re ? re
                : new IllegalStateException("closing the result failed", e);
          } else {
            failure.addSuppressed(e);
          }
        }
      }
      if (failure != null) {
        throw failure;
      }
    }
  }
}
