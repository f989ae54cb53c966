package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.mcpfusion.processor.Fixtures.source;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/** A router whose types another processor generates in a later round is processed then. */
class DeferralTest {

  /** Generates {@code shop.Query} (a record) in the first round, like another annotation processor. */
  static final class RecordGenerator extends AbstractProcessor {
    private boolean done;

    @Override
    public Set<String> getSupportedAnnotationTypes() {
      return Set.of("*");
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
      return SourceVersion.latestSupported();
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
      if (!done) {
        done = true;
        try (Writer w = processingEnv.getFiler().createSourceFile("shop.Search").openWriter()) {
          w.write("package shop; public record Search(String text, int limit) {}");
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return false;
    }
  }

  @Test
  void routerUsingATypeGeneratedLaterIsDeferredNotBroken() {
    JavaFileObject router = source("shop.SearchTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(\"search\")",
        "public class SearchTools {",
        "  @Query(description = \"Search\")",
        "  public int search(Search search) { return search.limit(); }",
        "}");
    Compilation c = Compiler.javac()
        .withProcessors(new RecordGenerator(), new FusionProcessor())
        .withClasspath(Fixtures.classpath())
        .compile(router);
    assertThat(c).succeededWithoutWarnings();
    assertThat(Fixtures.generatedSource(c, "shop.SearchTools_Fusion"))
        .contains("\\\"properties\\\":{\\\"text\\\":{\\\"type\\\":\\\"string\\\"},"
            + "\\\"limit\\\":{\\\"type\\\":\\\"integer\\\"}}")
        .contains("private static Search decodeSearch(Object raw, String path, Problems p)");
  }
}
