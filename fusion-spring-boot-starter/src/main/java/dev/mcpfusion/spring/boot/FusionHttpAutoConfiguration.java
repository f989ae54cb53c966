package dev.mcpfusion.spring.boot;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.HttpAuthenticator;
import dev.mcpfusion.http.HttpOptions;
import dev.mcpfusion.http.McpHttpServlet;
import dev.mcpfusion.http.ProtectedResource;
import dev.mcpfusion.http.ProtectedResourceServlet;
import dev.mcpfusion.http.PublicDocument;
import dev.mcpfusion.http.PublicDocumentServlet;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.http.HttpServlet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.ServletContextInitializer;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Serves the context's {@link FusionServer} at {@code mcpfusion.http.path} ({@code /mcp}) on the
 * Boot servlet web server, through fusion-http's endpoint ({@link McpHttpServlet}): Streamable
 * HTTP with sessions and the stateless 2026-07-28 protocol, the same Host and Origin checks, body
 * cap and clean error bodies as the embedded-Jetty server. An {@link HttpAuthenticator} bean, if
 * any, guards it, and its protected resource metadata is served beside it.
 *
 * <p>Off with {@code mcpfusion.http.enabled=false}; a bean named {@code mcpFusionServlet} replaces
 * the registration.
 */
@AutoConfiguration(after = FusionAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({HttpServlet.class, ServletRegistrationBean.class, McpHttpServlet.class})
@ConditionalOnProperty(prefix = "mcpfusion", name = {"enabled", "http.enabled"}, havingValue = "true",
    matchIfMissing = true)
@ConditionalOnBean(FusionServer.class)
@EnableConfigurationProperties(FusionProperties.class)
public class FusionHttpAutoConfiguration {
  /** The name of the endpoint's registration bean; a bean of this name replaces it. */
  static final String SERVLET_BEAN = "mcpFusionServlet";

  /** Creates the auto-configuration (Spring does). */
  public FusionHttpAutoConfiguration() {}

  /**
   * fusion-http's endpoint for {@code server} (Jetty, which fusion-http also brings for its
   * embedded server, is excluded by this starter: Boot's own container hosts the servlet), mapped at {@code mcpfusion.http.path}, async.
   *
   * @throws FusionStartupException naming the property when an {@code mcpfusion.http.*} value is invalid
   */
  @Bean
  @ConditionalOnMissingBean(name = "mcpFusionServlet")
  public ServletRegistrationBean<HttpServlet> mcpFusionServlet(FusionServer server,
      FusionProperties properties, ObjectProvider<HttpAuthenticator> authenticator) {
    HttpOptions options = options(properties.getHttp());
    HttpAuthenticator auth = authenticator.getIfUnique();
    if (auth != null) {
      options = options.auth(auth);
    }
    ServletRegistrationBean<HttpServlet> registration =
        new ServletRegistrationBean<>(new McpHttpServlet(server, options), options.path());
    registration.setName("mcpFusion");
    // The GET event stream is asynchronous.
    registration.setAsyncSupported(true);
    registration.setLoadOnStartup(1);
    return registration;
  }

  /**
   * The protected resource metadata (RFC 9728) the endpoint's {@code 401} points to, at
   * {@code /.well-known/oauth-protected-resource} and its path-suffixed form: the document of the
   * endpoint's {@link HttpAuthenticator} (fusion-auth's {@code OAuth}, Spring Security's caller, or
   * yours), public; nothing is mapped when there is none or it names no metadata. A bean of this
   * name replaces it.
   */
  @Bean
  @ConditionalOnMissingBean(name = "mcpFusionResourceMetadata")
  public ServletContextInitializer mcpFusionResourceMetadata(ObjectProvider<HttpAuthenticator> authenticator) {
    return context -> {
      HttpAuthenticator auth = authenticator.getIfUnique();
      ProtectedResource metadata = auth == null ? null : auth.protectedResource();
      if (metadata != null) {
        ServletRegistration.Dynamic registration = context.addServlet("mcpFusionResourceMetadata",
            new ProtectedResourceServlet(metadata));
        registration.addMapping(ProtectedResource.WELL_KNOWN, ProtectedResource.WELL_KNOWN + "/*");
      }
    };
  }

  /**
   * Serves every {@link PublicDocument} bean at its path beside the endpoint (opt-in: define the
   * beans, e.g. fusion-cards' {@code cards.serverCard()} and {@code cards.agentCard()}): public,
   * with the endpoint's Host check, an {@code ETag} and CORS for any origin, as {@link
   * dev.mcpfusion.http.FusionHttp} serves the documents of {@code HttpOptions.publish}. With the
   * starter's Spring Security integration on, their paths need no token.
   *
   * @throws FusionStartupException when a document's path is the endpoint's, the OAuth metadata's
   *     or another document's
   */
  @Bean
  public ServletContextInitializer mcpFusionDocuments(ObjectProvider<PublicDocument> documents,
      FusionProperties properties) {
    HttpOptions options = options(properties.getHttp());
    List<PublicDocument> all = documents.orderedStream().toList();
    Set<String> taken = new HashSet<>(List.of(options.path()));
    for (PublicDocument document : all) {
      if (!taken.add(document.path()) || document.path().startsWith(ProtectedResource.WELL_KNOWN)) {
        throw new FusionStartupException("The PublicDocument bean published at '" + document.path()
            + "' shares its path with the MCP endpoint (mcpfusion.http.path), the OAuth metadata"
            + " or another PublicDocument bean.", "Give each PublicDocument bean its own path.",
            null);
      }
    }
    return context -> {
      for (PublicDocument document : all) {
        ServletRegistration.Dynamic registration = context.addServlet(
            "mcpFusionDocument " + document.path(), new PublicDocumentServlet(document, options));
        registration.addMapping(document.path());
      }
    };
  }

  /**
   * Ends the endpoint's event streams and drains its calls before Boot's graceful shutdown, which
   * would otherwise wait out its whole timeout on an open stream.
   */
  @Bean
  SmartLifecycle mcpFusionEndpointDrain(BeanFactory beanFactory) {
    return new EndpointDrain(beanFactory);
  }

  /** Tomcat's part, apart so that this class loads where another container serves. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = {"org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory",
      "org.apache.coyote.http11.AbstractHttp11Protocol"})
  static class Tomcat {
    /**
     * Room in Tomcat's request headers for a 64 KiB token when an {@link HttpAuthenticator} guards
     * the endpoint and {@code server.max-http-request-header-size} is not set ({@link TomcatHeaderRoom}).
     * A bean of this name replaces it.
     */
    @Bean
    @ConditionalOnMissingBean(name = "mcpFusionTomcatHeaderRoom")
    TomcatHeaderRoom mcpFusionTomcatHeaderRoom(ObjectProvider<HttpAuthenticator> authenticator,
        Environment environment) {
      return new TomcatHeaderRoom(authenticator, environment);
    }
  }

  /** The endpoint options from {@code mcpfusion.http.*}; the Boot web server owns port, address and lifecycle. */
  static HttpOptions options(FusionProperties.Http http) {
    HttpOptions options = HttpOptions.defaults().stopOnShutdownSignal(false);
    options = set(options, "mcpfusion.http.path", o -> o.path(http.getPath()));
    options = set(options, "mcpfusion.http.allowed-origins",
        o -> o.allowedOrigins(http.getAllowedOrigins().toArray(String[]::new)));
    options = set(options, "mcpfusion.http.allowed-hosts",
        o -> o.allowedHosts(http.getAllowedHosts().toArray(String[]::new)));
    options = set(options, "mcpfusion.http.max-body-size",
        o -> o.maxBodyBytes(http.getMaxBodySize().toBytes()));
    options = set(options, "mcpfusion.http.request-timeout", o -> o.requestTimeout(http.getRequestTimeout()));
    options = set(options, "mcpfusion.http.session-idle-timeout",
        o -> o.sessionIdleTimeout(http.getSessionIdleTimeout()));
    options = set(options, "mcpfusion.http.max-sessions", o -> o.maxSessions(http.getMaxSessions()));
    return set(options, "mcpfusion.http.shutdown-grace", o -> o.shutdownGrace(http.getShutdownGrace()));
  }

  private static HttpOptions set(HttpOptions options, String property, UnaryOperator<HttpOptions> change) {
    try {
      return change.apply(options);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new FusionStartupException("Invalid value for " + property + ": " + e.getMessage(),
          "Correct " + property + " in the application properties.", e);
    }
  }
}
