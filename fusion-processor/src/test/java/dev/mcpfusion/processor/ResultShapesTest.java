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

/** How a method returns its data decides the descriptor's result shape and element kind. */
class ResultShapesTest {

  static final JavaFileObject SHAPES = source("billing.ShapeTools",
      "package billing;",
      "import dev.mcpfusion.annotation.*;",
      "import jakarta.validation.Valid;",
      "import jakarta.validation.constraints.Past;",
      "import java.time.LocalDate;",
      "import java.util.*;",
      "import java.util.stream.Stream;",
      "@Router(\"shapes\")",
      "public class ShapeTools {",
      "  @Query(description = \"a\", presenter = InvoiceView.class)",
      "  public Optional<Invoice> optional() { return Optional.empty(); }",
      "  @Query(description = \"b\", presenter = InvoiceView.class)",
      "  public Invoice[] array() { return new Invoice[0]; }",
      "  @Query(description = \"c\", presenter = InvoiceView.class)",
      "  public Stream<Invoice> stream() { return Stream.empty(); }",
      "  @Query(description = \"d\", presenter = InvoiceView.class)",
      "  public Iterable<Invoice> iterable() { return List.of(); }",
      "  @Query(description = \"e\", presenter = InvoiceView.class)",
      "  public List<Map<String, Object>> rows() { return List.of(); }",
      "  @Query(description = \"f\")",
      "  public InvoiceView view() { return null; }",
      "  @Query(description = \"g\")",
      "  public Set<InvoiceView> views() { return Set.of(); }",
      "  @Query(description = \"h\")",
      "  public boolean flag(@Past LocalDate since) { return true; }",
      "  @Action(description = \"i\")",
      "  public char letter(@Valid Tenant tenant) { return 'x'; }",
      "  @Query(description = \"j\")",
      "  public int size(List<@jakarta.validation.constraints.NotBlank String> names) { return 0; }",
      "  @Query(description = \"k\", presenter = InvoiceView.class)",
      "  public tools.jackson.databind.JsonNode tree() { return null; }",
      "}");

  @Test
  void shapesElementKindsAndBeanValidationAreResolved() throws Exception {
    JavaFileObject[] sources = List.of(Fixtures.INVOICE_STATUS, Fixtures.INVOICE,
        Fixtures.INVOICE_VIEW, Fixtures.TENANT, SHAPES).toArray(new JavaFileObject[0]);
    List<java.io.File> classpath = new java.util.ArrayList<>(Fixtures.classpath());
    classpath.add(new java.io.File(tools.jackson.databind.JsonNode.class.getProtectionDomain()
        .getCodeSource().getLocation().toURI()));
    Compilation c = com.google.testing.compile.Compiler.javac()
        .withProcessors(new FusionProcessor()).withClasspath(classpath).compile(sources);
    assertThat(c).succeededWithoutWarnings();
    ClassLoader loader = Fixtures.loader(c);
    Class<?> tools = loader.loadClass("billing.ShapeTools");
    GeneratedRouter r = (GeneratedRouter) loader.loadClass("billing.ShapeTools_Fusion")
        .getMethod("bind", tools).invoke(null, tools.getConstructor().newInstance());
    assertThat(r.descriptor().actions()).extracting(ActionDescriptor::name,
            ActionDescriptor::resultShape, ActionDescriptor::elementKind,
            a -> a.presenter() == null ? null : a.presenter().getClass().getSimpleName(),
            ActionDescriptor::resultSchemaJson, ActionDescriptor::beanValidation)
        .containsExactly(
            tuple("optional", ResultShape.OPTIONAL, ElementKind.MODEL, "InvoiceView_Presenter", null, false),
            tuple("array", ResultShape.ARRAY, ElementKind.MODEL, "InvoiceView_Presenter", null, false),
            tuple("stream", ResultShape.STREAM, ElementKind.MODEL, "InvoiceView_Presenter", null, false),
            tuple("iterable", ResultShape.ITERABLE, ElementKind.MODEL, "InvoiceView_Presenter", null, false),
            tuple("rows", ResultShape.COLLECTION, ElementKind.MAP, "InvoiceView_Presenter", null, false),
            tuple("view", ResultShape.SINGLE, ElementKind.VIEW, "InvoiceView_Presenter", null, false),
            tuple("views", ResultShape.COLLECTION, ElementKind.VIEW, "InvoiceView_Presenter", null, false),
            tuple("flag", ResultShape.VALUE, ElementKind.NONE, null, "{\"type\":\"boolean\"}", true),
            tuple("letter", ResultShape.VALUE, ElementKind.NONE, null, "{\"type\":\"string\"}", true),
            tuple("size", ResultShape.VALUE, ElementKind.NONE, null, "{\"type\":\"integer\"}", true),
            tuple("tree", ResultShape.SINGLE, ElementKind.TREE, "InvoiceView_Presenter", null, false));
  }
}
