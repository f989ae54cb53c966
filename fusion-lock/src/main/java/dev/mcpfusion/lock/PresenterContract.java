package dev.mcpfusion.lock;

import dev.mcpfusion.annotation.Rules;
import dev.mcpfusion.annotation.Ui;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.spi.PresenterBinding;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a presenter lets out and what it tells the agent about it.
 *
 * @param name the view class name (binary name)
 * @param fields the egress field names, in view order ({@link PresenterBinding#fieldNames})
 * @param egress {@code sha256:} of the field names and the output schema without descriptions:
 *     changes exactly when the shape of what leaves the process changes
 * @param fieldDescriptions the output schema's property descriptions by path ({@code a}, {@code a.b},
 *     {@code a[].b})
 * @param rules the static rule lines ({@link PresenterBinding#staticRules}), in order
 * @param rulesDigest {@code sha256:} of {@code rules}
 * @param dynamicRules whether the view has a {@code @Rules} method: its lines depend on the data
 *     and cannot be fingerprinted, so only their presence is recorded
 * @param ui the names of the view's {@code @Ui} methods, sorted: their blocks depend on the data,
 *     so only which methods exist is recorded (empty, and absent from the file, for none)
 */
public record PresenterContract(
    String name,
    List<String> fields,
    String egress,
    Map<String, String> fieldDescriptions,
    List<String> rules,
    String rulesDigest,
    boolean dynamicRules,
    List<String> ui) {

  public PresenterContract {
    fields = List.copyOf(fields);
    fieldDescriptions = java.util.Collections.unmodifiableMap(new TreeMap<>(fieldDescriptions));
    rules = List.copyOf(rules);
    ui = List.copyOf(ui);
  }

  static PresenterContract of(PresenterBinding<?, ?> binding) {
    Object schema = Json.parse(binding.outputSchemaJson());
    Map<String, Object> egress = new TreeMap<>();
    egress.put("fields", binding.fieldNames());
    egress.put("schema", Canonical.withoutDescriptions(schema));
    List<String> rules = binding.staticRules();
    return new PresenterContract(
        binding.viewType().getName(),
        binding.fieldNames(),
        Canonical.digest(egress),
        Canonical.propertyDescriptions(schema),
        rules,
        Canonical.digest(rules),
        hasRulesMethod(binding.viewType()),
        uiMethods(binding.viewType()));
  }

  /**
   * {@link PresenterBinding} has no "has dynamic rules" flag; {@code @Rules} is kept at run time, so
   * the view's declared methods tell (reading them loads the class but runs none of its code).
   */
  private static boolean hasRulesMethod(Class<?> viewType) {
    Method[] methods = viewType.getDeclaredMethods();
    return Arrays.stream(methods).anyMatch(m -> m.isAnnotationPresent(Rules.class));
  }

  /** The {@code @Ui} method names, read like {@link #hasRulesMethod} (sorted: reflection has no order). */
  private static List<String> uiMethods(Class<?> viewType) {
    return Arrays.stream(viewType.getDeclaredMethods())
        .filter(m -> m.isAnnotationPresent(Ui.class)).map(Method::getName).sorted().toList();
  }

  Map<String, Object> toTree() {
    Map<String, Object> rulesTree = new TreeMap<>();
    rulesTree.put("dynamic", dynamicRules);
    rulesTree.put("lines", rules);
    rulesTree.put("static", rulesDigest);
    Map<String, Object> tree = new TreeMap<>();
    tree.put("egress", egress);
    tree.put("fieldDescriptions", fieldDescriptions);
    tree.put("fields", fields);
    tree.put("name", name);
    tree.put("rules", rulesTree);
    if (!ui.isEmpty()) {
      // Only when there are some, so the lockfiles of views without UI blocks keep their bytes.
      tree.put("ui", ui);
    }
    return tree;
  }

  static PresenterContract fromTree(TreeReader r) {
    TreeReader rules = r.object("rules");
    return new PresenterContract(r.string("name"), r.strings("fields"), r.string("egress"),
        r.stringMap("fieldDescriptions"), rules.strings("lines"), rules.string("static"),
        rules.bool("dynamic"), r.has("ui") ? r.strings("ui") : List.of());
  }
}
