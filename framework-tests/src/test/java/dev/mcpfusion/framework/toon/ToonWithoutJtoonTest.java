package dev.mcpfusion.framework.toon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.annotation.Format;
import dev.mcpfusion.annotation.Model;
import dev.mcpfusion.annotation.Presenter;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.core.FusionServer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * jtoon is an optional dependency of fusion-core, and this module does not add it: a server with a
 * TOON view is refused at build time with the fix, instead of failing on its first call.
 */
class ToonWithoutJtoonTest {
  @Model(description = "A row")
  public record Row(String id) {}

  @Presenter(model = Row.class, format = Format.TOON)
  public record RowView(String id) {}

  @Presenter(model = Row.class)
  public record JsonRowView(String id) {}

  @Router(value = "rows", description = "Rows")
  public static final class ToonRows {
    @Query(description = "List the rows", presenter = RowView.class)
    public List<Row> listRows() {
      return List.of(new Row("r-1"));
    }
  }

  @Router(value = "plain", description = "Rows as JSON")
  public static final class JsonRows {
    @Query(description = "List the rows", presenter = JsonRowView.class)
    public List<Row> listRows() {
      return List.of(new Row("r-1"));
    }
  }

  @Test
  void jtoonIsNotOnThisClassPath() {
    assertThatThrownBy(() -> Class.forName("dev.toonformat.jtoon.encoder.ValueEncoder"))
        .isInstanceOf(ClassNotFoundException.class);
  }

  @Test
  void aToonViewWithoutJtoonIsABuildProblem() {
    assertThatThrownBy(() -> FusionServer.builder("rows", "1").register(new ToonRows()).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("[fusion/ToonMissing] ToonRows.listRows presents"
            + " its result with RowView, declared @Presenter(format = TOON), but"
            + " dev.toonformat:jtoon is not on the class path. Add the dependency"
            + " dev.toonformat:jtoon (fusion-bom manages its version) or use format = JSON.");
  }

  @Test
  void toonDescriptionsWithoutJtoonAreABuildProblem() {
    assertThatThrownBy(() -> FusionServer.builder("plain", "1").register(new JsonRows())
        .toonDescriptions(true).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("[fusion/ToonMissing] toonDescriptions(true) writes GROUPED"
            + " descriptions as TOON tables, but dev.toonformat:jtoon is not on the class path."
            + " Add the dependency dev.toonformat:jtoon (fusion-bom manages its version) or drop"
            + " toonDescriptions(true).");
  }

  @Test
  void jsonViewsNeedNoJtoon() {
    assertThat(FusionServer.builder("plain", "1").register(new JsonRows()).build()).isNotNull();
  }
}
