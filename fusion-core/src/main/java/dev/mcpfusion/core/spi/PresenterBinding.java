package dev.mcpfusion.core.spi;

import dev.mcpfusion.core.Suggestion;
import dev.mcpfusion.core.json.Json;
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
   * so a binding compiled before this method existed, or written by hand, stays correct, only
   * slower.
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

  /** The data-dependent rule lines for one view (from a {@code @Rules} method); empty if none. */
  List<String> dynamicRules(V view);

  /** The suggestions for one view (from the {@code @Suggest} method); empty if none. */
  List<Suggestion> suggestions(V view);

  /** The most items of a collection result sent to the agent. */
  int agentLimit();

  /**
   * Whether the view lets the agent choose its top-level fields ({@code @Presenter(select = true)}):
   * the actions it presents take a {@code _select} input.
   */
  default boolean selectable() {
    return false;
  }
}
