package dev.mcpfusion.core.presenter;

import dev.mcpfusion.core.Page;
import dev.mcpfusion.core.UiBlock;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.spi.PresenterBinding;
import dev.mcpfusion.wire.Blocks;
import dev.mcpfusion.wire.Meta;
import dev.mcpfusion.wire.References;
import dev.mcpfusion.wire.Reply;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link Page} result: its items presented like a collection (from where the call's cursor
 * resumes, up to {@code agentLimit}), then the next cursor in the summary block,
 * {@code structuredContent.truncated} and {@code _meta["mcpfusion/truncation"]}.
 */
final class Pages {
  private Pages() {}

  static Reply present(Presentation presentation, Page<?> page, References refs, PerCall perCall) {
    PresenterBinding<Object, Object> binding = ResultPresenter.binding(presentation.action());
    int limit = Math.max(0, binding.agentLimit());
    List<?> items = page.items();
    int from = Math.min(perCall.skip(), items.size());
    ResultPresenter.Shown shown =
        new ResultPresenter.Shown(presentation, binding, Math.min(limit, 64), perCall);
    shown.json.append('[');
    boolean rest = ResultPresenter.pull(items.subList(from, items.size()).iterator(), limit, shown);
    int count = shown.trees.size();
    // The rest of this page when agentLimit cut it, else the handler's next page.
    String next = rest ? perCall.resume(count)
        : page.next() == null ? null : PerCall.encode(page.next(), 0);

    List<String> blocks = new ArrayList<>();
    blocks.add(shown.json.append(']').toString());
    Map<String, Object> structured = new LinkedHashMap<>();
    structured.put("items", shown.trees);
    Map<String, Object> meta = new LinkedHashMap<>();
    // {"items":<the data block>} as JSON text: the block is the items' JSON array.
    int structuredChars = blocks.get(0).length() + "{\"items\":}".length();
    if (next == null) {
      shown.finish(blocks, meta, refs);
      return Reply.owned(blocks, structured, meta, count, false, structuredChars,
          shown.metaChars(), blocks.get(0).length() + shown.finishedChars(),
          shown.onlyStaticRules());
    }
    Map<String, Object> truncation = new LinkedHashMap<>();
    truncation.put("shown", count);
    truncation.put("more", true);
    truncation.put("next", next);
    structured.put("truncated", truncation);
    structuredChars += ",\"truncated\":".length() + Json.write(truncation).length();
    shown.ui().add(UiBlock.summary(
        Blocks.summary(count + " shown, more available", perCall.advice(next))));
    shown.finish(blocks, meta, refs);
    meta.put(Meta.TRUNCATION, new LinkedHashMap<>(truncation));
    return Reply.owned(blocks, structured, meta, count, false, structuredChars, -1,
        blocks.get(0).length() + shown.finishedChars(), false);
  }
}
