package dev.mcpfusion.core.server;

import dev.mcpfusion.core.egress.Egress;
import dev.mcpfusion.core.spi.IconDescriptor;
import dev.mcpfusion.core.trace.FusionTracer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the answerers of prompts, resources and completions ({@link PromptCalls},
 * {@link ResourceCalls}, {@link CompletionCalls}) share: the registry they serve, the egress chain
 * their answers pass, the server's tracer, the runner of user code and the presenter of data.
 */
abstract class FeatureAnswers {
  final FeatureRegistry registry;
  final Egress egress;
  final FusionTracer tracer;
  final FeatureRunner runner;
  final FeaturePresenter presenter;

  FeatureAnswers(FeatureRegistry registry, Egress egress, FusionTracer tracer, FeatureRunner runner,
      FeaturePresenter presenter) {
    this.registry = registry;
    this.egress = egress;
    this.tracer = tracer;
    this.runner = runner;
    this.presenter = presenter;
  }

  /**
   * Puts a member's {@code icons} into its list entry, each key only when set; a member without
   * icons gets no {@code icons} key (an empty array would read as "has icons, none usable").
   */
  static void putIcons(Map<String, Object> entry, List<IconDescriptor> icons) {
    if (icons.isEmpty()) {
      return;
    }
    List<Object> out = new ArrayList<>(icons.size());
    for (IconDescriptor i : icons) {
      Map<String, Object> icon = new LinkedHashMap<>();
      icon.put("src", i.src());
      if (!i.mimeType().isEmpty()) {
        icon.put("mimeType", i.mimeType());
      }
      if (!i.sizes().isEmpty()) {
        icon.put("sizes", i.sizes());
      }
      if (!i.theme().isEmpty()) {
        icon.put("theme", i.theme());
      }
      out.add(icon);
    }
    entry.put("icons", out);
  }
}
