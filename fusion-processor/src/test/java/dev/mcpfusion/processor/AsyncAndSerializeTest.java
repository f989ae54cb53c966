package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.mcpfusion.processor.Fixtures.source;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.google.testing.compile.Compilation;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.ElementKind;
import dev.mcpfusion.core.spi.GeneratedRouter;
import dev.mcpfusion.core.spi.ResultShape;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * An async handler's {@code CompletionStage<T>} is read as its {@code T} (shape, schema and
 * presenter), and {@code @SerializeOn} must name one of the action's arguments.
 */
class AsyncAndSerializeTest {

  @Test
  void aStagesValueDecidesTheResultShapeAsABlockingReturnWould() throws Exception {
    JavaFileObject tools = source("billing.LaterTools",
        "package billing;",
        "import dev.mcpfusion.annotation.*;",
        "import java.util.*;",
        "import java.util.concurrent.*;",
        "@Router(\"later\")",
        "public class LaterTools {",
        "  @Query(description = \"a\", presenter = InvoiceView.class)",
        "  public CompletionStage<Invoice> one(String id) { return null; }",
        "  @Query(description = \"b\", presenter = InvoiceView.class)",
        "  public CompletableFuture<List<Invoice>> many() { return null; }",
        "  @Query(description = \"c\")",
        "  public CompletableFuture<? extends Integer> count() { return null; }",
        "  @Mutation(description = \"d\")",
        "  @SerializeOn(\"id\")",
        "  public CompletionStage<Void> touch(String id) { return null; }",
        "}");
    Compilation c = Fixtures.compile(Fixtures.INVOICE_STATUS, Fixtures.INVOICE,
        Fixtures.INVOICE_VIEW, tools);
    assertThat(c).succeededWithoutWarnings();
    ClassLoader loader = Fixtures.loader(c);
    Class<?> type = loader.loadClass("billing.LaterTools");
    GeneratedRouter r = (GeneratedRouter) loader.loadClass("billing.LaterTools_Fusion")
        .getMethod("bind", type).invoke(null, type.getConstructor().newInstance());
    assertThat(r.descriptor().actions()).extracting(ActionDescriptor::name,
            ActionDescriptor::resultShape, ActionDescriptor::elementKind,
            a -> a.presenter() == null ? null : a.presenter().getClass().getSimpleName(),
            ActionDescriptor::resultSchemaJson)
        .containsExactly(
            tuple("one", ResultShape.SINGLE, ElementKind.MODEL, "InvoiceView_Presenter", null),
            tuple("many", ResultShape.COLLECTION, ElementKind.MODEL, "InvoiceView_Presenter", null),
            tuple("count", ResultShape.VALUE, ElementKind.NONE, null, "{\"type\":\"integer\"}"),
            tuple("touch", ResultShape.VOID, ElementKind.NONE, null, null));
  }

  @Test
  void aStageWhoseValueCannotBeReadIsAnError() {
    JavaFileObject tools = source("billing.RawTools",
        "package billing;",
        "import dev.mcpfusion.annotation.*;",
        "import java.util.concurrent.*;",
        "@Router(\"raw\")",
        "public class RawTools {",
        "  @Query(description = \"a\")",
        "  @SuppressWarnings(\"rawtypes\")",
        "  public CompletionStage untyped() { return null; }",
        "  @Query(description = \"b\")",
        "  public CompletableFuture<CompletionStage<String>> nested() { return null; }",
        "  @Query(description = \"c\")",
        "  public CompletableFuture<?> anything() { return null; }",
        "}");
    Compilation c = Fixtures.compile(tools);
    assertThat(c).hadErrorContaining("[fusion/AsyncResultUnreadable] RawTools.untyped returns"
        + " CompletionStage, whose value type cannot be read. Return CompletionStage<T> or"
        + " CompletableFuture<T> with T a type you could return directly (CompletionStage<Void> for"
        + " no value).").inFile(tools).onLineContaining("untyped()");
    assertThat(c).hadErrorContaining("[fusion/AsyncResultUnreadable] RawTools.nested returns")
        .inFile(tools).onLineContaining("nested()");
    assertThat(c).hadErrorContaining("[fusion/AsyncResultUnreadable] RawTools.anything returns")
        .inFile(tools).onLineContaining("anything()");
  }

  @Test
  void serializeOnMustNameAnArgumentOfTheAction() {
    JavaFileObject tools = source("billing.VoidTools",
        "package billing;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"voids\")",
        "public class VoidTools {",
        "  @Mutation(description = \"a\")",
        "  @SerializeOn(\"invoiceID\")",
        "  public String voidInvoice(String invoiceId, String reason) { return \"\"; }",
        "  @Mutation(description = \"b\")",
        "  @SerializeOn(value = \"invoiceId\", queue = -1)",
        "  public String refund(String invoiceId) { return \"\"; }",
        "}");
    Compilation c = Fixtures.compile(tools);
    assertThat(c).hadErrorContaining("[fusion/UnknownSerializeKey] VoidTools.voidInvoice is annotated"
        + " @SerializeOn(\"invoiceID\"), which is not an argument of the action. Did you mean"
        + " 'invoiceId'? Name one of its arguments: invoiceId, reason.")
        .inFile(tools).onLineContaining("@SerializeOn(\"invoiceID\")");
    assertThat(c).hadErrorContaining("[fusion/UnknownSerializeKey] VoidTools.refund sets"
        + " @SerializeOn(queue = -1), but a queue cannot be negative. Use 0 (no call waits) or more.")
        .inFile(tools).onLineContaining("queue = -1");
  }
}
