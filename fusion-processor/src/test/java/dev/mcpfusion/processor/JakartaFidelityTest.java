package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.mcpfusion.processor.Fixtures.source;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import dev.mcpfusion.core.spi.GeneratedRouter;
import dev.mcpfusion.core.spi.Problem;
import dev.mcpfusion.core.spi.Problems;
import java.util.List;
import java.util.Map;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/** Built-in constraints keep their {@code message}, {@code groups} and {@code @Email} attributes. */
class JakartaFidelityTest {

  private static final JavaFileObject SIGNUP = source("acct.SignupTools",
      "package acct;",
      "import dev.mcpfusion.annotation.*;",
      "import jakarta.validation.constraints.*;",
      "@Router(\"acct\")",
      "public class SignupTools {",
      "  @Action(description = \"Sign up\")",
      "  public int signup(",
      "      @NotBlank(message = \"a name is needed\") String name,",
      "      @Size(min = 2, max = 4, message = \"between {min} and {max} letters\") String code,",
      "      @Min(value = 18, message = \"at least {value} years\") int age,",
      "      @Pattern(regexp = \"[a-z]+\", message = \"only {regexp}\") String handle,",
      "      @Email(regexp = \".*@example[.]com\") String email,",
      "      @Max(10) int plain) { return 0; }",
      "}");

  private static List<Problem> decode(Map<String, Object> args) throws Exception {
    Compilation c = Fixtures.compile(SIGNUP);
    assertThat(c).succeededWithoutWarnings();
    ClassLoader loader = Fixtures.loader(c);
    Class<?> tools = loader.loadClass("acct.SignupTools");
    GeneratedRouter router = (GeneratedRouter) loader.loadClass("acct.SignupTools_Fusion")
        .getMethod("bind", tools).invoke(null, tools.getConstructor().newInstance());
    Problems p = new Problems();
    router.decode(0, args, p);
    return p.list();
  }

  @Test
  void ownMessagesAreInterpolatedAndUsedOurCatalogueOtherwise() throws Exception {
    List<Problem> problems = decode(Map.of("name", " ", "code", "abcdef", "age", 12L,
        "handle", "ABC", "email", "a@b.example", "plain", 11L));
    assertThat(problems).extracting(Problem::path, Problem::message).containsExactly(
        org.assertj.core.groups.Tuple.tuple("name", "a name is needed"),
        org.assertj.core.groups.Tuple.tuple("code", "between 2 and 4 letters"),
        org.assertj.core.groups.Tuple.tuple("age", "at least 18 years"),
        org.assertj.core.groups.Tuple.tuple("handle", "only [a-z]+"),
        org.assertj.core.groups.Tuple.tuple("email", "must be a well-formed email address"),
        org.assertj.core.groups.Tuple.tuple("plain", "must be less than or equal to 10"));
    assertThat(problems.get(4).hint()).isEqualTo("Expected format: .*@example[.]com.");
  }

  @Test
  void aMissingRequiredValueGetsTheMessageOfTheConstraintThatRequiresIt() throws Exception {
    List<Problem> problems = decode(Map.of("code", "ab", "age", 20L, "handle", "abc",
        "email", "x@example.com", "plain", 1L));
    assertThat(problems).extracting(Problem::path, Problem::message)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("name", "a name is needed"));
  }

  private static final JavaFileObject GREETINGS = source("acct.Greetings",
      "package acct;",
      "import dev.mcpfusion.annotation.*;",
      "import jakarta.validation.constraints.*;",
      "public class Greetings {",
      "  @Prompt(description = \"Greet\")",
      "  public String greet(@NotBlank(message = \"say who to greet\") String who,",
      "      @Size(max = 3, message = \"at most {max} letters\") String mood,",
      "      @Pattern(regexp = \"[a-z]+\") String plain) { return who; }",
      "}");

  @Test
  void promptArgumentsGetTheConstraintsOwnMessageToo() throws Exception {
    Compilation c = Fixtures.compile(GREETINGS);
    assertThat(c).succeededWithoutWarnings();
    ClassLoader loader = Fixtures.loader(c);
    Class<?> type = loader.loadClass("acct.Greetings");
    dev.mcpfusion.core.spi.GeneratedFeatures f = (dev.mcpfusion.core.spi.GeneratedFeatures)
        loader.loadClass("acct.Greetings_Features").getMethod("bind", type)
            .invoke(null, type.getConstructor().newInstance());
    Problems p = new Problems();
    f.decodePrompt(0, Map.of("mood", "grumpy", "plain", "ABC"), p);
    assertThat(p.list()).extracting(Problem::path, Problem::message).containsExactly(
        org.assertj.core.groups.Tuple.tuple("who", "say who to greet"),
        org.assertj.core.groups.Tuple.tuple("mood", "at most 3 letters"),
        org.assertj.core.groups.Tuple.tuple("plain", "must match \"[a-z]+\""));
  }

  @Test
  void emailRegexpIsHonoured() throws Exception {
    assertThat(decode(Map.of("name", "n", "code", "ab", "age", 20L, "handle", "abc",
        "email", "x@example.com", "plain", 1L))).isEmpty();
  }

  @Test
  void groupsAreRejectedAtCompileTime() {
    JavaFileObject tools = source("acct.GroupTools",
        "package acct;",
        "import dev.mcpfusion.annotation.*;",
        "import jakarta.validation.constraints.*;",
        "@Router(\"grp\")",
        "public class GroupTools {",
        "  interface Strict {}",
        "  @Query(description = \"Find\")",
        "  public int find(@Size(max = 3, groups = Strict.class) String q) { return 0; }",
        "}");
    Compilation c = Fixtures.compile(tools);
    assertThat(c).hadErrorContaining("[fusion/ConstraintGroups] @Size on 'q' sets groups, but the"
        + " generated checks run every constraint on every call (no call selects a validation"
        + " group). Remove groups, or check the rule inside the action and throw a FusionError.")
        .inFile(tools).onLineContaining("groups = Strict.class");
  }
}
