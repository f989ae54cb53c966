package dev.mcpfusion.spring.boot;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.HttpAuthenticator;
import dev.mcpfusion.http.ProtectedResource;
import dev.mcpfusion.http.PublicDocument;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.ObjectPostProcessor;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtDecoderInitializationException;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.server.resource.web.authentication.BearerTokenAuthenticationFilter;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * Puts the MCP endpoint behind the application's Spring Security OAuth2 resource server (JWT), when
 * it has one ({@code spring-boot-starter-security-oauth2-resource-server} with
 * {@code spring.security.oauth2.resourceserver.jwt.issuer-uri}, or any {@code JwtDecoder} bean):
 *
 * <ul>
 *   <li>a {@link SecurityFilterChain} for {@code mcpfusion.http.path}, ahead of the application's
 *       chains: every request but a CORS preflight needs a valid bearer token (the application's
 *       {@code JwtDecoder} and {@code JwtAuthenticationConverter}); a refusal is a {@code 401}
 *       naming the protected resource metadata ({@link McpBearerEntryPoint});
 *   <li>the caller from the authenticated principal ({@link SpringSecurityCaller}): subject,
 *       client, scopes and claims reach {@code RequestContext#caller()}, {@code @Context Caller} and
 *       every {@code @Scopes} check, whose refusal is the endpoint's {@code 403 insufficient_scope};
 *   <li>the protected resource metadata (RFC 9728) from {@code mcpfusion.security.*} and Spring's
 *       resource-server properties, served (by {@link FusionHttpAutoConfiguration}, as the
 *       caller's) at {@code /.well-known/oauth-protected-resource} and its path-suffixed form,
 *       public: a chain of its own lets it through without a token.
 * </ul>
 *
 * <p>Off with {@code mcpfusion.security.enabled=false}; a bean named
 * {@code mcpFusionSecurityFilterChain} replaces the chain, an {@link HttpAuthenticator} bean the caller.
 */
@AutoConfiguration(after = FusionAutoConfiguration.class, afterName = {
    "org.springframework.boot.security.oauth2.server.resource.autoconfigure.servlet.OAuth2ResourceServerAutoConfiguration",
    "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration"})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(name = {"org.springframework.security.config.annotation.web.builders.HttpSecurity",
    "org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken",
    "dev.mcpfusion.http.McpHttpServlet"})
@ConditionalOnProperty(prefix = "mcpfusion", name = {"enabled", "http.enabled", "security.enabled"},
    havingValue = "true", matchIfMissing = true)
@ConditionalOnBean(value = FusionServer.class,
    type = "org.springframework.security.oauth2.jwt.JwtDecoder")
@EnableConfigurationProperties(FusionProperties.class)
public class FusionSecurityAutoConfiguration {
  static final String ISSUER_URI = "spring.security.oauth2.resourceserver.jwt.issuer-uri";
  static final String AUDIENCES = "spring.security.oauth2.resourceserver.jwt.audiences";

  /** Creates the auto-configuration (Spring does). */
  public FusionSecurityAutoConfiguration() {}

  /**
   * The endpoint's protected resource metadata: {@code mcpfusion.security.resource} (else the first
   * of Spring's {@code jwt.audiences}), {@code mcpfusion.security.authorization-servers} (else
   * Spring's {@code jwt.issuer-uri}), {@code mcpfusion.security.scopes}.
   *
   * @throws FusionStartupException naming the property to set when the resource or the issuer is unknown
   */
  @Bean
  public ProtectedResource mcpFusionProtectedResource(FusionProperties properties, Environment environment) {
    FusionProperties.Security security = properties.getSecurity();
    List<String> audiences = audiences(environment);
    String resource = hasText(security.getResource()) ? security.getResource()
        : audiences.isEmpty() ? null : audiences.get(0);
    if (resource == null) {
      throw new FusionStartupException("The MCP endpoint is behind Spring Security's OAuth2 resource"
          + " server, but its resource URI (the audience its tokens must name) is not set.",
          "Set mcpfusion.security.resource to the endpoint's public URL (e.g. https://mcp.example.com/mcp),"
          + " or " + AUDIENCES + " to it.", null);
    }
    List<String> servers = security.getAuthorizationServers().isEmpty()
        ? (hasText(environment.getProperty(ISSUER_URI)) ? List.of(environment.getProperty(ISSUER_URI)) : List.of())
        : security.getAuthorizationServers();
    if (servers.isEmpty()) {
      throw new FusionStartupException("The MCP endpoint is behind Spring Security's OAuth2 resource"
          + " server, but no authorization server is known for its metadata.",
          "Set " + ISSUER_URI + ", or mcpfusion.security.authorization-servers to the issuers"
          + " clients get tokens from.", null);
    }
    try {
      return new ProtectedResource(URI.create(resource),
          servers.stream().map(URI::create).toList(), security.getScopes());
    } catch (IllegalArgumentException e) {
      throw new FusionStartupException("Invalid value for mcpfusion.security.resource: " + e.getMessage(),
          "Correct mcpfusion.security.resource (or mcpfusion.security.authorization-servers) in the"
          + " application properties.", e);
    }
  }

  /** The caller from the authenticated principal; tokens must name the resource or a configured audience. */
  @Bean
  @ConditionalOnMissingBean(HttpAuthenticator.class)
  public HttpAuthenticator mcpFusionSpringSecurityCaller(ProtectedResource mcpFusionProtectedResource,
      Environment environment) {
    Set<String> accepted = new LinkedHashSet<>();
    accepted.add(mcpFusionProtectedResource.resource().toString());
    accepted.addAll(audiences(environment));
    return new SpringSecurityCaller(mcpFusionProtectedResource, accepted);
  }

  /**
   * The filter chains, apart so that the auto-configuration's own signatures name no Spring
   * Security type: it is read (reflected on, listed) where Spring Security is absent.
   */
  @Configuration(proxyBeanMethods = false)
  static class Chains {
    /**
     * The MCP endpoint's chain, ahead of the application's: a bearer token on every request but a
     * CORS preflight, no session, no CSRF (no cookie authenticates here).
     */
    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE + 20)
    @ConditionalOnMissingBean(name = "mcpFusionSecurityFilterChain")
    SecurityFilterChain mcpFusionSecurityFilterChain(HttpSecurity http, FusionProperties properties,
        ProtectedResource mcpFusionProtectedResource, JwtDecoder decoder) throws Exception {
      McpBearerEntryPoint entryPoint = new McpBearerEntryPoint(mcpFusionProtectedResource);
      PathPatternRequestMatcher.Builder paths = PathPatternRequestMatcher.withDefaults();
      String path = properties.getHttp().getPath();
      http.securityMatcher(paths.matcher(path + "/**"))
          .authorizeHttpRequests(requests -> requests
              .requestMatchers(paths.matcher(HttpMethod.OPTIONS, "/**")).permitAll()
              .anyRequest().authenticated())
          .oauth2ResourceServer(server -> server
              .jwt(jwt -> jwt.decoder(token -> decode(decoder, token)))
              .authenticationEntryPoint(entryPoint)
              .withObjectPostProcessor(new ObjectPostProcessor<BearerTokenAuthenticationFilter>() {
                @Override
                public <O extends BearerTokenAuthenticationFilter> O postProcess(O filter) {
                  filter.setAuthenticationFailureHandler(entryPoint);
                  return filter;
                }
              }))
          .exceptionHandling(exceptions -> exceptions.authenticationEntryPoint(entryPoint))
          .csrf(csrf -> csrf.disable())
          .requestCache(cache -> cache.disable())
          .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS));
      return http.build();
    }

    /**
     * {@code decoder}'s answer, with an issuer whose configuration could not be read (Boot's
     * decoder reads it on the first token) counted as an outage like an unreachable key set:
     * Spring's {@link JwtException}, which the entry point answers {@code 503}, not the
     * container's {@code 500} page.
     */
    private static Jwt decode(JwtDecoder decoder, String token) {
      try {
        return decoder.decode(token);
      } catch (JwtDecoderInitializationException e) {
        throw new JwtException("The issuer's configuration could not be read", e);
      }
    }

    /**
     * The metadata paths' chain, and every {@link PublicDocument} bean's path: public (a client
     * reads the document before it has a token), so the application's chains, which would ask for
     * one, never see them.
     */
    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE + 10)
    @ConditionalOnMissingBean(name = "mcpFusionResourceMetadataFilterChain")
    SecurityFilterChain mcpFusionResourceMetadataFilterChain(HttpSecurity http,
        ObjectProvider<PublicDocument> documents) throws Exception {
      PathPatternRequestMatcher.Builder paths = PathPatternRequestMatcher.withDefaults();
      List<RequestMatcher> open = new ArrayList<>(List.of(paths.matcher(ProtectedResource.WELL_KNOWN),
          paths.matcher(ProtectedResource.WELL_KNOWN + "/**")));
      // Published documents (server and agent cards) are read before a client holds a token, even
      // one under the endpoint's path such as /mcp/server-card.
      documents.orderedStream().forEach(d -> open.add(paths.matcher(d.path())));
      http.securityMatcher(new OrRequestMatcher(open))
          .authorizeHttpRequests(requests -> requests.anyRequest().permitAll())
          .headers(headers -> headers.cacheControl(cache -> cache.disable()))
          .csrf(csrf -> csrf.disable())
          .requestCache(cache -> cache.disable())
          .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS));
      return http.build();
    }
  }

  private static List<String> audiences(Environment environment) {
    return Binder.get(environment).bind(AUDIENCES, Bindable.listOf(String.class)).orElse(List.of());
  }

  private static boolean hasText(String value) {
    return value != null && !value.isBlank();
  }
}
