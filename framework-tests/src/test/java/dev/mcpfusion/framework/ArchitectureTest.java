package dev.mcpfusion.framework;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The direction rule between the published modules: annotations ← processor; wire (the wire
 * vocabulary and JSON) ← redact (the redaction engine) ← core; annotations ← redact;
 * annotations + wire ← surface (workflow states and tags) ← core, lock;
 * annotations ← core ← lock ← the Maven plugin; core + lock ← testing; core ← otel, http; core + http ← auth (the only
 * module with JOSE); core + http ← redis (the only module with a Redis client), which nothing
 * depends on; core + resilience ← outbound (the only module with OkHttp); core + http ← the Spring
 * Boot starter, which nothing depends on; core + resilience + http ← the gateway, which nothing
 * depends on; lock + http ← cards; nothing backwards, and no module of the top row knows another.
 * Inside fusion-core: no servlet container, no OpenTelemetry, no package cycle.
 */
class ArchitectureTest {
  private static final String ANNOTATIONS = "dev.mcpfusion.annotation..";
  private static final String PROCESSOR = "dev.mcpfusion.processor..";
  private static final String CORE = "dev.mcpfusion.core..";
  private static final String HTTP = "dev.mcpfusion.http..";
  private static final String TESTING = "dev.mcpfusion.testing..";
  private static final String OTEL = "dev.mcpfusion.otel..";
  private static final String SPRING = "dev.mcpfusion.spring..";
  private static final String LOCK = "dev.mcpfusion.lock..";
  private static final String MAVEN = "dev.mcpfusion.maven..";
  private static final String AUTH = "dev.mcpfusion.auth..";
  private static final String WIRE = "dev.mcpfusion.wire..";
  private static final String JSON = "dev.mcpfusion.json..";
  private static final String REDACT = "dev.mcpfusion.redact..";
  private static final String SURFACE = "dev.mcpfusion.surface..";
  private static final String REDIS = "dev.mcpfusion.redis..";
  private static final String RESILIENCE = "dev.mcpfusion.resilience..";
  private static final String OUTBOUND = "dev.mcpfusion.outbound..";
  private static final String GATEWAY = "dev.mcpfusion.gateway..";
  private static final String CARDS = "dev.mcpfusion.cards..";

  private static JavaClasses classes;

  @BeforeAll
  static void importFrameworkClasses() {
    classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.mcpfusion");
  }

  /** A rule over no classes proves nothing: every module's classes must be on the test classpath. */
  @Test
  void everyPublishedModuleIsImported() {
    assertThat(classes.stream().map(JavaClass::getPackageName).distinct())
        .anyMatch(p -> p.startsWith("dev.mcpfusion.annotation"))
        .anyMatch(p -> p.startsWith("dev.mcpfusion.processor"))
        .anyMatch(p -> p.startsWith("dev.mcpfusion.wire"))
        .anyMatch(p -> p.startsWith("dev.mcpfusion.json"))
        .anyMatch(p -> p.startsWith("dev.mcpfusion.redact"))
        .anyMatch(p -> p.startsWith("dev.mcpfusion.surface"))
        .anyMatch(p -> p.startsWith("dev.mcpfusion.core.spi"))
        .anyMatch(p -> p.startsWith("dev.mcpfusion.http"))
        .anyMatch(p -> p.startsWith("dev.mcpfusion.testing"))
        .anyMatch(p -> p.startsWith("dev.mcpfusion.otel"))
        .anyMatch(p -> p.startsWith("dev.mcpfusion.auth"))
        .anyMatch(p -> p.startsWith("dev.mcpfusion.spring.boot"))
        .anyMatch(p -> p.startsWith("dev.mcpfusion.lock"))
        .anyMatch(p -> p.startsWith("dev.mcpfusion.redis"))
        .anyMatch(p -> p.startsWith("dev.mcpfusion.resilience"))
        .anyMatch(p -> p.startsWith("dev.mcpfusion.outbound"))
        .anyMatch(p -> p.startsWith("dev.mcpfusion.gateway"))
        .anyMatch(p -> p.startsWith("dev.mcpfusion.cards"))
        .anyMatch(p -> p.startsWith("dev.mcpfusion.maven"));
  }

  @Test
  void annotationsDependOnNothingButTheJdk() {
    noClasses().that().resideInAPackage(ANNOTATIONS)
        .should().dependOnClassesThat().resideOutsideOfPackages(ANNOTATIONS, "java..")
        .check(classes);
  }

  @Test
  void processorNeverNeedsTheRuntime() {
    noClasses().that().resideInAPackage(PROCESSOR)
        .should().dependOnClassesThat().resideInAnyPackage(CORE, WIRE, JSON, REDACT, SURFACE, LOCK, HTTP, TESTING, OTEL, MAVEN,
            "io.modelcontextprotocol..", "tools.jackson..", "jakarta.validation..", "org.hibernate..")
        .check(classes);
  }

  @Test
  void coreDependsOnNoOtherFrameworkModuleButTheAnnotationsAndTheWire() {
    noClasses().that().resideInAPackage(CORE)
        .should().dependOnClassesThat().resideInAnyPackage(PROCESSOR, LOCK, HTTP, TESTING, OTEL, MAVEN)
        .check(classes);
  }

  /**
   * The lockfile is build-time code over the generated descriptors: it reads core's spi and the
   * rules core resolves limits and redaction with, and never the running server (edge, pipeline,
   * transports), the SDK or another framework module.
   */
  @Test
  void lockSitsOnCoresDescriptorsOnly() {
    noClasses().that().resideInAPackage(LOCK)
        .should().dependOnClassesThat().resideInAnyPackage(PROCESSOR, HTTP, TESTING, OTEL, SPRING, MAVEN,
            "dev.mcpfusion.core.edge..", "dev.mcpfusion.core.server..", "dev.mcpfusion.core.transport..",
            "io.modelcontextprotocol..", "tools.jackson..")
        .check(classes);
  }

  /** The Maven plugin wires Maven to the lockfile and runs no server. */
  @Test
  void mavenPluginSitsOnLockOnly() {
    noClasses().that().resideInAPackage(MAVEN)
        .should().dependOnClassesThat().resideInAnyPackage(PROCESSOR, HTTP, TESTING, OTEL, SPRING,
            "dev.mcpfusion.core.edge..", "dev.mcpfusion.core.server..", "io.modelcontextprotocol..")
        .check(classes);
  }

  @Test
  void coreImportsNoServletContainerAndNoOpenTelemetry() {
    noClasses().that().resideInAPackage(CORE)
        .should().dependOnClassesThat().resideInAnyPackage("jakarta.servlet..", "org.eclipse.jetty..",
            "io.opentelemetry..")
        .check(classes);
  }

  @Test
  void httpSitsOnCoreOnly() {
    noClasses().that().resideInAPackage(HTTP)
        .should().dependOnClassesThat().resideInAnyPackage(PROCESSOR, LOCK, TESTING, OTEL, MAVEN, AUTH)
        .check(classes);
  }

  @Test
  void testingSitsOnCoreAndLockOnly() {
    noClasses().that().resideInAPackage(TESTING)
        .should().dependOnClassesThat().resideInAnyPackage(PROCESSOR, HTTP, OTEL, MAVEN)
        .check(classes);
  }

  /**
   * The test kit speaks to the server through the front door as JSON text and hands back its own
   * types: it needs no class of the MCP SDK (nor Reactor, which only the SDK brings).
   */
  @Test
  void theTestKitNeedsNoSdk() {
    noClasses().that().resideInAPackage(TESTING)
        .should().dependOnClassesThat().resideInAnyPackage("io.modelcontextprotocol..", "reactor..")
        .check(classes);
  }

  /**
   * The resource server sits on core's user API and http's authenticator hook: never the edge, the
   * registry, the SDK or Jetty; and it is the only module that knows JOSE, so a connector without
   * OAuth never loads nimbus.
   */
  @Test
  void authSitsOnCoreAndHttpOnly() {
    noClasses().that().resideInAPackage(AUTH)
        .should().dependOnClassesThat().resideInAnyPackage(PROCESSOR, LOCK, TESTING, OTEL, MAVEN, SPRING,
            "dev.mcpfusion.core.edge..", "dev.mcpfusion.core.server..", "io.modelcontextprotocol..",
            "org.eclipse.jetty..")
        .check(classes);
  }

  /**
   * The cards are built from the lockfile contract (fusion-lock) and published as documents of
   * fusion-http; they never reach into the running server, the SDK or Jetty, and nothing else
   * depends on them (a connector opts in by adding the module).
   */
  @Test
  void cardsSitOnLockAndHttpOnly() {
    noClasses().that().resideInAPackage(CARDS)
        .should().dependOnClassesThat().resideInAnyPackage(PROCESSOR, TESTING, OTEL, MAVEN, SPRING,
            AUTH, REDIS, "dev.mcpfusion.core.edge..", "dev.mcpfusion.core.server..",
            "io.modelcontextprotocol..", "org.eclipse.jetty..", "jakarta.servlet..")
        .check(classes);
    noClasses().that().resideOutsideOfPackage(CARDS)
        .should().dependOnClassesThat().resideInAPackage(CARDS)
        .check(classes);
  }

  @Test
  void onlyAuthKnowsJose() {
    noClasses().that().resideOutsideOfPackage(AUTH)
        .should().dependOnClassesThat().resideInAPackage("com.nimbusds..")
        .check(classes);
  }

  /**
   * The fleet stores implement core's task store, subscription bus and middleware and http's
   * event and session stores: never the edge, the registry, the SDK or Jetty, and no other
   * framework module.
   */
  @Test
  void redisSitsOnCoreAndHttpOnly() {
    noClasses().that().resideInAPackage(REDIS)
        .should().dependOnClassesThat().resideInAnyPackage(PROCESSOR, LOCK, TESTING, OTEL, MAVEN, SPRING,
            AUTH, "dev.mcpfusion.core.edge..", "dev.mcpfusion.core.server..", "io.modelcontextprotocol..",
            "org.eclipse.jetty..")
        .check(classes);
  }

  /** A connector that does not configure Redis never loads a Redis class: no module but redis knows it. */
  @Test
  void nothingDependsOnRedisAndOnlyRedisKnowsLettuce() {
    noClasses().that().resideOutsideOfPackage(REDIS)
        .should().dependOnClassesThat().resideInAnyPackage(REDIS, "io.lettuce..")
        .check(classes);
  }

  /** Circuit breakers wrap a handler's own calls: core's user API and wire codes, nothing of a transport. */
  @Test
  void resilienceSitsOnCoresUserApiOnly() {
    noClasses().that().resideInAPackage(RESILIENCE)
        .should().dependOnClassesThat().resideInAnyPackage(PROCESSOR, LOCK, HTTP, TESTING, OTEL, AUTH,
            MAVEN, SPRING, "dev.mcpfusion.core.edge..", "dev.mcpfusion.core.server..",
            "io.modelcontextprotocol..")
        .check(classes);
  }

  /**
   * The gateway's tools are routers of an ordinary server: it registers them through core's user
   * API and spi, serves through fusion-http, and never reaches the edge, the pipeline or the SDK
   * (one front door for its calls as for any connector's); nothing depends on it.
   */
  @Test
  void gatewaySitsOnCoresUserApiAndNothingDependsOnIt() {
    noClasses().that().resideInAPackage(GATEWAY)
        .should().dependOnClassesThat().resideInAnyPackage(PROCESSOR, LOCK, TESTING, OTEL, AUTH,
            MAVEN, SPRING, REDIS, "dev.mcpfusion.core.edge..", "dev.mcpfusion.core.server..",
            "io.modelcontextprotocol..", "tools.jackson..", "io.github.resilience4j..")
        .check(classes);
    noClasses().that().resideOutsideOfPackage(GATEWAY)
        .should().dependOnClassesThat().resideInAPackage(GATEWAY)
        .check(classes);
  }

  @Test
  void onlyResilienceKnowsResilience4j() {
    noClasses().that().resideOutsideOfPackage(RESILIENCE)
        .should().dependOnClassesThat().resideInAPackage("io.github.resilience4j..")
        .check(classes);
  }

  /** Outbound calls are a handler's tool: core's user API, the breakers and wire codes, no transport. */
  @Test
  void outboundSitsOnCoresUserApiOnly() {
    noClasses().that().resideInAPackage(OUTBOUND)
        .should().dependOnClassesThat().resideInAnyPackage(PROCESSOR, LOCK, HTTP, TESTING, OTEL, AUTH,
            MAVEN, SPRING, REDIS, "dev.mcpfusion.gateway..", "dev.mcpfusion.core.edge..",
            "dev.mcpfusion.core.server..", "io.modelcontextprotocol..", "org.eclipse.jetty..")
        .check(classes);
  }

  @Test
  void onlyOutboundKnowsOkHttp() {
    noClasses().that().resideOutsideOfPackage(OUTBOUND)
        .should().dependOnClassesThat().resideInAnyPackage("okhttp3..", "okio..", "kotlin..")
        .check(classes);
  }

  @Test
  void otelSitsOnCoreOnly() {
    noClasses().that().resideInAPackage(OTEL)
        .should().dependOnClassesThat().resideInAnyPackage(PROCESSOR, LOCK, HTTP, TESTING, MAVEN)
        .check(classes);
  }

  /**
   * The starter assembles a server through the user API and serves it with fusion-http's servlet:
   * it never reaches the edge, the registry or the SDK (one front door), and never Jetty (Boot's
   * own container hosts the servlet; the starter excludes Jetty from its dependencies).
   */
  @Test
  void springBootStarterSitsOnCoreAndHttpOnly() {
    noClasses().that().resideInAPackage(SPRING)
        .should().dependOnClassesThat().resideInAnyPackage(PROCESSOR, LOCK, TESTING, OTEL, MAVEN,
            "dev.mcpfusion.core.edge..", "dev.mcpfusion.core.server..", "io.modelcontextprotocol..",
            "org.eclipse.jetty..")
        .check(classes);
  }

  /** The starter is a leaf: no framework module knows Spring. */
  @Test
  void nothingDependsOnTheSpringBootStarter() {
    noClasses().that().resideOutsideOfPackage(SPRING)
        .should().dependOnClassesThat().resideInAPackage(SPRING)
        .check(classes);
  }

  /**
   * The servlet another container hosts ({@code McpHttpServlet}) loads without Jetty on the class
   * path: nothing it reaches, directly or through other classes, is Jetty. Only {@code FusionHttp}
   * and the embedded server's helpers touch it.
   */
  @Test
  void theHostableServletNeedsNoJetty() {
    noClasses().that().haveFullyQualifiedName("dev.mcpfusion.http.McpHttpServlet")
        .should().transitivelyDependOnClassesThat().resideInAPackage("org.eclipse.jetty..")
        .check(classes);
  }

  /** The metadata servlet (RFC 9728) another container hosts, as the Spring Boot starter does, loads without Jetty too. */
  @Test
  void theHostableMetadataServletNeedsNoJetty() {
    noClasses().that().haveFullyQualifiedName("dev.mcpfusion.http.ProtectedResourceServlet")
        .should().transitivelyDependOnClassesThat().resideInAPackage("org.eclipse.jetty..")
        .check(classes);
  }

  /** The root package (the user API) is not a slice: it may reach into the internals it fronts. */
  @Test
  void corePackagesHaveNoCycle() {
    slices().matching("dev.mcpfusion.core.(*)..")
        .should().beFreeOfCycles()
        .check(classes);
  }

  /**
   * The guards (concurrency gate, deadline, byte cap) are parts the pipeline uses, below it: they
   * never reach up into the pipeline, the edge or a transport.
   */
  @Test
  void guardsSitBelowThePipeline() {
    noClasses().that().resideInAPackage("dev.mcpfusion.core.guard..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.mcpfusion.core.server..",
            "dev.mcpfusion.core.edge..", "dev.mcpfusion.core.transport..")
        .check(classes);
  }

  /**
   * The steps that read or rewrite a reply after the presenter wrote it — errors, state sync,
   * tracing, the guards, redaction and the edge — take the reply model and its markup from the
   * wire package, so none of them can depend on how a view is presented.
   */
  @Test
  void replyReadersTakeTheWireVocabularyNotThePresenter() {
    noClasses().that().resideInAnyPackage("dev.mcpfusion.core.error..", "dev.mcpfusion.core.sync..",
            "dev.mcpfusion.core.trace..", "dev.mcpfusion.core.guard..", "dev.mcpfusion.core.redact..",
            "dev.mcpfusion.core.edge..")
        .should().dependOnClassesThat().resideInAPackage("dev.mcpfusion.core.presenter..")
        .check(classes);
  }

  /**
   * The wire module is the bottom of the runtime: the vocabulary, JSON and the 2026-07-28 request
   * state (signed with the JDK's HMAC) know nothing else of the framework (not even the
   * annotations), no MCP SDK and no transport.
   */
  @Test
  void theWireModuleDependsOnNothingAboveIt() {
    noClasses().that().resideInAnyPackage(WIRE, JSON)
        .should().dependOnClassesThat().resideOutsideOfPackages(WIRE, JSON, "java..", "javax.crypto..",
            "tools.jackson..")
        .check(classes);
  }

  /**
   * The redaction engine sits on the annotations (its detectors and masks) and the wire module
   * only: it masks plain trees and text, and knows no runtime, SDK or transport.
   */
  @Test
  void theRedactionEngineSitsOnTheAnnotationsAndTheWireOnly() {
    noClasses().that().resideInAPackage(REDACT)
        .should().dependOnClassesThat().resideOutsideOfPackages(REDACT, WIRE, JSON, ANNOTATIONS, "java..")
        .check(classes);
  }

  /**
   * Workflow states and tags sit on the annotations (what they read) and the wire module (the
   * envelope they write) only: the rules of what a session sees, with no runtime, SDK or transport.
   */
  @Test
  void theSurfaceModuleSitsOnTheAnnotationsAndTheWireOnly() {
    noClasses().that().resideInAPackage(SURFACE)
        .should().dependOnClassesThat().resideOutsideOfPackages(SURFACE, WIRE, JSON, ANNOTATIONS, "java..")
        .check(classes);
  }

  /** Nothing behind the user API reaches back into the server that assembles it (no era adapter, no transport). */
  @Test
  void nothingInsideCoreReachesBackIntoFusionServer() {
    noClasses().that().resideInAPackage("dev.mcpfusion.core.(*)..")
        .should().dependOnClassesThat().haveFullyQualifiedName("dev.mcpfusion.core.FusionServer")
        .check(classes);
  }

  /**
   * Transports only frame bytes: the one front door (the edge) parses, answers and writes every
   * body, so no transport touches a JSON parser or the SDK.
   */
  @Test
  void transportsFrameBytesAndLeaveJsonAndTheSdkToTheEdge() {
    noClasses().that().haveFullyQualifiedName("dev.mcpfusion.core.transport.StdioTransport")
        .or().resideInAPackage("dev.mcpfusion.http")
        .or().haveFullyQualifiedName("dev.mcpfusion.testing.internal.InProcessWire")
        .should().dependOnClassesThat().resideInAnyPackage("tools.jackson..", "com.fasterxml.jackson..",
            "io.modelcontextprotocol..")
        .check(classes);
  }

  /** The transports all hand their messages to the same class. */
  @Test
  void everyTransportEntersThroughTheEdge() {
    for (String transport : new String[] {"dev.mcpfusion.core.transport.StdioTransport",
        "dev.mcpfusion.http.McpHttpServlet", "dev.mcpfusion.testing.internal.InProcessWire"}) {
      assertThat(classes.get(transport).getDirectDependenciesFromSelf())
          .as(transport)
          .anyMatch(d -> d.getTargetClass().getName().equals("dev.mcpfusion.core.edge.Edge"));
    }
  }
}
