package dev.mcpfusion.core.spi;

import dev.mcpfusion.annotation.Format;
import dev.mcpfusion.core.Suggestion;
import dev.mcpfusion.core.UiBlock;
import dev.mcpfusion.json.Json;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * A {@code @Presenter} view bound to its model: implemented by the generated {@code V_Presenter}
 * (reachable as {@code V_Presenter.INSTANCE}).
 *
 * <p>Strip mode: the only way data reaches the agent is {@link #toTree} (or its text,
 * {@link #appendJson}) of a view built by {@link #fromModel} or {@link #fromMap}, and a view holds
 * only its declared components.
 *
 * @param <M> the model type
 * @param <V> the view type
 */
public interface PresenterBinding<M, V> {
  /** The SPI version the class was generated for. */
  int spiVersion();

  /** The model class. */
  Class<M> modelType();

  /** The view class. */
  Class<V> viewType();

  /** Builds the view from a model, reading only the exposed properties (nested views recursively). */
  V fromModel(M model);

  /**
   * Builds the view from a row, reading only the declared keys (everything else is never read);
   * values are converted to the component types, nested maps to nested views. A value that cannot
   * be converted throws {@link IllegalArgumentException} naming the key (a server bug, not an agent error).
   */
  V fromMap(Map<String, ?> row);

  /**
   * The view as a plain JSON tree: a {@code LinkedHashMap} in component order whose values are
   * {@code String}, {@code Boolean}, {@code Number}, {@code List}, {@code Map} or {@code null};
   * enums as their names, {@code UUID}/{@code java.time} values as ISO strings, nested views as maps.
   */
  Map<String, Object> toTree(V view);

  /**
   * Appends the view's compact JSON text to {@code out}: byte for byte
   * {@code Json.write(toTree(view))}, without building the tree. A component {@link #toTree}
   * rejects (a {@code null} that is not {@code @Nullable}) throws the same
   * {@link IllegalStateException}, a non-finite {@code double}/{@code float} the same
   * {@link IllegalArgumentException} {@code Json.write} throws; when a view has several such faults
   * the one reported may differ, and on any exception part of the text may already be appended.
   *
   * <p>Generated presenters implement it directly (constant pre-escaped keys, primitives appended
   * as digits, nested views through their own presenters). This default is the definition itself,
   * so a binding written by hand need not implement it: it stays correct, only slower.
   */
  default void appendJson(V view, StringBuilder out) {
    out.append(Json.write(toTree(view)));
  }

  /** The view's compact JSON text: {@link #appendJson} into a new builder. */
  default String toJson(V view) {
    StringBuilder out = new StringBuilder(64);
    appendJson(view, out);
    return out.toString();
  }

  /**
   * The JSON Schema of one view as compact JSON: {@code "type": "object"}, its properties,
   * {@code required} and {@code "additionalProperties": false}; no {@code $schema}.
   */
  String outputSchemaJson();

  /** The egress field names (the components), in order. */
  List<String> fieldNames();

  /**
   * The static rule lines: one {@code name: description} per exposed described property (view
   * order, nested views once each), then the {@code @Rules} lines.
   */
  List<String> staticRules();

  /**
   * The data-dependent rule lines for one view (from the {@code @Rules} method that takes the
   * view); empty if none.
   */
  List<String> dynamicRules(V view);

  /** The suggestions for one view (from the {@code @Suggest} method that takes the view); empty if none. */
  List<Suggestion> suggestions(V view);

  /**
   * The data-dependent rule lines of the views one answer shows (a single result shows one), in
   * this order: nested views' (component order), then {@link #dynamicRules} once per distinct view
   * (first-seen order), then the {@code @Rules} method that takes {@code List<V>}, called once with
   * {@code shown}. Lines may repeat; the caller deduplicates them.
   *
   * <p>This default, for a binding written by hand, calls {@link #dynamicRules} once per distinct
   * view; generated presenters add their list-taking {@code @Rules} method.
   */
  default List<String> rulesFor(List<V> shown) {
    List<String> out = new ArrayList<>();
    for (V view : distinct(shown)) {
      List<String> lines = dynamicRules(view);
      if (lines != null) {
        out.addAll(lines);
      }
    }
    return out;
  }

  /**
   * The suggestions for the views one answer shows: {@link #suggestions} once per distinct view
   * (first-seen order), then the {@code @Suggest} method that takes {@code List<V>}, called once
   * with {@code shown}. Suggestions may repeat; the caller deduplicates them.
   *
   * <p>This default calls {@link #suggestions} once per distinct view.
   */
  default List<Suggestion> suggestionsFor(List<V> shown) {
    List<Suggestion> out = new ArrayList<>();
    for (V view : distinct(shown)) {
      List<Suggestion> next = suggestions(view);
      if (next != null) {
        out.addAll(next);
      }
    }
    return out;
  }

  /**
   * The {@code @Ui} blocks for the views one answer shows, in the declaration order of the view's
   * {@code @Ui} methods: a method taking {@code List<V>} is called once with {@code shown}, one
   * taking the view once per distinct view (first-seen order). Blocks may repeat; the caller
   * sends each once. This default: none.
   */
  default List<UiBlock> uiBlocksFor(List<V> shown) {
    return List.of();
  }

  /**
   * {@code shown} without repeats, in first-seen order ({@code equals}: equal views are one view),
   * so an item-level method runs once per distinct view rather than once per row.
   */
  static <V> Collection<V> distinct(List<V> shown) {
    return shown.size() < 2 ? shown : new LinkedHashSet<>(shown);
  }

  /** The most items of a collection result sent to the agent. */
  int agentLimit();

  /**
   * How the data block of a collection result is written ({@code @Presenter(format)}); JSON unless
   * the view asks for another format.
   */
  default Format format() {
    return Format.JSON;
  }

  /**
   * Whether the view lets the agent choose its top-level fields ({@code @Presenter(select = true)}):
   * an action it presents honours {@code _select} when the action's fields list it (the processor
   * lists it for queries, and for mutations and actions that say {@code select = true}).
   */
  default boolean selectable() {
    return false;
  }

  /**
   * The {@code Suggestion.of} and {@code FusionError...actions} references written in the view's
   * source (and in the views nested in it whose {@code @Rules} run when it is shown) that name a
   * router outside its compilation; {@code build()} checks them for every action this presenter
   * presents. A binding written by hand names none.
   */
  default List<Reference> references() {
    return List.of();
  }
}
