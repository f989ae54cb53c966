package dev.mcpfusion.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.spring.boot.fixtures.AuditTrail;
import dev.mcpfusion.spring.boot.fixtures.GreeterTools;
import dev.mcpfusion.spring.boot.fixtures.GreeterTools_Fusion;
import dev.mcpfusion.spring.boot.fixtures.Member;
import dev.mcpfusion.spring.boot.fixtures.Salutations;
import dev.mcpfusion.spring.boot.unprocessed.UnprocessedTools;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.ServletRegistrationBean;

/** What the auto-configuration assembles from beans and properties, and when it steps aside. */
class FusionAutoConfigurationTest {
  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(FusionAutoConfiguration.class))
      .withBean(Salutations.class, () -> new Salutations("Hello"))
      .withBean(GreeterTools.class)
      .withBean("auditTrail", AuditTrail.class, () -> new AuditTrail("audit"))
      .withBean("memberContext", ContextProvider.class,
          () -> ContextProvider.of(Member.class, r -> new Member(r.header("x-member").orElse("anonymous"))));

  private final WebApplicationContextRunner web = new WebApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(FusionAutoConfiguration.class, FusionHttpAutoConfiguration.class))
      .withBean(Salutations.class, () -> new Salutations("Hello"))
      .withBean(GreeterTools.class)
      .withBean("auditTrail", AuditTrail.class, () -> new AuditTrail("audit"))
      .withBean("memberContext", ContextProvider.class,
          () -> ContextProvider.of(Member.class, r -> new Member("m")));

  @Test
  void routerBeansBecomeToolsWithTheBeansTheyNeed() {
    runner.run(context -> {
      assertThat(context).hasNotFailed().hasSingleBean(FusionServer.class);
      FusionServer server = context.getBean(FusionServer.class);
      assertThat(server.toolNames()).containsExactly("greeter_greet");
      assertThat(server.exposition()).isEqualTo(Exposition.FLAT);
    });
  }

  @Test
  void propertiesShapeTheServer() {
    runner.withPropertyValues("mcpfusion.exposition=grouped", "mcpfusion.name=greetings",
        "mcpfusion.version=2.0.0").run(context -> {
          FusionServer server = context.getBean(FusionServer.class);
          assertThat(server.exposition()).isEqualTo(Exposition.GROUPED);
          assertThat(server.toolNames()).containsExactly("greeter");
          assertThat(server.name()).isEqualTo("greetings");
          assertThat(server.version()).isEqualTo("2.0.0");
        });
    runner.withPropertyValues("spring.application.name=from-spring", "mcpfusion.separator=-")
        .run(context -> {
          FusionServer server = context.getBean(FusionServer.class);
          assertThat(server.name()).isEqualTo("from-spring");
          assertThat(server.toolNames()).containsExactly("greeter-greet");
        });
  }

  @Test
  void aBoundGeneratedRouterBeanIsRegisteredToo() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(FusionAutoConfiguration.class))
        .withBean("greeterBound", dev.mcpfusion.core.spi.GeneratedRouter.class,
            () -> GreeterTools_Fusion.bind(new GreeterTools(new Salutations("Hi"))))
        .withBean("auditTrail", AuditTrail.class, () -> new AuditTrail("audit"))
        .withBean("memberContext", ContextProvider.class,
            () -> ContextProvider.of(Member.class, r -> new Member("m")))
        .run(context -> assertThat(context.getBean(FusionServer.class).toolNames())
            .containsExactly("greeter_greet"));
  }

  @Test
  void withoutTheMiddlewareBeanBuildFailsNamingTheUseThatCannotBeSatisfied() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(FusionAutoConfiguration.class))
        .withBean(Salutations.class, () -> new Salutations("Hello"))
        .withBean(GreeterTools.class)
        .withBean("memberContext", ContextProvider.class,
            () -> ContextProvider.of(Member.class, r -> new Member("m")))
        .run(context -> {
          assertThat(context).hasFailed();
          Throwable failure = rootFusionFailure(context.getStartupFailure());
          assertThat(failure).isInstanceOf(FusionStartupException.class)
              .hasMessageContaining("The MCP server cannot be built from the application context.")
              .hasMessageContaining(AuditTrail.class.getName());
        });
  }

  @Test
  void aRouterBeanWithoutGeneratedClassFailsNamingTheBeanAndTheFix() {
    runner.withBean("legacyTools", UnprocessedTools.class, UnprocessedTools::new).run(context -> {
      assertThat(context).hasFailed();
      FusionStartupException failure = rootFusionFailure(context.getStartupFailure());
      assertThat(failure.getMessage()).isEqualTo("The @Router bean 'legacyTools' ("
          + UnprocessedTools.class.getName() + ") has no generated class "
          + UnprocessedTools.class.getName() + "_Fusion: the fusion-processor annotation processor "
          + "did not run when UnprocessedTools was compiled.");
      assertThat(failure.action()).startsWith("Add fusion-processor to the maven-compiler-plugin "
          + "annotationProcessorPaths (JDK 23+ no longer runs processors found on the classpath)");
    });
  }

  @Test
  void twoContextProvidersForOneTypeFailNamingBothBeans() {
    runner.withBean("otherMember", ContextProvider.class,
        () -> ContextProvider.of(Member.class, r -> new Member("x"))).run(context -> {
          FusionStartupException failure = rootFusionFailure(context.getStartupFailure());
          assertThat(failure.getMessage()).isEqualTo("The ContextProvider beans 'memberContext' and "
              + "'otherMember' both provide " + Member.class.getName() + ".");
        });
  }

  @Test
  void backsOffWhenTheApplicationDefinesItsOwnServer() {
    FusionServer own = FusionServer.builder("own", "1.0.0").build();
    // The unprocessed router would fail assembly: backing off means it is never looked at.
    runner.withBean("legacyTools", UnprocessedTools.class, UnprocessedTools::new)
        .withBean("ownServer", FusionServer.class, () -> own)
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context.getBean(FusionServer.class)).isSameAs(own);
        });
  }

  @Test
  void theOffSwitchTurnsEverythingOff() {
    web.withBean("legacyTools", UnprocessedTools.class, UnprocessedTools::new)
        .withPropertyValues("mcpfusion.enabled=false")
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context).doesNotHaveBean(FusionServer.class);
          assertThat(context).doesNotHaveBean("mcpFusionServlet");
        });
  }

  @Test
  void theEndpointIsRegisteredAsyncAtTheConfiguredPath() {
    web.withPropertyValues("mcpfusion.http.path=/agents/mcp").run(context -> {
      ServletRegistrationBean<?> registration = context.getBean("mcpFusionServlet", ServletRegistrationBean.class);
      assertThat(registration.getUrlMappings()).containsExactly("/agents/mcp");
      assertThat(registration.isAsyncSupported()).isTrue();
      assertThat(registration.getServletName()).isEqualTo("mcpFusion");
    });
    web.withPropertyValues("mcpfusion.http.enabled=false").run(context -> {
      assertThat(context).hasSingleBean(FusionServer.class);
      assertThat(context).doesNotHaveBean("mcpFusionServlet");
    });
  }

  @Test
  void theEndpointServesAServerTheApplicationDefined() {
    web.withPropertyValues("mcpfusion.http.path=/own")
        .withBean("ownServer", FusionServer.class, () -> FusionServer.builder("own", "1.0.0").build())
        .run(context -> assertThat(context.getBean("mcpFusionServlet", ServletRegistrationBean.class)
            .getUrlMappings()).containsExactly("/own"));
  }

  @Test
  void anInvalidHttpPropertyFailsNamingTheProperty() {
    web.withPropertyValues("mcpfusion.http.path=mcp").run(context -> {
      FusionStartupException failure = rootFusionFailure(context.getStartupFailure());
      assertThat(failure.getMessage()).isEqualTo("Invalid value for mcpfusion.http.path: path must "
          + "start with '/' and contain no '*', got 'mcp'");
      assertThat(failure.action()).isEqualTo("Correct mcpfusion.http.path in the application properties.");
    });
  }

  @Test
  void limitsPropertiesBecomeTheServerWideLimits() {
    // One server-wide gate of 2 running + 3 waiting admits 5 calls at once; without it, unbounded.
    runner.withPropertyValues("mcpfusion.limits.max-concurrent=2", "mcpfusion.limits.queue=3",
        "mcpfusion.limits.timeout=5s", "mcpfusion.limits.max-egress-bytes=64KB").run(context ->
        assertThat(context.getBean(FusionServer.class).edge().callCapacity()).isEqualTo(5));
    runner.run(context -> assertThat(context.getBean(FusionServer.class).edge().callCapacity())
        .isEqualTo(Integer.MAX_VALUE));
  }

  @Test
  void anInvalidLimitFailsNamingTheProperty() {
    runner.withPropertyValues("mcpfusion.limits.max-egress-bytes=100B").run(context -> {
      FusionStartupException failure = rootFusionFailure(context.getStartupFailure());
      assertThat(failure.getMessage()).startsWith("Invalid value for mcpfusion.limits.max-egress-bytes: "
          + "CallLimits.maxEgressBytes must be at least 1024");
      assertThat(failure.action())
          .isEqualTo("Correct mcpfusion.limits.max-egress-bytes in the application properties.");
    });
  }

  private static FusionStartupException rootFusionFailure(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof FusionStartupException fusion) {
        return fusion;
      }
    }
    throw new AssertionError("no FusionStartupException in the startup failure", failure);
  }
}
