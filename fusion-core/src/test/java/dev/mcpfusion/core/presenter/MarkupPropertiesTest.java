package dev.mcpfusion.core.presenter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.error.ErrorReplies;
import dev.mcpfusion.core.spi.Problem;
import dev.mcpfusion.core.sync.StateSync;
import dev.mcpfusion.wire.Markup;
import dev.mcpfusion.wire.References;
import dev.mcpfusion.wire.Reply;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class MarkupPropertiesTest {
  private static final Pattern ATTRIBUTE = Pattern.compile("=\"([^\"]*)\"");

  /** Undoes the five entities; {@code &amp;} last so nothing is decoded twice. */
  private static String unescape(String s) {
    return s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'")
        .replace("&amp;", "&");
  }

  @Property(tries = 500)
  void escapedTextHasNoRawLessThanOrBareAmpersand(@ForAll String s) {
    String escaped = Markup.text(s);
    assertThat(escaped).doesNotContain("<");
    assertThat(escaped.replaceAll("&(amp|lt);", "")).doesNotContain("&");
    assertThat(unescape(escaped)).isEqualTo(s);
  }

  @Property(tries = 500)
  void escapedAttributesHaveNoQuotesOrAngleBrackets(@ForAll String s) {
    String escaped = Markup.attribute(s);
    assertThat(escaped).doesNotContain("\"", "'", "<", ">");
    assertThat(escaped.replaceAll("&(amp|lt|gt|quot|apos);", "")).doesNotContain("&");
    assertThat(unescape(escaped)).isEqualTo(s);
  }

  @Property(tries = 300)
  void agentTextCannotOpenOrCloseAnElementInAnyEnvelope(@ForAll String value, @ForAll String path) {
    String validation = ErrorReplies.validation("billing", "get_invoice",
        List.of(new Problem(path, "must not be blank", value, null))).blocks().get(0);
    String unknown = ErrorReplies.unknownAction("billing", value, List.of("billing_list_invoices"))
        .blocks().get(0);
    String error = ErrorReplies.fusionError(FusionError.of("BAD", value).recovery(value).detail(path, value),
        References.asWritten()).blocks().get(0);

    for (String envelope : List.of(validation, unknown, error)) {
      // every '<' that remains starts one of our own tags
      assertThat(envelope.replaceAll("</?(validation_error|field|recovery|tool_error|message|"
          + "available_actions|action|details|detail)( [a-z]+=\"[^\"]*\")*>", "")).doesNotContain("<");
      // every attribute value is one quoted run without a raw quote inside
      Matcher m = ATTRIBUTE.matcher(envelope);
      while (m.find()) {
        assertThat(m.group(1)).doesNotContain("'", "<", ">");
      }
    }
  }

  @Property(tries = 300)
  void invalidationAttributesNeverContainRawQuotes(@ForAll String cause, @ForAll String domain) {
    Reply reply = StateSync.withInvalidation(new Reply(List.of("OK"), null, null, false), cause, List.of(domain));
    String mark = reply.blocks().get(0);
    assertThat(mark).startsWith("<cache_invalidation cause=\"").endsWith("\" />");
    String inner = mark.substring("<cache_invalidation ".length(), mark.length() - " />".length());
    assertThat(inner).matches("cause=\"[^\"'<>]*\" domains=\"[^\"'<>]*\"");
  }

  @Test
  void textEscapingLeavesOtherCharactersAlone() {
    assertThat(Markup.text("a > b \"q\" 'x' é")).isEqualTo("a > b \"q\" 'x' é");
    assertThat(Markup.text("<&>")).isEqualTo("&lt;&amp;>");
    assertThat(Markup.attribute("<&>\"'")).isEqualTo("&lt;&amp;&gt;&quot;&apos;");
  }
}
