package dev.mcpfusion.core.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.annotation.CachePolicy;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.core.CallLimits;
import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.Redaction;
import dev.mcpfusion.core.server.fixture.BillingTools;
import dev.mcpfusion.core.server.fixture.Outer;
import dev.mcpfusion.core.server.fixture.ProbeTools;
import dev.mcpfusion.core.server.fixture.Recorder;
import dev.mcpfusion.core.server.fixture.Tenant;
import dev.mcpfusion.core.server.fixture.Trail;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.ContextLookup;
import dev.mcpfusion.core.spi.ContextParameter;
import dev.mcpfusion.core.spi.ElementKind;
import dev.mcpfusion.core.spi.FieldDescriptor;
import dev.mcpfusion.core.spi.FusionSpi;
import dev.mcpfusion.core.spi.GeneratedRouter;
import dev.mcpfusion.core.spi.Problems;
import dev.mcpfusion.core.spi.ResultShape;
import dev.mcpfusion.core.spi.RouterDescriptor;
import dev.mcpfusion.core.spi.Verb;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BuildTest {

  /** A generated router built by hand for build-time checks. */
  private static GeneratedRouter router(String name, int spiVersion, ActionDescriptor... actions) {
    return router(name, spiVersion, Object.class, actions);
  }

  /** As {@link #router(String, int, ActionDescriptor...)}, declared by {@code routerType}. */
  private static GeneratedRouter router(String name, int spiVersion, Class<?> routerType,
      ActionDescriptor... actions) {
    RouterDescriptor descriptor = new RouterDescriptor(name, "", routerType, List.of(),
        List.of(actions), List.of());
    return new GeneratedRouter() {
      @Override
      public int spiVersion() {
        return spiVersion;
      }

      @Override
      public RouterDescriptor descriptor() {
        return descriptor;
      }

      @Override
      public Object[] decode(int action, Map<String, ?> arguments, Problems problems) {
        return new Object[0];
      }

      @Override
      public Object invoke(int action, Object[] arguments, ContextLookup context) {
        return "ok";
      }
    };
  }

  private static ActionDescriptor action(String name, String method, List<ContextParameter> context,
      List<FieldDescriptor> fields) {
    return new ActionDescriptor(name, method, "Does " + name, Verb.QUERY, true, false, false, false,
        fields, context, null, ResultShape.VALUE, ElementKind.NONE, "{\"type\":\"string\"}",
        CachePolicy.DEFAULT, List.of(), List.of(), List.of(), false);
  }

  @Test
  void contextTypeNobodyProvidesFailsNamingMethodAndParameter() {
    FusionServer.Builder builder = FusionServer.builder("clock", "1").register(router("clock", FusionSpi.VERSION,
        action("now", "now", List.of(new ContextParameter("clock", Clock.class)), List.of())));
    assertThatThrownBy(builder::build)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("[fusion/ContextNotProvided]")
        .hasMessageContaining("Object.now(clock)")
        .hasMessageContaining("nothing provides @Context Clock")
        .hasMessageContaining(".context(Clock.class, request -> ...)");
    assertThat(FusionServer.builder("clock", "1").register(router("clock", FusionSpi.VERSION,
            action("now", "now", List.of(new ContextParameter("clock", Clock.class)), List.of())))
        .context(Clock.class, request -> Clock.systemUTC()).build().edge().tools()).hasSize(1);
  }

  @Test
  void billingWithoutTenantProviderFailsNamingEveryMethod() {
    assertThatThrownBy(() -> FusionServer.builder("b", "1").register(new BillingTools()).build())
        .hasMessageContaining("BillingTools.listInvoices(tenant): nothing provides @Context Tenant")
        .hasMessageContaining("BillingTools.getInvoice(tenant)")
        .hasMessageContaining("BillingTools.voidInvoice(tenant)");
  }

  @Test
  void requestContextAndMiddlewareProvidedTypesNeedNoProvider() {
    FusionServer server = FusionServer.builder("p", "1").register(new ProbeTools())
        .context(Tenant.class, r -> new Tenant("t")).context(Recorder.class, r -> new Recorder())
        .provide(new Trail.RouterTrail("r"), new Trail.MethodTrail("m")).build();
    assertThat(server.edge().tools()).extracting(McpSchema.Tool::name).contains("probe_whoami");
    assertThat(FusionServer.builder("c", "1").register(router("c", FusionSpi.VERSION, action("x", "x",
        List.of(new ContextParameter("request", dev.mcpfusion.core.RequestContext.class)), List.of())))
        .build().edge().tools()).hasSize(1);
  }

  @Test
  void missingGeneratedClassNamesItAndGivesTheProcessorFix() {
    assertThatThrownBy(() -> FusionServer.builder("o", "1").register(new Outer.Orphan()).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("[fusion/GeneratedClassMissing]")
        .hasMessageContaining("dev.mcpfusion.core.server.fixture.Outer_Orphan_Fusion")
        .hasMessageContaining("add fusion-processor to the maven-compiler-plugin "
            + "annotationProcessorPaths (JDK 23+ no longer runs processors found on the classpath)");
  }

  @Test
  void promptsWithoutTheirGeneratedClassGiveTheProcessorFixNotNotARouter() {
    assertThatThrownBy(() -> FusionServer.builder("o", "1").register(new Outer.OrphanPrompts()).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("[fusion/GeneratedClassMissing] The generated class"
            + " dev.mcpfusion.core.server.fixture.Outer_OrphanPrompts_Features of"
            + " dev.mcpfusion.core.server.fixture.Outer$OrphanPrompts (it has @Prompt, @Resource or"
            + " @Complete methods) was not found: the annotation processor did not run.")
        .hasMessageContaining("add fusion-processor to the maven-compiler-plugin annotationProcessorPaths")
        .hasMessageNotContaining("NotARouter");
  }

  @Test
  void nestedRouterIsFoundAsOuterInnerFusion() {
    assertThat(ToolRegistry.generatedName(Outer.Inner.class))
        .isEqualTo("dev.mcpfusion.core.server.fixture.Outer_Inner_Fusion");
    FusionServer server = FusionServer.builder("n", "1").register(new Outer.Inner()).build();
    assertThat(server.edge().tools()).extracting(McpSchema.Tool::name).containsExactly("nested_ping");
    assertThat(Servers.texts(Servers.call(server, "nested_ping", Map.of()))).containsExactly("pong");
  }

  @Test
  void nonRouterObjectIsRejected() {
    assertThatThrownBy(() -> FusionServer.builder("x", "1").register("just a string").build())
        .hasMessageContaining("[fusion/NotARouter] java.lang.String is not annotated @Router");
  }

  @Test
  void useMiddlewareThatCannotBeConstructedFailsWithTheFix() {
    assertThatThrownBy(() -> FusionServer.builder("p", "1").register(new ProbeTools())
            .context(Tenant.class, r -> new Tenant("t")).context(Recorder.class, r -> new Recorder())
            .build())
        .hasMessageContaining("[fusion/MiddlewareNotConstructible] @Use(RouterTrail.class) on router 'probe'")
        .hasMessageContaining("no registered instance and no no-arg constructor")
        .hasMessageContaining(".provide(new RouterTrail(...))")
        .hasMessageContaining("@Use(MethodTrail.class) on ProbeTools.trail");
  }

  @Test
  void twoRoutersWithOneNameFail() {
    assertThatThrownBy(() -> FusionServer.builder("x", "1")
            .register(router("same", FusionSpi.VERSION, action("a", "a", List.of(), List.of())))
            .register(router("same", FusionSpi.VERSION, action("b", "b", List.of(), List.of())))
            .build())
        .hasMessageContaining("[fusion/DuplicateRouter] Two routers are named 'same'");
  }

  @Test
  void duplicateFlatToolNamesFail() {
    assertThatThrownBy(() -> FusionServer.builder("x", "1")
            .register(router("a_b", FusionSpi.VERSION, action("c", "c", List.of(), List.of())))
            .register(router("a", FusionSpi.VERSION, action("b_c", "bC", List.of(), List.of())))
            .build())
        .hasMessageContaining("[fusion/DuplicateToolName] The tool name 'a_b_c'");
  }

  /** A class that says {@code prefixed = false}; its descriptors are built by hand below. */
  @Router(value = "greeter", prefixed = false)
  static final class Unprefixed {}

  @Test
  void anUnprefixedRouterNamesEachFlatToolByItsActionAlone() {
    FusionServer flat = FusionServer.builder("x", "1").separator("-")
        .register(router("greeter", FusionSpi.VERSION, Unprefixed.class,
            action("greet", "greet", List.of(), List.of()), action("wave", "wave", List.of(), List.of())))
        .register(router("billing", FusionSpi.VERSION, action("list", "list", List.of(), List.of())))
        .build();
    assertThat(flat.toolNames()).containsExactly("greet", "wave", "billing-list");
    assertThat(flat.toolName("greeter", "greet")).isEqualTo("greet");
    assertThat(flat.toolName("billing", "list")).isEqualTo("billing-list");
    assertThat(flat.toolName("greeter", "nope")).isNull();

    ServerConfig config = new ServerConfig("x", "1", List.of(router("greeter", FusionSpi.VERSION,
        Unprefixed.class, action("greet", "greet", List.of(), List.of()))), Exposition.FLAT, "_",
        Map.of(), List.of(), List.of(), Redaction.none(), CallLimits.none(), false);
    assertThat(ToolRegistry.build(config).references().renderIn("Call greeter.greet first."))
        .isEqualTo("Call greet first.");

    // GROUPED: the router is the tool, prefixed or not.
    FusionServer grouped = FusionServer.builder("x", "1").exposition(Exposition.GROUPED)
        .register(router("greeter", FusionSpi.VERSION, Unprefixed.class,
            action("greet", "greet", List.of(), List.of())))
        .build();
    assertThat(grouped.toolNames()).containsExactly("greeter");
    assertThat(grouped.toolName("greeter", "greet")).isEqualTo("greeter");
  }

  @Test
  void twoUnprefixedActionsOfOneNameFail() {
    assertThatThrownBy(() -> FusionServer.builder("x", "1")
            .register(router("greeter", FusionSpi.VERSION, Unprefixed.class,
                action("greet", "greet", List.of(), List.of())))
            .register(router("welcome", FusionSpi.VERSION, Unprefixed.class,
                action("greet", "hello", List.of(), List.of())))
            .build())
        .hasMessageContaining("[fusion/DuplicateToolName] The tool name 'greet' is used by");
  }

  @Test
  void invalidToolNamesFail() {
    String longName = "r".repeat(40);
    assertThatThrownBy(() -> FusionServer.builder("x", "1")
            .register(router(longName, FusionSpi.VERSION, action("a".repeat(30), "a", List.of(), List.of())))
            .build())
        .hasMessageContaining("[fusion/InvalidToolName]")
        .hasMessageContaining("^[a-zA-Z0-9_-]{1,64}$");
    assertThatThrownBy(() -> FusionServer.builder("x", "1")
            .register(router("bad.name", FusionSpi.VERSION, action("a", "a", List.of(), List.of())))
            .exposition(Exposition.GROUPED).build())
        .hasMessageContaining("[fusion/InvalidToolName] The tool name 'bad.name'");
  }

  @Test
  void separatorMustBeUnderscoreOrDash() {
    assertThatThrownBy(() -> Servers.billing(Exposition.FLAT).separator(".").build())
        .hasMessageContaining("[fusion/InvalidSeparator]");
    assertThat(Servers.billing(Exposition.FLAT).separator("-").build().edge().tools()).hasSize(3);
  }

  /** A router class whose @Limits cannot hold: a queue below zero. */
  @dev.mcpfusion.annotation.Limits(maxConcurrent = 2, queue = -5)
  static final class NegativeQueue {}

  @Test
  void anInvalidLimitsValueNamesTheRouterAndTheFix() {
    GeneratedRouter limited = new GeneratedRouter() {
      private final RouterDescriptor descriptor = new RouterDescriptor("limited", "",
          NegativeQueue.class, List.of(), List.of(action("a", "a", List.of(), List.of()),
              action("b", "b", List.of(), List.of())), List.of());

      @Override
      public int spiVersion() {
        return dev.mcpfusion.core.spi.FusionSpi.VERSION;
      }

      @Override
      public RouterDescriptor descriptor() {
        return descriptor;
      }

      @Override
      public Object[] decode(int action, Map<String, ?> arguments, Problems problems) {
        return new Object[0];
      }

      @Override
      public Object invoke(int action, Object[] arguments, ContextLookup context) {
        return "ok";
      }
    };
    // Reported once, although both actions inherit the router's annotation.
    assertThatThrownBy(() -> FusionServer.builder("x", "1").register(limited).build())
        .hasMessageContaining("[fusion/InvalidLimits] NegativeQueue: @Limits(queue = -5) must be at"
            + " least 0. Set a value of 0 or more, or -1 to inherit.")
        .satisfies(e -> assertThat(e.getMessage().split("InvalidLimits", -1)).hasSize(2));
  }

  @Test
  void spiVersionIsChecked() {
    assertThatThrownBy(() -> FusionServer.builder("x", "1")
            .register(router("old", 99, action("a", "a", List.of(), List.of()))).build())
        .hasMessageContaining("[fusion/SpiVersionMismatch]")
        .hasMessageContaining("SPI version 99");
  }

  @Test
  void groupedFieldNamedActionClashesWithTheDiscriminator() {
    FieldDescriptor field = new FieldDescriptor("action", "{\"type\":\"string\"}", false, "", false);
    assertThatThrownBy(() -> FusionServer.builder("x", "1")
            .register(router("r", FusionSpi.VERSION, action("a", "a", List.of(), List.of(field))))
            .exposition(Exposition.GROUPED).build())
        .hasMessageContaining("[fusion/DiscriminatorClash]");
  }

  @Test
  void anInputSchemaActionCannotBeGrouped() {
    ActionDescriptor raw = action("a", "a", List.of(), List.of()).toBuilder()
        .inputSchema("{\"type\":\"object\"}").build();
    assertThatThrownBy(() -> FusionServer.builder("x", "1")
            .register(router("r", FusionSpi.VERSION, raw)).exposition(Exposition.GROUPED).build())
        .hasMessageContaining("[fusion/InputSchemaGrouped] Object.a describes its input with an"
            + " @InputSchema document, which GROUPED exposition cannot merge into the one schema of"
            + " its router's tool. Expose this server FLAT, or describe the input with parameters.");
    // FLAT, the same action builds.
    FusionServer.builder("x", "1").register(router("r", FusionSpi.VERSION, raw)).build();
  }

  @Test
  void anInputSchemaThatDoesNotCompileFailsTheBuild() {
    ActionDescriptor raw = action("a", "a", List.of(), List.of()).toBuilder()
        .inputSchema("{\"type\":\"object\",").build();
    assertThatThrownBy(() -> FusionServer.builder("x", "1")
            .register(router("r", FusionSpi.VERSION, raw)).build())
        .hasMessageContaining("[fusion/InputSchemaInvalid] Object.a: its input schema document does"
            + " not compile");
  }

  @Test
  void registeringTheBoundGeneratedRouterNeedsNoReflection() {
    FusionServer server = FusionServer.builder("n", "1")
        .register(dev.mcpfusion.core.server.fixture.Outer_Inner_Fusion.bind(new Outer.Inner()))
        .build();
    assertThat(server.edge().tools()).extracting(McpSchema.Tool::name).containsExactly("nested_ping");
  }

  @Test
  void routerWithoutActionsFails() {
    assertThatThrownBy(() -> FusionServer.builder("x", "1").register(router("idle", FusionSpi.VERSION)).build())
        .hasMessageContaining("[fusion/NoActions] Router 'idle' (Object) has no actions.");
  }

  /**
   * {@code @Use(X.class)} takes a provided instance of exactly {@code X} first, then one that is an
   * {@code X} (a subclass, such as a container's class-based proxy); only without either does it
   * construct one, which {@code Trail} (no no-arg constructor) cannot.
   */
  @Test
  void useTakesAProvidedSubclassInstanceBeforeConstructingOne() {
    RouterDescriptor descriptor = new RouterDescriptor("r", "", Object.class, List.of(),
        List.of(action("a", "a", List.of(), List.of())), List.of(Trail.class));
    GeneratedRouter base = router("r", FusionSpi.VERSION, action("a", "a", List.of(), List.of()));
    GeneratedRouter withUse = new GeneratedRouter() {
      @Override
      public int spiVersion() {
        return base.spiVersion();
      }

      @Override
      public RouterDescriptor descriptor() {
        return descriptor;
      }

      @Override
      public Object[] decode(int action, Map<String, ?> arguments, Problems problems) {
        return base.decode(action, arguments, problems);
      }

      @Override
      public Object invoke(int action, Object[] arguments, ContextLookup context) throws Exception {
        return base.invoke(action, arguments, context);
      }
    };
    Recorder recorder = new Recorder();
    FusionServer server = FusionServer.builder("x", "1").register(withUse)
        .context(Recorder.class, r -> recorder)
        .provide(new Trail.RouterTrail("the provided subclass")).build();
    assertThat(Servers.texts(Servers.call(server, "r_a", Map.of()))).containsExactly("ok");
    assertThat(recorder.entries()).containsExactly("the provided subclass");
  }

  @Test
  void useOfAClassThatIsNotAMiddlewareFails() {
    RouterDescriptor descriptor = new RouterDescriptor("r", "", Object.class, List.of(),
        List.of(action("a", "a", List.of(), List.of())), List.of(String.class));
    GeneratedRouter base = router("r", FusionSpi.VERSION, action("a", "a", List.of(), List.of()));
    GeneratedRouter withUse = new GeneratedRouter() {
      @Override
      public int spiVersion() {
        return base.spiVersion();
      }

      @Override
      public RouterDescriptor descriptor() {
        return descriptor;
      }

      @Override
      public Object[] decode(int action, Map<String, ?> arguments, Problems problems) {
        return base.decode(action, arguments, problems);
      }

      @Override
      public Object invoke(int action, Object[] arguments, ContextLookup context) throws Exception {
        return base.invoke(action, arguments, context);
      }
    };
    assertThatThrownBy(() -> FusionServer.builder("x", "1").register(withUse).build())
        .hasMessageContaining("[fusion/NotAMiddleware] @Use(String.class) on router 'r' (Object):"
            + " java.lang.String does not implement dev.mcpfusion.core.FusionMiddleware.");
  }

  @Test
  void presenterWhoseStaticRulesFailIsReported() {
    ActionDescriptor ok = action("a", "a", List.of(), List.of());
    ActionDescriptor failing = new ActionDescriptor(ok.name(), ok.methodName(), ok.description(),
        ok.verb(), ok.readOnlyHint(), ok.destructiveHint(), ok.idempotentHint(), ok.openWorldHint(), ok.fields(),
        ok.contextParameters(), new RulesFail(), ResultShape.SINGLE, ElementKind.NONE, null,
        ok.cachePolicy(), ok.invalidates(), ok.middleware(), ok.parameterTypes(),
        ok.beanValidation());
    assertThatThrownBy(() -> FusionServer.builder("x", "1").register(router("r", FusionSpi.VERSION, failing))
            .build())
        .hasMessageContaining("[fusion/PresenterFailed] The presenter of Object.a failed to give"
            + " its static rules (java.lang.IllegalStateException: rules exploded).");
  }

  @Test
  void generatedClassWithoutBindFailsAsAMismatch() {
    assertThatThrownBy(() -> FusionServer.builder("x", "1").register(new Outer.Unbindable()).build())
        .hasMessageContaining("[fusion/GeneratedClassMismatch]"
            + " dev.mcpfusion.core.server.fixture.Outer_Unbindable_Fusion has no public static"
            + " GeneratedRouter bind(Unbindable).");
  }

  @Test
  void bindThatThrowsFailsWithItsCause() {
    assertThatThrownBy(() -> FusionServer.builder("x", "1").register(new Outer.Exploding()).build())
        .hasMessageContaining("[fusion/BindFailed]"
            + " dev.mcpfusion.core.server.fixture.Outer_Exploding_Fusion.bind(...) failed.")
        .hasRootCauseMessage("bind exploded");
  }

  /** A presenter whose static rules throw. */
  private static class RulesFail implements dev.mcpfusion.core.spi.PresenterBinding<String, String> {
    @Override
    public int spiVersion() {
      return dev.mcpfusion.core.spi.FusionSpi.VERSION;
    }

    @Override
    public Class<String> modelType() {
      return String.class;
    }

    @Override
    public Class<String> viewType() {
      return String.class;
    }

    @Override
    public String fromModel(String model) {
      return model;
    }

    @Override
    public String fromMap(Map<String, ?> row) {
      return String.valueOf(row);
    }

    @Override
    public Map<String, Object> toTree(String view) {
      return Map.of("v", view);
    }

    @Override
    public String outputSchemaJson() {
      return "{\"type\":\"object\"}";
    }

    @Override
    public List<String> fieldNames() {
      return List.of("v");
    }

    @Override
    public List<String> staticRules() {
      throw new IllegalStateException("rules exploded");
    }

    @Override
    public List<String> dynamicRules(String view) {
      return List.of();
    }

    @Override
    public List<dev.mcpfusion.core.Suggestion> suggestions(String view) {
      return List.of();
    }

    @Override
    public int agentLimit() {
      return 50;
    }
  }

  private static ActionDescriptor invalidating(String name, List<String> patterns) {
    ActionDescriptor a = action(name, name, List.of(), List.of());
    return new ActionDescriptor(a.name(), a.methodName(), a.description(), Verb.MUTATION, false,
        true, false, false, a.fields(), a.contextParameters(), null, a.resultShape(),
        a.elementKind(), a.resultSchemaJson(), a.cachePolicy(), patterns, a.middleware(),
        a.parameterTypes(), a.beanValidation());
  }

  @Test
  void invalidatesNamingAnUnregisteredRouterFailsWithDidYouMean() {
    assertThatThrownBy(() -> FusionServer.builder("x", "1")
            .register(router("billing", FusionSpi.VERSION, invalidating("pay", List.of("biling.*")))).build())
        .hasMessageContaining("[fusion/UnknownReference] @Invalidates on Object.pay names"
            + " 'biling.*', but no registered router is named 'biling'. Did you mean"
            + " 'billing.*'? Register that router, or name one of: billing.");
  }

  /** A router whose processor left {@code references} to build(). */
  private static GeneratedRouter referring(String name, dev.mcpfusion.core.spi.Reference... refs) {
    GeneratedRouter inner = router(name, FusionSpi.VERSION, action("a", "a", List.of(), List.of()));
    return new GeneratedRouter() {
      @Override
      public int spiVersion() {
        return dev.mcpfusion.core.spi.FusionSpi.VERSION;
      }

      @Override
      public RouterDescriptor descriptor() {
        return inner.descriptor();
      }

      @Override
      public List<dev.mcpfusion.core.spi.Reference> references() {
        return List.of(refs);
      }

      @Override
      public Object[] decode(int action, Map<String, ?> arguments, Problems problems) {
        return new Object[0];
      }

      @Override
      public Object invoke(int action, Object[] arguments, ContextLookup context) {
        return "ok";
      }
    };
  }

  @Test
  void aSuggestionToARouterOfAnotherModuleIsCheckedAtBuildWithDidYouMean() {
    dev.mcpfusion.core.spi.Reference typo = new dev.mcpfusion.core.spi.Reference(
        "Suggestion.of in BillingTools", "ledgr.post");
    assertThatThrownBy(() -> FusionServer.builder("x", "1").register(referring("billing", typo))
            .register(router("ledger", FusionSpi.VERSION, action("post", "post", List.of(), List.of()))).build())
        .hasMessageContaining("[fusion/UnknownReference] Suggestion.of in BillingTools names"
            + " 'ledgr.post', but no registered router is named 'ledgr'. Did you mean"
            + " 'ledger.post'? Register that router, or name one of: billing, ledger.");
    dev.mcpfusion.core.spi.Reference action = new dev.mcpfusion.core.spi.Reference(
        "FusionError.actions in BillingTools", "ledger.pots");
    assertThatThrownBy(() -> FusionServer.builder("x", "1").register(referring("billing", action))
            .register(router("ledger", FusionSpi.VERSION, action("post", "post", List.of(), List.of()))).build())
        .hasMessageContaining("[fusion/UnknownReference] FusionError.actions in BillingTools names"
            + " 'ledger.pots', but router 'ledger' has no action 'pots'. Did you mean"
            + " 'ledger.post'?");
  }

  @Test
  void aReferenceToARegisteredRouterAndActionBuilds() {
    dev.mcpfusion.core.spi.Reference ok = new dev.mcpfusion.core.spi.Reference(
        "Suggestion.of in BillingTools", "ledger.post");
    assertThat(FusionServer.builder("x", "1").register(referring("billing", ok))
        .register(router("ledger", FusionSpi.VERSION, action("post", "post", List.of(), List.of()))).build())
        .isNotNull();
  }

  @Test
  void invalidatesNamingAMissingActionFails() {
    assertThatThrownBy(() -> FusionServer.builder("x", "1")
            .register(router("billing", FusionSpi.VERSION, invalidating("pay", List.of("billing.py")))).build())
        .hasMessageContaining("[fusion/UnknownReference] @Invalidates on Object.pay names"
            + " 'billing.py', but router 'billing' has no action 'py'. Did you mean"
            + " 'billing.pay'? Name one of its actions: billing.pay.");
  }

  @Test
  void invalidatesWithWildcardsOfRegisteredRoutersBuild() {
    FusionServer.builder("x", "1")
        .register(router("billing", FusionSpi.VERSION, invalidating("pay", List.of("billing.*", "*")))).build();
  }

  /** A presenter whose processor left {@code references} to build(). */
  private static final class ReferringView extends RulesFail {
    private final List<dev.mcpfusion.core.spi.Reference> references;

    ReferringView(dev.mcpfusion.core.spi.Reference... references) {
      this.references = List.of(references);
    }

    @Override
    public List<String> staticRules() {
      return List.of();
    }

    @Override
    public List<dev.mcpfusion.core.spi.Reference> references() {
      return references;
    }
  }

  /** A router "billing" whose one action is presented by {@code view}. */
  private static GeneratedRouter presentedBy(dev.mcpfusion.core.spi.PresenterBinding<?, ?> view) {
    ActionDescriptor a = action("get", "get", List.of(), List.of());
    return router("billing", FusionSpi.VERSION, new ActionDescriptor(a.name(), a.methodName(), a.description(),
        a.verb(), a.readOnlyHint(), a.destructiveHint(), a.idempotentHint(), a.openWorldHint(),
        a.fields(), a.contextParameters(), view, ResultShape.SINGLE, ElementKind.NONE, null,
        a.cachePolicy(), a.invalidates(), a.middleware(), a.parameterTypes(), a.beanValidation()));
  }

  @Test
  void aPresentersSuggestionToARouterOfAnotherModuleIsCheckedAtBuildWithDidYouMean() {
    GeneratedRouter ledger = router("ledger", FusionSpi.VERSION, action("post", "post", List.of(), List.of()));
    dev.mcpfusion.core.spi.Reference router = new dev.mcpfusion.core.spi.Reference(
        "Suggestion.of in InvoiceView", "ledgr.post");
    assertThatThrownBy(() -> FusionServer.builder("x", "1")
            .register(presentedBy(new ReferringView(router))).register(ledger).build())
        .hasMessageContaining("[fusion/UnknownReference] Suggestion.of in InvoiceView names"
            + " 'ledgr.post', but no registered router is named 'ledgr'. Did you mean"
            + " 'ledger.post'? Register that router, or name one of: billing, ledger.");
    dev.mcpfusion.core.spi.Reference action = new dev.mcpfusion.core.spi.Reference(
        "Suggestion.of in InvoiceView", "ledger.pots");
    assertThatThrownBy(() -> FusionServer.builder("x", "1")
            .register(presentedBy(new ReferringView(action))).register(ledger).build())
        .hasMessageContaining("[fusion/UnknownReference] Suggestion.of in InvoiceView names"
            + " 'ledger.pots', but router 'ledger' has no action 'pots'. Did you mean"
            + " 'ledger.post'? Name one of its actions: ledger.post.");
  }

  @Test
  void aPresentersReferenceToARegisteredRouterBuildsAndABadOneIsReportedOnce() {
    GeneratedRouter ledger = router("ledger", FusionSpi.VERSION, action("post", "post", List.of(), List.of()));
    dev.mcpfusion.core.spi.Reference ok = new dev.mcpfusion.core.spi.Reference(
        "Suggestion.of in InvoiceView", "ledger.post");
    assertThat(FusionServer.builder("x", "1").register(presentedBy(new ReferringView(ok)))
        .register(ledger).build()).isNotNull();
    // The same reference listed by the router (a view nested in it) and by its presenter.
    dev.mcpfusion.core.spi.Reference bad = new dev.mcpfusion.core.spi.Reference(
        "Suggestion.of in BillingTools", "ledger.pots");
    GeneratedRouter both = presentedBy(new ReferringView(bad));
    GeneratedRouter twice = new GeneratedRouter() {
      @Override
      public int spiVersion() {
        return dev.mcpfusion.core.spi.FusionSpi.VERSION;
      }

      @Override
      public RouterDescriptor descriptor() {
        return both.descriptor();
      }

      @Override
      public List<dev.mcpfusion.core.spi.Reference> references() {
        return List.of(bad);
      }

      @Override
      public Object[] decode(int action, Map<String, ?> arguments, Problems problems) {
        return new Object[0];
      }

      @Override
      public Object invoke(int action, Object[] arguments, ContextLookup context) {
        return "ok";
      }
    };
    assertThatThrownBy(() -> FusionServer.builder("x", "1").register(twice).register(ledger)
            .build())
        .satisfies(e -> assertThat(e.getMessage().split("ledger.pots', but", -1)).hasSize(2));
  }
}
