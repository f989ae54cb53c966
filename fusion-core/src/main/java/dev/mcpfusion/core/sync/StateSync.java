package dev.mcpfusion.core.sync;

import dev.mcpfusion.wire.Blocks;
import dev.mcpfusion.wire.Meta;
import dev.mcpfusion.wire.Reply;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pipeline step 8: causal invalidation marks on successful mutations. The {@code cause} and the
 * domains stay logical ({@code billing.void_invoice}, {@code billing.*}).
 */
public final class StateSync {
  private StateSync() {}

  /**
   * Prepends {@code <cache_invalidation cause="..." domains="a,b" />} to the blocks and adds
   * {@code mcpfusion/invalidation {cause, domains[]}} to the meta; returns {@code reply} unchanged
   * when {@code domains} is empty or the reply is an error (warnings included).
   */
  public static Reply withInvalidation(Reply reply, String cause, List<String> domains) {
    if (reply.isError() || domains == null || domains.isEmpty()) {
      return reply;
    }
    String mark = Blocks.invalidation(cause, domains);
    List<String> blocks = new ArrayList<>(reply.blocks().size() + 1);
    blocks.add(mark);
    blocks.addAll(reply.blocks());
    Map<String, Object> invalidation = new LinkedHashMap<>();
    invalidation.put("cause", cause);
    invalidation.put("domains", List.copyOf(domains));
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put(Meta.INVALIDATION, invalidation);
    meta.putAll(reply.meta());
    return reply.rewritten(blocks, reply.structuredContent(), meta, reply.items());
  }
}
