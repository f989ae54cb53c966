package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.mcpfusion.processor.Fixtures.source;

import com.google.testing.compile.Compilation;
import org.junit.jupiter.api.Test;

/**
 * One small source per feature, and every file generated from it pinned by a golden file under
 * {@code src/test/resources/golden/<feature>/}. Regenerate with {@code -Dfusion.updateGolden=true}
 * (see the module README).
 */
class GoldenFeaturesTest {

  @Test
  void nestedRecords() {
    Compilation c = Fixtures.compile(
        source("nested.Address", "package nested;",
            "public record Address(String city, @jakarta.validation.constraints.NotBlank String zip) {}"),
        source("nested.Customer", "package nested;",
            "public record Customer(String name, Address address) {}"),
        source("nested.Views", "package nested;",
            "import dev.mcpfusion.annotation.*;",
            "public final class Views {",
            "  @Presenter(model = Address.class) public record AddressView(String city) {}",
            "  @Presenter(model = Customer.class)",
            "  public record CustomerView(String name, AddressView address) {}",
            "}"),
        source("nested.CrmTools", "package nested;",
            "import dev.mcpfusion.annotation.*;",
            "@Router(value = \"crm\", description = \"Customers\")",
            "public class CrmTools {",
            "  @Mutation(description = \"Add a customer\", presenter = Views.CustomerView.class)",
            "  public Customer add(Customer customer) { return customer; }",
            "}"));
    assertThat(c).succeeded();
    Golden.assertMatches("nested", c, "nested.CrmTools_Fusion", "nested.Views_CustomerView_Presenter",
        "nested.Views_AddressView_Presenter");
  }

  @Test
  void commonRecord() {
    Compilation c = Fixtures.compile(
        source("common.Scope", "package common;",
            "import dev.mcpfusion.annotation.Describe;",
            "public record Scope(@Describe(\"The workspace\") String workspace, int shard) {}"),
        source("common.DocTools", "package common;",
            "import dev.mcpfusion.annotation.*;",
            "@Router(value = \"docs\", common = Scope.class)",
            "public class DocTools {",
            "  @Query(description = \"Count documents\")",
            "  public long count(Scope scope, String prefix) { return 0; }",
            "  @Query(description = \"Ping\")",
            "  public String ping() { return \"pong\"; }",
            "}"));
    assertThat(c).succeeded();
    Golden.assertMatches("common", c, "common.DocTools_Fusion");
  }

  @Test
  void lists() {
    Compilation c = Fixtures.compile(
        source("lists.Item", "package lists;",
            "public record Item(String sku, int qty) {}"),
        source("lists.ItemView", "package lists;",
            "import dev.mcpfusion.annotation.*;",
            "import java.util.List;",
            "@Presenter(model = Item.class)",
            "public record ItemView(String sku, int qty) {}"),
        source("lists.CartTools", "package lists;",
            "import dev.mcpfusion.annotation.*;",
            "import jakarta.validation.constraints.*;",
            "import java.util.*;",
            "@Router(\"cart\")",
            "public class CartTools {",
            "  @Mutation(description = \"Fill the cart\", idempotent = true, presenter = ItemView.class)",
            "  public List<Item> fill(@NotEmpty @Size(max = 5) List<Item> items, Set<String> tags,",
            "      int[] slots) { return items; }",
            "}"));
    assertThat(c).succeeded();
    Golden.assertMatches("lists", c, "lists.CartTools_Fusion", "lists.ItemView_Presenter");
  }

  @Test
  void optionals() {
    Compilation c = Fixtures.compile(
        source("opt.Note", "package opt;",
            "import java.util.Optional;",
            "public record Note(String id, Optional<String> author) {}"),
        source("opt.NoteView", "package opt;",
            "import dev.mcpfusion.annotation.*;",
            "import java.util.Optional;",
            "@Presenter(model = Note.class)",
            "public record NoteView(String id, Optional<String> author) {}"),
        source("opt.NoteTools", "package opt;",
            "import dev.mcpfusion.annotation.*;",
            "import java.util.Optional;",
            "@Router(\"notes\")",
            "public class NoteTools {",
            "  @Query(description = \"Find a note\", presenter = NoteView.class)",
            "  public Optional<Note> find(String id, Optional<String> author) {",
            "    return Optional.empty();",
            "  }",
            "}"));
    assertThat(c).succeeded();
    Golden.assertMatches("optional", c, "opt.NoteTools_Fusion", "opt.NoteView_Presenter");
  }

  @Test
  void streams() {
    Compilation c = Fixtures.compile(
        source("streams.Event", "package streams;",
            "public record Event(String id, long at) {}"),
        source("streams.EventView", "package streams;",
            "import dev.mcpfusion.annotation.*;",
            "@Presenter(model = Event.class, agentLimit = 20)",
            "public record EventView(String id, long at) {}"),
        source("streams.EventTools", "package streams;",
            "import dev.mcpfusion.annotation.*;",
            "import java.util.stream.Stream;",
            "@Router(\"events\")",
            "public class EventTools {",
            "  @Query(description = \"Tail the events\", presenter = EventView.class)",
            "  @CacheControl(CachePolicy.NO_STORE)",
            "  public Stream<Event> tail() { return Stream.empty(); }",
            "  @Query(description = \"Read the events lazily\", presenter = EventView.class)",
            "  public Iterable<Event> read() { return java.util.List.of(); }",
            "}"));
    assertThat(c).succeeded();
    Golden.assertMatches("streams", c, "streams.EventTools_Fusion", "streams.EventView_Presenter");
  }

  @Test
  void enums() {
    Compilation c = Fixtures.compile(
        source("enums.Level", "package enums;", "public enum Level { LOW, HIGH }"),
        source("enums.Alarm", "package enums;",
            "import java.util.Set;",
            "public record Alarm(String id, Level level, Set<Level> seen) {}"),
        source("enums.AlarmView", "package enums;",
            "import dev.mcpfusion.annotation.*;",
            "import java.util.Set;",
            "@Presenter(model = Alarm.class)",
            "public record AlarmView(String id, Level level, Set<Level> seen) {}"),
        source("enums.AlarmTools", "package enums;",
            "import dev.mcpfusion.annotation.*;",
            "import jakarta.validation.constraints.NotNull;",
            "@Router(\"alarms\")",
            "public class AlarmTools {",
            "  @Mutation(description = \"Raise an alarm\", presenter = AlarmView.class)",
            "  @Invalidates(\"alarms.*\")",
            "  public Alarm raise(@NotNull Level level, java.util.List<Level> also) {",
            "    return new Alarm(\"a\", level, java.util.Set.of());",
            "  }",
            "  @Query(description = \"The current level\")",
            "  public Level level() { return Level.LOW; }",
            "}"));
    assertThat(c).succeeded();
    Golden.assertMatches("enums", c, "enums.AlarmTools_Fusion", "enums.AlarmView_Presenter");
  }

  @Test
  void customConstraints() {
    Compilation c = Fixtures.compile(
        source("custom.Even", "package custom;",
            "import jakarta.validation.Constraint;",
            "import jakarta.validation.Payload;",
            "import java.lang.annotation.*;",
            "@Constraint(validatedBy = {})",
            "@Retention(RetentionPolicy.RUNTIME)",
            "@Target({ElementType.PARAMETER, ElementType.FIELD, ElementType.METHOD})",
            "public @interface Even {",
            "  String message() default \"must be even\";",
            "  Class<?>[] groups() default {};",
            "  Class<? extends Payload>[] payload() default {};",
            "}"),
        source("custom.MathTools", "package custom;",
            "import dev.mcpfusion.annotation.*;",
            "import jakarta.validation.constraints.*;",
            "@Router(\"math\")",
            "public class MathTools {",
            "  @Query(description = \"Halve an even number\")",
            "  public int half(@Even @Min(0) int n, @Pattern(regexp = \"[a-z]+\") String unit) {",
            "    return n / 2;",
            "  }",
            "}"));
    assertThat(c).succeeded();
    Golden.assertMatches("constraints", c, "custom.MathTools_Fusion");
  }

  @Test
  void promptsResourcesAndCompletions() {
    Compilation c = Fixtures.compile(
        source("feat.Library", "package feat;",
            "import dev.mcpfusion.annotation.*;",
            "import jakarta.validation.constraints.*;",
            "import java.util.List;",
            "import java.util.Optional;",
            "public class Library {",
            "  public enum Tone { FRIENDLY, FIRM }",
            "  @Prompt(description = \"Write a reminder\", title = \"Reminder\")",
            "  public String remind(@NotBlank(message = \"say who\") @Describe(\"Who reads it\") String who,",
            "      Optional<String> note, Tone tone) { return who; }",
            "  @Resource(uri = \"lib://books/{isbn}\", description = \"A book\")",
            "  public String book(String isbn) { return isbn; }",
            "  @Resource(uri = \"lib://cover\", description = \"The cover\", mimeType = \"image/png\")",
            "  @Icon(src = \"https://lib.example/cover-48.png\", mimeType = \"image/png\", sizes = \"48x48\")",
            "  @Icon(src = \"https://lib.example/cover-dark.svg\", sizes = \"any\", theme = Icon.Theme.DARK)",
            "  public byte[] cover() { return new byte[0]; }",
            "  @Complete(prompt = \"remind\", argument = \"who\")",
            "  public List<String> readers(String prefix) { return List.of(prefix); }",
            "  @Complete(resource = \"lib://books/{isbn}\", argument = \"isbn\")",
            "  public List<String> isbns(String prefix) { return List.of(prefix); }",
            "}"));
    assertThat(c).succeeded();
    Golden.assertMatches("features", c, "feat.Library_Features");
  }

  @Test
  void aMismatchPrintsAUnifiedDiffOfTheChangedLines() {
    String diff = Golden.diff("a\nb\nc\nd\ne\nf\ng\nh\n", "a\nb\nc\nd\nE\nf\ng\nh\n");
    org.assertj.core.api.Assertions.assertThat(diff).isEqualTo(
        "@@ golden line 2 @@\n  b\n  c\n  d\n- e\n+ E\n  f\n  g\n  h\n");
  }
}
