package dev.mcpfusion.core.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.error.ErrorReplies;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.wire.References;
import dev.mcpfusion.wire.Reply;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StateSyncTest {
  private static final Reply SUCCESS = new Reply(
      List.of("{\"id\":\"INV-7\"}", "<domain_rules>\n- r\n</domain_rules>"),
      Map.of("id", "INV-7"), Map.of("mcpfusion/rules", List.of("r")), false);

  @Test
  void successfulMutationStartsWithTheInvalidationMark() {
    Reply reply = StateSync.withInvalidation(SUCCESS, "billing.void_invoice", List.of("billing.*"));

    assertThat(reply.blocks()).containsExactly(
        "<cache_invalidation cause=\"billing.void_invoice\" domains=\"billing.*\" />",
        "{\"id\":\"INV-7\"}", "<domain_rules>\n- r\n</domain_rules>");
    assertThat(reply.structuredContent()).isEqualTo(SUCCESS.structuredContent());
    assertThat(reply.isError()).isFalse();
    assertThat(Json.write(reply.meta())).isEqualTo("{\"mcpfusion/invalidation\":"
        + "{\"cause\":\"billing.void_invoice\",\"domains\":[\"billing.*\"]},\"mcpfusion/rules\":[\"r\"]}");
  }

  @Test
  void severalDomainsAreJoinedWithCommas() {
    Reply reply = StateSync.withInvalidation(SUCCESS, "billing.void_invoice",
        List.of("billing.*", "reports.totals"));

    assertThat(reply.blocks().get(0)).isEqualTo(
        "<cache_invalidation cause=\"billing.void_invoice\" domains=\"billing.*,reports.totals\" />");
    assertThat(Json.write(((Map<?, ?>) reply.meta().get("mcpfusion/invalidation")).get("domains")))
        .isEqualTo("[\"billing.*\",\"reports.totals\"]");
  }

  @Test
  void attributesAreEscaped() {
    Reply reply = StateSync.withInvalidation(SUCCESS, "a\"<&>'", List.of("x"));
    assertThat(reply.blocks().get(0))
        .isEqualTo("<cache_invalidation cause=\"a&quot;&lt;&amp;&gt;&apos;\" domains=\"x\" />");
  }

  @Test
  void noDomainsLeavesTheReplyUnchanged() {
    assertThat(StateSync.withInvalidation(SUCCESS, "billing.void_invoice", List.of())).isSameAs(SUCCESS);
    assertThat(StateSync.withInvalidation(SUCCESS, "billing.void_invoice", null)).isSameAs(SUCCESS);
  }

  @Test
  void errorsAndWarningsNeverCarryAMark() {
    Reply error = ErrorReplies.fusionError(FusionError.conflict("Already void."), References.asWritten());
    Reply warning = ErrorReplies.fusionError(FusionError.conflict("Already void.").warning(), References.asWritten());

    assertThat(StateSync.withInvalidation(error, "billing.void_invoice", List.of("billing.*"))).isSameAs(error);
    assertThat(StateSync.withInvalidation(warning, "billing.void_invoice", List.of("billing.*"))).isSameAs(warning);
  }
}
