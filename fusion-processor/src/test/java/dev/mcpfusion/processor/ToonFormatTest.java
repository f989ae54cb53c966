package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import dev.mcpfusion.annotation.Format;
import dev.mcpfusion.core.spi.PresenterBinding;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/** {@code @Presenter(format)} reaches the generated binding; the default writes nothing new. */
class ToonFormatTest {
  static final JavaFileObject TOON_VIEW = Fixtures.source("billing.InvoiceRow",
      "package billing;",
      "import dev.mcpfusion.annotation.*;",
      "@Presenter(model = Invoice.class, format = Format.TOON,"
          + " ignore = {\"webhookSecret\", \"internalFlags\", \"tenantId\"})",
      "public record InvoiceRow(String id, long totalCents, InvoiceStatus status) {}");

  @Test
  void toonViewsBindingSaysToon() throws Exception {
    Compilation c = Fixtures.compile(Fixtures.INVOICE_STATUS, Fixtures.INVOICE, TOON_VIEW);
    assertThat(c).succeeded();
    assertThat(Fixtures.generatedSource(c, "billing.InvoiceRow_Presenter"))
        .contains("public Format format() {\n    return Format.TOON;\n  }");
    PresenterBinding<?, ?> binding = (PresenterBinding<?, ?>) Fixtures.loader(c)
        .loadClass("billing.InvoiceRow_Presenter").getField("INSTANCE").get(null);
    assertThat(binding.format()).isEqualTo(Format.TOON);
  }

  @Test
  void aJsonViewKeepsTheDefault() throws Exception {
    Compilation c = Fixtures.compile(Fixtures.billing());
    assertThat(c).succeeded();
    assertThat(Fixtures.generatedSource(c, "billing.InvoiceView_Presenter")).doesNotContain("format()");
    PresenterBinding<?, ?> binding = (PresenterBinding<?, ?>) Fixtures.loader(c)
        .loadClass("billing.InvoiceView_Presenter").getField("INSTANCE").get(null);
    assertThat(binding.format()).isEqualTo(Format.JSON);
  }
}
