package dev.mcpfusion.spring.boot;

import dev.mcpfusion.http.HttpAuthenticator;
import dev.mcpfusion.http.HttpOptions;
import org.apache.coyote.http11.AbstractHttp11Protocol;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.util.unit.DataSize;

/**
 * Gives Tomcat room for a 64 KiB bearer token when the MCP endpoint is guarded (an
 * {@link HttpAuthenticator} bean, Spring Security's caller included), as fusion-http's embedded
 * server does ({@link HttpOptions#DEFAULT_MAX_HEADER_BYTES_WITH_AUTH}): an oversized or forged token
 * then reaches the authenticator and gets its {@code 401} and challenge, rather than Tomcat's bare
 * {@code 400} for headers over Boot's 8 KB default. Larger headers still get Tomcat's {@code 400}.
 *
 * <p>Only when the application has not set {@value #PROPERTY} itself (its value always stands), and
 * for the whole server: Tomcat has one header limit per connector. Unlike Jetty, Tomcat allocates
 * that much for each request processor it keeps (up to its processor cache, 200 by default:
 * about 14 MiB more than at 8 KB).
 */
final class TomcatHeaderRoom implements WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory>, Ordered {
  static final String PROPERTY = "server.max-http-request-header-size";

  private final ObjectProvider<HttpAuthenticator> authenticator;
  private final Environment environment;

  TomcatHeaderRoom(ObjectProvider<HttpAuthenticator> authenticator, Environment environment) {
    this.authenticator = authenticator;
    this.environment = environment;
  }

  @Override
  public void customize(ConfigurableTomcatWebServerFactory factory) {
    if (authenticator.getIfUnique() == null
        || Binder.get(environment).bind(PROPERTY, DataSize.class).isBound()) {
      return;
    }
    factory.addConnectorCustomizers(connector -> {
      if (connector.getProtocolHandler() instanceof AbstractHttp11Protocol<?> http) {
        http.setMaxHttpRequestHeaderSize(HttpOptions.DEFAULT_MAX_HEADER_BYTES_WITH_AUTH);
      }
    });
  }

  /** After Boot's own Tomcat customizer (order 0), which sets its 8 KB default on every connector. */
  @Override
  public int getOrder() {
    return 1;
  }
}
