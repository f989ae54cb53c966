package dev.mcpfusion.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.mcpfusion.processor.Fixtures.source;

import com.google.testing.compile.Compilation;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/** {@code @States}, {@code @AllowedIn}, {@code @Transition} and tags: each compile error, and a clean workflow. */
class WorkflowDiagnosticsTest {

  private static JavaFileObject orders(String states, String payAnnotations) {
    return source("shop.OrderTools",
        "package shop;",
        "import dev.mcpfusion.annotation.*;",
        "@Router(value = \"orders\", tags = {\"write\"})",
        states,
        "public class OrderTools {",
        "  @Mutation(description = \"Pay the order\")",
        "  " + payAnnotations,
        "  public String pay(String id) { return id; }",
        "  @Query(description = \"Show the order\")",
        "  public String show(String id) { return id; }",
        "}");
  }

  private static final String STATES =
      "@States(initial = \"draft\", value = {\"draft\", \"paid\", \"shipped\"})";

  @Test
  void aCleanWorkflowCompilesWithoutWarnings() {
    Compilation c = Fixtures.compile(orders(STATES,
        "@AllowedIn({\"draft\", \"paid\"}) @Transition(to = \"paid\") @Tags({\"pay\", \"money-out\"})"));
    assertThat(c).succeededWithoutWarnings();
  }

  @Test
  void anUnknownStateInAllowedInIsAnErrorWithTheNearestState() {
    JavaFileObject router = orders(STATES, "@AllowedIn(\"drafts\")");
    Compilation c = Fixtures.compile(router);
    assertThat(c).hadErrorContaining("[fusion/UnknownState] OrderTools.pay names the state 'drafts'"
        + " in @AllowedIn, but OrderTools declares only 'draft', 'paid', 'shipped'. Did you mean"
        + " 'draft'? Use one of those states, or add 'drafts' to @States.")
        .inFile(router).onLineContaining("@AllowedIn");
    assertThat(c).hadErrorCount(1);
  }

  @Test
  void anUnknownTransitionTargetIsAnError() {
    JavaFileObject router = orders(STATES, "@Transition(to = \"refunded\")");
    Compilation c = Fixtures.compile(router);
    assertThat(c).hadErrorContaining("[fusion/UnknownState] OrderTools.pay names the state"
        + " 'refunded' in @Transition, but OrderTools declares only 'draft', 'paid', 'shipped'. Use"
        + " one of those states, or add 'refunded' to @States.")
        .inFile(router).onLineContaining("@Transition");
    assertThat(c).hadErrorCount(1);
  }

  @Test
  void anInitialStateThatIsNotDeclaredIsAnError() {
    JavaFileObject router = orders("@States(initial = \"paied\", value = {\"draft\", \"paid\"})",
        "@AllowedIn(\"draft\")");
    Compilation c = Fixtures.compile(router);
    assertThat(c).hadErrorContaining("[fusion/UnknownState] OrderTools starts in the state 'paied',"
        + " which its @States does not declare (it declares 'draft', 'paid'). Did you mean 'paid'?"
        + " Make initial one of the declared states.")
        .inFile(router).onLineContaining("@States");
    // The actions' states are checked only against a valid declaration: one error, not two.
    assertThat(c).hadErrorCount(1);
  }

  @Test
  void anActionAllowedInNoStateIsAnError() {
    JavaFileObject router = orders(STATES, "@AllowedIn({})");
    Compilation c = Fixtures.compile(router);
    assertThat(c).hadErrorContaining("[fusion/UnknownState] OrderTools.pay declares @AllowedIn with"
        + " no state, so no session of OrderTools could ever call it. Name the states it is allowed"
        + " in, or remove the action.").inFile(router).onLineContaining("@AllowedIn");
  }

  @Test
  void aDuplicateOrMalformedStateIsAnError() {
    JavaFileObject twice = orders("@States(initial = \"draft\", value = {\"draft\", \"draft\"})", "");
    assertThat(Fixtures.compile(twice)).hadErrorContaining("[fusion/InvalidStates] OrderTools"
        + " declares @States with 'draft' twice. List each state once, each a name such as 'draft'"
        + " ([a-z][a-z0-9_-]*).").inFile(twice).onLineContaining("@States");
    JavaFileObject spaced = orders("@States(initial = \"draft\", value = {\"draft\", \"On Hold\"})", "");
    assertThat(Fixtures.compile(spaced)).hadErrorContaining("[fusion/InvalidStates] OrderTools"
        + " declares @States with 'On Hold', which is not a state name.");
    JavaFileObject none = orders("@States(initial = \"draft\", value = {})", "");
    assertThat(Fixtures.compile(none)).hadErrorContaining("[fusion/InvalidStates] OrderTools"
        + " declares @States with no state.");
  }

  @Test
  void statesOnAnActionOfARouterWithoutStatesAreAnError() {
    JavaFileObject router = orders("", "@Transition(to = \"paid\")");
    Compilation c = Fixtures.compile(router);
    assertThat(c).hadErrorContaining("[fusion/StatesUndeclared] OrderTools.pay declares @Transition,"
        + " but its router OrderTools declares no @States. Add @States(initial = \"...\", value ="
        + " {...}) to OrderTools, or remove @Transition.")
        .inFile(router).onLineContaining("@Transition");
    assertThat(c).hadErrorCount(1);
  }

  @Test
  void aTagThatIsNotATagNameIsAnError() {
    JavaFileObject router = orders("", "@Tags({\"read\", \"Read Only\"})");
    Compilation c = Fixtures.compile(router);
    assertThat(c).hadErrorContaining("[fusion/InvalidTag] OrderTools.pay declares the tag"
        + " 'Read Only', which is not a tag name. Use a lowercase name such as 'read' or 'admin'"
        + " ([a-z][a-z0-9_-]*).").inFile(router).onLineContaining("@Tags");
    assertThat(c).hadErrorCount(1);
  }
}
