package dev.mcpfusion.core.guard;

import dev.mcpfusion.core.error.ErrorReplies;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.wire.Blocks;
import dev.mcpfusion.wire.Meta;
import dev.mcpfusion.wire.Reply;
import dev.mcpfusion.wire.ToolResults;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;

/**
 * The byte cap of pipeline step 7, after redaction: a reply is measured as it is sent — its
 * {@code content} blocks, {@code structuredContent} and {@code _meta}, written as the tool result
 * object of a JSON-RPC response (the envelope around it, and the server name every 2026-07-28
 * result adds, are framing and not counted). A collection over the cap loses trailing items until
 * it fits — the data block is cut between array elements, never inside one — and says so in the
 * truncation summary (how many are shown, how many were withheld, narrow or page); a reply that
 * cannot fit, or whose first item alone does not, becomes {@code PAYLOAD_TOO_LARGE}.
 *
 * <p>Rules, suggestions and UI blocks are kept whole. With no cap set the step does nothing.
 */
public final class EgressCap {
  private static final String ADVICE = "Use filters to narrow results or request a smaller page.";

  private EgressCap() {}

  /**
   * Fits {@code reply} in {@code maxBytes}.
   *
   * @param maxBytes the cap; 0 or less for none
   * @param later what the steps after this one add to the reply (the state-sync mark), so that the
   *     reply measured is the one sent
   */
  public static Reply fit(Reply reply, int maxBytes, String router, String action,
      UnaryOperator<Reply> later) {
    return fit(reply, maxBytes, router, action, later, null);
  }

  /**
   * As {@link #fit(Reply, int, String, String, UnaryOperator)} for a page result: when items are
   * withheld, the next cursor resumes right after the last item sent ({@code paging.resume(k)}), so
   * nothing is lost and the summary tells the agent how to continue.
   *
   * @param paging the page position of the call, or {@code null} for a result that is not a page
   */
  public static Reply fit(Reply reply, int maxBytes, String router, String action,
      UnaryOperator<Reply> later, Paging paging) {
    if (maxBytes <= 0) {
      return reply;
    }
    Reply sent = later.apply(reply);
    // Most replies are far below the cap: a bound costs a walk over the tree, writing nothing.
    if (upperBound(sent) <= maxBytes || resultBytes(sent) <= maxBytes) {
      return reply;
    }
    int n = reply.items();
    int[] ends = n > 0 && !reply.isError() ? ends(reply, n) : null;
    if (ends == null || !(reply.structuredContent() != null
        && reply.structuredContent().get("items") instanceof List<?>)) {
      return ErrorReplies.payloadTooLarge(router, action, maxBytes, false);
    }
    Reply best = null;
    int lo = 1;
    int hi = n - 1;
    while (lo <= hi) {
      int k = (lo + hi) >>> 1;
      Reply candidate = firstItems(reply, k, ends, maxBytes, paging);
      if (resultBytes(later.apply(candidate)) <= maxBytes) {
        best = candidate;
        lo = k + 1;
      } else {
        hi = k - 1;
      }
    }
    return best != null ? best : ErrorReplies.payloadTooLarge(router, action, maxBytes, true);
  }

  /** The collection reply with only its first {@code k} of {@code ends.length} items, summarised. */
  private static Reply firstItems(Reply reply, int k, int[] ends, int maxBytes, Paging paging) {
    int n = ends.length;
    int withheld = n - k;
    Map<String, Object> structured = new LinkedHashMap<>(reply.structuredContent());
    List<?> items = (List<?>) structured.get("items");
    structured.put("items", new ArrayList<>(items.subList(0, k)));
    // A JSON array is cut at an element end; a TOON table (its header counts the rows) is rewritten.
    String data = reply.toonData()
        ? reply.itemsBlock(items.subList(0, k))
        : reply.blocks().get(0).substring(0, ends[k - 1]) + "]";
    boolean more = false;
    long hiddenBefore = 0;
    if (structured.get("truncated") instanceof Map<?, ?> before) {
      more = Boolean.TRUE.equals(before.get("more"));
      if (before.get("hidden") instanceof Number h) {
        hiddenBefore = h.longValue();
      }
    }
    Map<String, Object> truncated = new LinkedHashMap<>();
    truncated.put("shown", k);
    String why = withheld + " withheld to keep the reply under " + maxBytes + " bytes";
    String counts;
    String advice = ADVICE;
    if (paging != null) {
      String next = paging.resume(k);
      truncated.put("more", true);
      truncated.put("next", next);
      counts = k + " shown, more available (" + why + ")";
      advice = paging.advice(next);
    } else if (more) {
      truncated.put("more", true);
      counts = k + " shown, more available (" + why + ")";
    } else {
      long hidden = hiddenBefore + withheld;
      truncated.put("hidden", hidden);
      counts = hiddenBefore > 0
          ? k + " shown, " + hidden + " hidden (" + why + ")"
          : k + " shown, " + why;
    }
    structured.put("truncated", truncated);

    List<String> blocks = new ArrayList<>(reply.blocks());
    blocks.set(0, data);
    String summary = Blocks.summaryBlock(Blocks.summary(counts, advice));
    int at = -1;
    for (int i = 1; i < blocks.size(); i++) {
      if (blocks.get(i).startsWith(Blocks.SUMMARY_OPEN)) {
        at = i;
        break;
      }
    }
    if (at > 0) {
      blocks.set(at, summary);
    } else {
      blocks.add(1, summary);
    }

    Map<String, Object> meta = new LinkedHashMap<>(reply.meta());
    Map<String, Object> truncation = new LinkedHashMap<>(truncated);
    truncation.put("withheld", withheld);
    truncation.put("maxBytes", maxBytes);
    meta.put(Meta.TRUNCATION, truncation);
    return reply.rewritten(blocks, structured, meta, k);
  }

  /**
   * Where each of the {@code n} items of a collection reply ends in its data block; for a block that
   * is not a JSON array (a TOON table, rewritten whole when cut) any increasing offsets do.
   */
  private static int[] ends(Reply reply, int n) {
    if (!reply.toonData()) {
      return elementEnds(reply.blocks().get(0), n);
    }
    if (!(reply.structuredContent() != null
        && reply.structuredContent().get("items") instanceof List<?> items && items.size() == n)) {
      return null;
    }
    int[] ends = new int[n];
    for (int i = 0; i < n; i++) {
      ends[i] = i + 1;
    }
    return ends;
  }

  /**
   * For a JSON array of exactly {@code n} elements, the offset of the character that ends each
   * element (its {@code ,} or the closing {@code ]}); {@code null} when the text is not such an array.
   */
  static int[] elementEnds(String json, int n) {
    if (json.length() < 2 || json.charAt(0) != '[') {
      return null;
    }
    int[] ends = new int[n];
    int count = 0;
    int depth = 0;
    boolean inString = false;
    for (int i = 1; i < json.length(); i++) {
      char c = json.charAt(i);
      if (inString) {
        if (c == '\\') {
          i++;
        } else if (c == '"') {
          inString = false;
        }
        continue;
      }
      switch (c) {
        case '"' -> inString = true;
        case '{', '[' -> depth++;
        case '}', ']' -> {
          if (depth == 0) {
            if (count < n) {
              ends[count++] = i;
            }
            return count == n && i == json.length() - 1 ? ends : null;
          }
          depth--;
        }
        case ',' -> {
          if (depth == 0) {
            if (count == n) {
              return null;
            }
            ends[count++] = i;
          }
        }
        default -> { }
      }
    }
    return null;
  }

  /**
   * The UTF-8 size of {@code reply} as a tool result object: {@code content} (text blocks and
   * attachments), {@code isError}, {@code structuredContent} and {@code _meta}, written by the same
   * {@link ToolResults} the edge writes them with.
   */
  public static long resultBytes(Reply reply) {
    StringBuilder out = new StringBuilder(1024);
    ToolResults.appendClassicResult(reply, out);
    return utf8Length(out);
  }


  /**
   * An upper bound of {@link #resultBytes}, without writing anything: every character of a string
   * counts 6 bytes (the longest a JSON writer makes of one UTF-16 unit: a {@code \\u} escape and
   * four hex digits), every number 24 (the longest {@code Double.toString}); anything else is
   * measured exactly.
   */
  static long upperBound(Reply reply) {
    long bound = 64; // {"content":[],"isError":false,"structuredContent":,"_meta":}
    List<String> blocks = reply.blocks();
    bound += 26L * blocks.size(); // {"type":"text","text":""}, per block
    int textChars = reply.textChars();
    if (textChars >= 0) {
      // Counted by the presenter as it wrote the blocks: no walk over them.
      bound += 6L * textChars;
    } else {
      for (int i = 0; i < blocks.size(); i++) {
        bound += 6L * blocks.get(i).length();
      }
    }
    Bound tree = new Bound();
    int structuredChars = reply.structuredChars();
    if (structuredChars >= 0) {
      // Its JSON text is known: a UTF-16 unit is at most 3 bytes of UTF-8 (a pair, 4 for 2 units).
      tree.total += 3L * structuredChars;
    } else {
      tree.add(reply.structuredContent());
    }
    int metaChars = reply.metaChars();
    if (metaChars >= 0) {
      tree.total += 3L * metaChars;
    } else {
      tree.add(reply.meta());
    }
    List<Map<String, Object>> attached = reply.attachments();
    if (!attached.isEmpty()) {
      tree.add(attached);
    }
    return bound + tree.total;
  }

  /**
   * The bound of a tree, summed as it is walked. Maps are read with {@code forEach}: a reply's maps
   * are unmodifiable views, whose entry set wraps every entry it hands out, and this runs on every
   * call with a cap.
   */
  private static final class Bound implements BiConsumer<Object, Object> {
    private long total;
    private int depth;

    void add(Object value) {
      if (value == null) {
        total += 4;
      } else if (value instanceof String s) {
        total += 2 + 6L * s.length();
      } else if (value instanceof Boolean) {
        total += 5;
      } else if (value instanceof Integer || value instanceof Long || value instanceof Double
          || value instanceof Float || value instanceof Short || value instanceof Byte) {
        total += 24;
      } else if (depth < 64 && value instanceof Map<?, ?> map) {
        total += 2;
        depth++;
        map.forEach(this);
        depth--;
      } else if (depth < 64 && value instanceof List<?> list) {
        total += 2;
        depth++;
        int size = list.size();
        total += size;
        if (list instanceof RandomAccess) {
          for (int i = 0; i < size; i++) {
            add(list.get(i));
          }
        } else {
          for (Object item : list) {
            add(item);
          }
        }
        depth--;
      } else {
        StringBuilder exact = new StringBuilder();
        Json.appendValue(value, exact);
        total += utf8Length(exact);
      }
    }

    @Override
    public void accept(Object key, Object value) {
      total += 2;
      add(key);
      add(value);
    }
  }

  private static long utf8Length(CharSequence s) {
    long bytes = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        bytes++;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }

  /**
   * Where a page result stands, so that items the cap withholds are not lost: the presenter's
   * per-call state implements it for an action that returns a page.
   */
  public interface Paging {
    /** The wire cursor that resumes after {@code shown} more items of the page this call asked for. */
    String resume(int shown);

    /** The advice that ends the summary of a page whose next cursor is {@code next}. */
    String advice(String next);
  }
}
