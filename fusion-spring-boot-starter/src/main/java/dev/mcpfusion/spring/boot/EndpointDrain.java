package dev.mcpfusion.spring.boot;

import dev.mcpfusion.http.McpHttpServlet;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.web.server.context.WebServerGracefulShutdownLifecycle;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.SmartLifecycle;

/**
 * Drains the MCP endpoint just before Boot's graceful web-server shutdown. An open GET event
 * stream is an asynchronous request that never completes by itself, and Boot's graceful shutdown
 * waits for every asynchronous request: without this, one connected client holds shutdown for the
 * whole {@code spring.lifecycle.timeout-per-shutdown-phase}. Draining ends the streams, answers
 * new requests 503 and lets calls in flight finish within {@code mcpfusion.http.shutdown-grace};
 * the container's later {@code destroy()} then finds the servlet already stopped.
 */
final class EndpointDrain implements SmartLifecycle {
  private final BeanFactory beanFactory;
  private volatile boolean running;

  EndpointDrain(BeanFactory beanFactory) {
    this.beanFactory = beanFactory;
  }

  @Override
  public void start() {
    running = true;
  }

  @Override
  public void stop() {
    running = false;
    if (beanFactory.containsBean(FusionHttpAutoConfiguration.SERVLET_BEAN)
        && beanFactory.getBean(FusionHttpAutoConfiguration.SERVLET_BEAN) instanceof ServletRegistrationBean<?> registration
        && registration.getServlet() instanceof McpHttpServlet servlet) {
      servlet.destroy();
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /** Stops before the web server's graceful shutdown (a higher phase stops earlier). */
  @Override
  public int getPhase() {
    return WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE + 1;
  }
}
