package dev.mcpfusion.processor;

import static org.assertj.core.api.Assertions.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static dev.mcpfusion.processor.Fixtures.source;

import com.google.testing.compile.Compilation;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code @InputSchema}: the processor reads the schema document from the class path at compile
 * time and refuses a missing one, one that is not JSON, not an object schema, or that refers
 * outside itself; the parameter must be a {@code Map<String, Object>} and the action's only input.
 * A clean document is carried into the descriptor unchanged (compact, in document order).
 */
class InputSchemaDiagnosticsTest {
  private static final String SCHEMA = "{\n  \"$schema\": \"https://json-schema.org/draft/2020-12/schema\",\n"
      + "  \"type\": \"object\",\n  \"$defs\": {\"a\": {\"$anchor\": \"A\", \"type\": \"string\"}},\n"
      + "  \"properties\": {\"x\": {\"$ref\": \"#/$defs/a\"}, \"n\": {\"type\": \"number\", \"minimum\": 1.50}},\n"
      + "  \"if\": {\"required\": [\"x\"]}, \"then\": {\"required\": [\"n\"]}, \"else\": {},\n"
      + "  \"additionalProperties\": false\n}\n";

  @TempDir
  Path resources;

  private static JavaFileObject tools(String parameters) {
    return source("shop.DocTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "import java.util.Map;",
        "@Router(\"shop\")",
        "public class DocTools {",
        "  @Mutation(description = \"Book a slot\")",
        "  public String book(" + parameters + ") { return \"ok\"; }",
        "}");
  }

  private Compilation compile(JavaFileObject source, String resource, String text) throws IOException {
    if (resource != null) {
      Path file = resources.resolve(resource);
      Files.createDirectories(file.getParent());
      Files.writeString(file, text, StandardCharsets.UTF_8);
    }
    List<File> classpath = new ArrayList<>(Fixtures.classpath());
    classpath.add(resources.toFile());
    return javac().withProcessors(new FusionProcessor()).withClasspath(classpath).compile(source);
  }

  @Test
  void aCleanDocumentIsCarriedIntoTheDescriptorUnchanged() throws IOException {
    Compilation c = compile(tools("@InputSchema(\"schemas/book.json\") Map<String, Object> arguments"),
        "schemas/book.json", SCHEMA);
    assertThat(c).succeededWithoutWarnings();
    String generated = Fixtures.generatedSource(c, "shop.DocTools_Fusion");
    assertThat(generated).contains(".inputSchema(\"{\\\"$schema\\\":\\\"https://json-schema.org/draft/2020-12/schema\\\","
        + "\\\"type\\\":\\\"object\\\",\\\"$defs\\\":{\\\"a\\\":{\\\"$anchor\\\":\\\"A\\\",\\\"type\\\":\\\"string\\\"}},"
        + "\\\"properties\\\":{\\\"x\\\":{\\\"$ref\\\":\\\"#/$defs/a\\\"},\\\"n\\\":{\\\"type\\\":\\\"number\\\",\\\"minimum\\\":1.50}},"
        + "\\\"if\\\":{\\\"required\\\":[\\\"x\\\"]},\\\"then\\\":{\\\"required\\\":[\\\"n\\\"]},\\\"else\\\":{},"
        + "\\\"additionalProperties\\\":false}\")");
    assertThat(generated).contains("out[0] = Args.document(args)");
  }

  @Test
  void aMissingDocumentNamesThePathAndWhereToPutIt() throws IOException {
    JavaFileObject router = tools("@InputSchema(\"schemas/nope.json\") Map<String, Object> arguments");
    Compilation c = compile(router, null, null);
    assertThat(c).hadErrorContaining("[fusion/InputSchemaNotFound] DocTools.book parameter"
        + " 'arguments' names the schema resource \"schemas/nope.json\", which is not on the class"
        + " path. Put the document at src/main/resources/schemas/nope.json (resources are copied to"
        + " the class path before the processor runs), or correct the path.")
        .inFile(router).onLineContaining("schemas/nope.json");
    assertThat(c).hadErrorCount(1);
  }

  @Test
  void aDocumentThatIsNotJsonSaysWhereReadingStopped() throws IOException {
    Compilation c = compile(tools("@InputSchema(\"bad.json\") Map<String, Object> arguments"),
        "bad.json", "{\"type\": \"object\",\n \"properties\": {,}}");
    assertThat(c).hadErrorContaining("[fusion/InputSchemaInvalid] DocTools.book parameter"
        + " 'arguments' names the schema resource \"bad.json\", which is not JSON: expected a member"
        + " name in double quotes at line 2, column 17.");
  }

  @Test
  void aDocumentMustBeAnObjectSchemaThatStaysInsideItself() throws IOException {
    assertThat(compile(tools("@InputSchema(\"a.json\") Map<String, Object> arguments"), "a.json",
        "{\"type\": \"array\"}")).hadErrorContaining("[fusion/InputSchemaInvalid] DocTools.book"
        + " parameter 'arguments' names the schema resource \"a.json\", which does not say"
        + " \"type\": \"object\" at its top level (an MCP tool's input is an object).");
    assertThat(compile(tools("@InputSchema(\"b.json\") Map<String, Object> arguments"), "b.json",
        "{\"type\": \"object\", \"properties\": {\"p\": {\"$ref\": \"https://example.com/p.json\"}}}"))
        .hadErrorContaining("[fusion/InputSchemaInvalid] DocTools.book parameter 'arguments' names"
            + " the schema resource \"b.json\", which has \"$ref\": \"https://example.com/p.json\" at"
            + " /properties/p/$ref, which points outside the document");
    assertThat(compile(tools("@InputSchema(\"c.json\") Map<String, Object> arguments"), "c.json",
        "{\"$schema\": \"https://example.com/dialect\", \"type\": \"object\"}"))
        .hadErrorContaining("[fusion/InputSchemaInvalid] DocTools.book parameter 'arguments' names"
            + " the schema resource \"c.json\", which names the dialect \"https://example.com/dialect\""
            + " in $schema, which the validator does not know");
  }

  @Test
  void theParameterIsAMapAndTheOnlyInput() throws IOException {
    assertThat(compile(tools("@InputSchema(\"s.json\") String arguments"), "s.json", SCHEMA))
        .hadErrorContaining("[fusion/InputSchemaParameter] DocTools.book parameter 'arguments' is"
            + " @InputSchema, but its type is String, not Map<String, Object>. Take the whole input"
            + " as one Map<String, Object> parameter with @InputSchema; other parameters may only be"
            + " @Context values or RequestContext.");
    assertThat(compile(tools("@InputSchema(\"s.json\") Map<String, Object> arguments, String note"),
        "s.json", SCHEMA)).hadErrorContaining("[fusion/InputSchemaParameter] DocTools.book parameter"
        + " 'arguments' is @InputSchema, but the action also takes 'note' from the agent.");
  }
}
