package dev.mcpfusion.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.http.HttpAuthenticator;
import org.apache.catalina.connector.Connector;
import org.apache.coyote.http11.AbstractHttp11Protocol;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.mock.env.MockEnvironment;

/**
 * When the starter widens Tomcat's request-header limit ({@link TomcatHeaderRoom}): only with an
 * {@code HttpAuthenticator}, and never over the application's own
 * {@code server.max-http-request-header-size}. The running applications of
 * {@code AuthenticatorBeanTest} and {@code ResourceServerEndpointTest} show the effect end to end.
 */
class TomcatHeaderRoomTest {
  /** The request-header limit of a running application's Tomcat connector. */
  static int headerLimit(ApplicationContext app) {
    Connector connector = ((TomcatWebServer) ((WebServerApplicationContext) app).getWebServer())
        .getTomcat().getConnector();
    return ((AbstractHttp11Protocol<?>) connector.getProtocolHandler()).getMaxHttpRequestHeaderSize();
  }

  /** The limit a connector gets from the customizers {@link TomcatHeaderRoom} leaves on a factory. */
  private static int limitAfter(ObjectProvider<HttpAuthenticator> authenticator, MockEnvironment environment) {
    TomcatServletWebServerFactory factory = new TomcatServletWebServerFactory();
    new TomcatHeaderRoom(authenticator, environment).customize(factory);
    Connector connector = new Connector();
    for (TomcatConnectorCustomizer customizer : factory.getConnectorCustomizers()) {
      customizer.customize(connector);
    }
    return ((AbstractHttp11Protocol<?>) connector.getProtocolHandler()).getMaxHttpRequestHeaderSize();
  }

  private static ObjectProvider<HttpAuthenticator> authenticators(HttpAuthenticator... beans) {
    StaticListableBeanFactory factory = new StaticListableBeanFactory();
    for (int i = 0; i < beans.length; i++) {
      factory.addBean("auth" + i, beans[i]);
    }
    return factory.getBeanProvider(HttpAuthenticator.class);
  }

  @Test
  void withAnAuthenticatorTomcatTakes80KibibytesOfHeaders() {
    assertThat(limitAfter(authenticators(headers -> true), new MockEnvironment())).isEqualTo(80 * 1024);
  }

  @Test
  void withoutOneTomcatKeepsItsLimit() {
    assertThat(limitAfter(authenticators(), new MockEnvironment())).isEqualTo(8 * 1024);
  }

  @Test
  void theApplicationsOwnLimitStands() {
    MockEnvironment environment = new MockEnvironment().withProperty("server.max-http-request-header-size", "16KB");
    // Nothing added: Boot's own customizer applies the application's value.
    assertThat(limitAfter(authenticators(headers -> true), environment)).isEqualTo(8 * 1024);
  }
}
