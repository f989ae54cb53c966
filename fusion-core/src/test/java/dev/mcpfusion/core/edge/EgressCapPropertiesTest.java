package dev.mcpfusion.core.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.guard.EgressCap;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.presenter.ResultPresenter;
import dev.mcpfusion.wire.Blocks;
import dev.mcpfusion.wire.Reply;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The byte cap over random collection replies (any text, escapes and non-ASCII included): what it
 * lets through always parses, never exceeds the cap as the edge writes it, and keeps a prefix of
 * the items in the data block and in structuredContent alike; what cannot fit is PAYLOAD_TOO_LARGE.
 */
class EgressCapPropertiesTest {

  @Provide
  Arbitrary<List<Map<String, Object>>> items() {
    Arbitrary<String> text = Arbitraries.strings().all().ofMaxLength(400)
        .filter(s -> s.codePoints().allMatch(Character::isValidCodePoint)
            && s.chars().noneMatch(c -> Character.isSurrogate((char) c)));
    Arbitrary<Map<String, Object>> item = Combinators.combine(Arbitraries.integers(), text,
        Arbitraries.of(true, false)).as((n, s, b) -> {
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("n", n);
          m.put("text", s);
          m.put("flag", b);
          m.put("nested", List.of(Map.of("k", s.length() > 5 ? s.substring(0, 5) : s)));
          return m;
        });
    return item.list().ofMinSize(1).ofMaxSize(60);
  }

  private static Reply collection(List<Map<String, Object>> items, boolean truncatedBefore,
      boolean rules) {
    List<String> blocks = new ArrayList<>();
    blocks.add(Json.write(items));
    Map<String, Object> structured = new LinkedHashMap<>();
    structured.put("items", items);
    Map<String, Object> meta = new LinkedHashMap<>();
    if (truncatedBefore) {
      structured.put("truncated", Map.of("shown", items.size(), "hidden", 7L));
      blocks.add(Blocks.summaryBlock(Blocks.summary(items.size() + " shown, 7 hidden", null)));
      meta.put("mcpfusion/truncation", Map.of("shown", items.size(), "hidden", 7L));
    }
    if (rules) {
      blocks.add("<domain_rules>\n- Money is in integer cents & never \"rounded\".\n</domain_rules>");
      meta.put("mcpfusion/rules", List.of("Money is in integer cents & never \"rounded\"."));
    }
    return new Reply(List.of(), null, null, false).rewritten(blocks, structured, meta, items.size());
  }

  @Property(tries = 300)
  void underTheCapTheReplyParsesAndFits(@ForAll("items") List<Map<String, Object>> items,
      @ForAll @IntRange(min = 1024, max = 40_000) int cap, @ForAll boolean truncatedBefore,
      @ForAll boolean rules) {
    Reply reply = collection(items, truncatedBefore, rules);
    Reply fitted = EgressCap.fit(reply, cap, "router", "action", UnaryOperator.identity());

    byte[] body = Bodies.classicToolResult(7, fitted);
    int framing = "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":".length() + 1;
    assertThat(body.length - framing).as("measured as written").isEqualTo(EgressCap.resultBytes(fitted));
    assertThat(body.length - framing).isLessThanOrEqualTo(cap);
    @SuppressWarnings("unchecked")
    Map<String, Object> parsed = (Map<String, Object>) Json.parse(new String(body, StandardCharsets.UTF_8));
    @SuppressWarnings("unchecked")
    Map<String, Object> result = (Map<String, Object>) parsed.get("result");

    if (fitted.isError()) {
      assertThat(fitted.blocks().get(0)).contains("code=\"PAYLOAD_TOO_LARGE\"");
      // Not even the first item fits with what every reply carries.
      assertThat(EgressCap.resultBytes(collection(items.subList(0, 1), truncatedBefore, rules)))
          .isGreaterThan(cap - 512);
      return;
    }
    int k = fitted.items();
    assertThat(k).isBetween(1, items.size());
    assertThat(Json.parse(fitted.blocks().get(0))).isEqualTo(Json.parse(Json.write(items.subList(0, k))));
    @SuppressWarnings("unchecked")
    Map<String, Object> structured = (Map<String, Object>) result.get("structuredContent");
    assertThat(structured.get("items")).isEqualTo(Json.parse(Json.write(items.subList(0, k))));
    if (k < items.size()) {
      assertThat(fitted.blocks()).anyMatch(b -> b.startsWith("<ui_passthrough type=\"summary\">")
          && b.contains((items.size() - k) + " withheld to keep the reply under " + cap + " bytes"));
    } else {
      assertThat(fitted).isSameAs(reply);
    }
  }

  @Property(tries = 200)
  void aReplyThatFitsIsLeftAlone(@ForAll("items") List<Map<String, Object>> items) {
    Reply reply = collection(items, false, true);
    int size = (int) EgressCap.resultBytes(reply);
    assertThat(EgressCap.fit(reply, Math.max(1024, size), "r", "a", UnaryOperator.identity()))
        .isSameAs(reply);
  }

  @Property(tries = 100)
  void theMeasureIsWhatTheEdgeWrites(@ForAll("items") List<Map<String, Object>> items,
      @ForAll @IntRange(min = 0, max = 3) int kind) {
    Reply reply = switch (kind) {
      case 0 -> collection(items, true, true);
      case 1 -> new Reply(List.of(), null, null, true);
      case 2 -> new Reply(List.of(Json.write(items.get(0))), items.get(0), Map.of("mcpfusion/rules", List.of("r")), false);
      default -> new Reply(List.of("OK"), Map.of("result", "OK"), null, false);
    };
    int framing = "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"result\":".length() + 1;
    assertThat(Bodies.classicToolResult("x", reply).length - framing)
        .isEqualTo(EgressCap.resultBytes(reply));
  }
}
