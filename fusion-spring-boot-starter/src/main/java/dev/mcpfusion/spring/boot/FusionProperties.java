package dev.mcpfusion.spring.boot;

import dev.mcpfusion.core.Exposition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * The {@code mcpfusion.*} configuration properties.
 *
 * <pre>
 * mcpfusion.exposition=grouped
 * mcpfusion.http.path=/mcp
 * mcpfusion.http.allowed-origins=https://app.example
 * mcpfusion.http.allowed-hosts=mcp.example.com
 * mcpfusion.limits.max-concurrent=16
 * mcpfusion.limits.queue=32
 * mcpfusion.limits.timeout=10s
 * mcpfusion.limits.max-egress-bytes=256KB
 * </pre>
 */
@ConfigurationProperties(prefix = "mcpfusion")
public class FusionProperties {
  /** Whether to assemble and serve the MCP server at all. */
  private boolean enabled = true;

  /** The server name announced to clients; defaults to spring.application.name, else "mcp-fusion". */
  private String name;

  /** The server version announced to clients. */
  private String version = "1.0.0";

  /** FLAT (one tool per action) or GROUPED (one tool per router with an "action" discriminator). */
  private Exposition exposition = Exposition.FLAT;

  /** The FLAT separator between router and action in tool names: "_" or "-". */
  private String separator = "_";

  private final Http http = new Http();

  private final Limits limits = new Limits();

  private final Security security = new Security();

  /** Whether to assemble and serve the MCP server at all. */
  public boolean isEnabled() {
    return enabled;
  }

  /** Sets {@link #isEnabled()}. */
  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  /** The server name announced to clients, or {@code null} for the default. */
  public String getName() {
    return name;
  }

  /** Sets {@link #getName()}. */
  public void setName(String name) {
    this.name = name;
  }

  /** The server version announced to clients. */
  public String getVersion() {
    return version;
  }

  /** Sets {@link #getVersion()}. */
  public void setVersion(String version) {
    this.version = version;
  }

  /** FLAT or GROUPED. */
  public Exposition getExposition() {
    return exposition;
  }

  /** Sets {@link #getExposition()}. */
  public void setExposition(Exposition exposition) {
    this.exposition = exposition;
  }

  /** The FLAT separator. */
  public String getSeparator() {
    return separator;
  }

  /** Sets {@link #getSeparator()}. */
  public void setSeparator(String separator) {
    this.separator = separator;
  }

  /** The HTTP endpoint's properties. */
  public Http getHttp() {
    return http;
  }

  /** The server-wide call limits. */
  public Limits getLimits() {
    return limits;
  }

  /** How the endpoint sits behind Spring Security's OAuth2 resource server. */
  public Security getSecurity() {
    return security;
  }

  /**
   * {@code mcpfusion.security.*}: the endpoint behind Spring Security's OAuth2 resource server
   * (active when the application configures one, e.g. with
   * {@code spring.security.oauth2.resourceserver.jwt.issuer-uri}).
   */
  public static class Security {
    /** Whether to protect the MCP endpoint with the application's OAuth2 resource server. */
    private boolean enabled = true;

    /**
     * The endpoint's canonical URI (https://mcp.example.com/mcp), which tokens must name as their
     * audience; defaults to the first spring.security.oauth2.resourceserver.jwt.audiences entry.
     */
    private String resource;

    /** The issuers clients get tokens from; defaults to spring.security.oauth2.resourceserver.jwt.issuer-uri. */
    private List<String> authorizationServers = new ArrayList<>();

    /** The scopes the protected resource metadata lists as scopes_supported. */
    private List<String> scopes = new ArrayList<>();

    /** Whether to protect the MCP endpoint. */
    public boolean isEnabled() {
      return enabled;
    }

    /** Sets {@link #isEnabled()}. */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    /** The endpoint's canonical URI, or {@code null} for the default. */
    public String getResource() {
      return resource;
    }

    /** Sets {@link #getResource()}. */
    public void setResource(String resource) {
      this.resource = resource;
    }

    /** The issuers clients get tokens from; empty for the default. */
    public List<String> getAuthorizationServers() {
      return authorizationServers;
    }

    /** Sets {@link #getAuthorizationServers()}. */
    public void setAuthorizationServers(List<String> authorizationServers) {
      this.authorizationServers = authorizationServers;
    }

    /** The scopes listed as supported. */
    public List<String> getScopes() {
      return scopes;
    }

    /** Sets {@link #getScopes()}. */
    public void setScopes(List<String> scopes) {
      this.scopes = scopes;
    }
  }

  /**
   * {@code mcpfusion.limits.*}: server-wide call limits, the defaults that a router's or method's
   * {@code @Limits} overrides field by field. Unset means no limit unless a router or method sets one.
   */
  public static class Limits {
    /** Calls running at once across the tools that set no limit of their own. */
    private Integer maxConcurrent;

    /** Calls that may wait for a slot; over it a call is answered SERVER_BUSY. */
    private Integer queue;

    /** The deadline of one call; past it the call is answered TIMEOUT and its handler interrupted. */
    private Duration timeout;

    /** The largest reply (at least 1KB); trailing items are withheld to fit. */
    private DataSize maxEgressBytes;

    /** Calls running at once, or {@code null} when unset. */
    public Integer getMaxConcurrent() {
      return maxConcurrent;
    }

    /** Sets {@link #getMaxConcurrent()}. */
    public void setMaxConcurrent(Integer maxConcurrent) {
      this.maxConcurrent = maxConcurrent;
    }

    /** Calls that may wait, or {@code null} when unset. */
    public Integer getQueue() {
      return queue;
    }

    /** Sets {@link #getQueue()}. */
    public void setQueue(Integer queue) {
      this.queue = queue;
    }

    /** The deadline of one call, or {@code null} when unset. */
    public Duration getTimeout() {
      return timeout;
    }

    /** Sets {@link #getTimeout()}. */
    public void setTimeout(Duration timeout) {
      this.timeout = timeout;
    }

    /** The largest reply, or {@code null} when unset. */
    public DataSize getMaxEgressBytes() {
      return maxEgressBytes;
    }

    /** Sets {@link #getMaxEgressBytes()}. */
    public void setMaxEgressBytes(DataSize maxEgressBytes) {
      this.maxEgressBytes = maxEgressBytes;
    }
  }

  /** {@code mcpfusion.http.*}: the Streamable HTTP endpoint on the Boot web server. */
  public static class Http {
    /** Whether to serve the MCP endpoint on the Boot web server. */
    private boolean enabled = true;

    /** The endpoint path, relative to the servlet context path. */
    private String path = "/mcp";

    /**
     * Origins accepted besides loopback at the server's port (e.g. https://app.example); "*"
     * accepts any. A request with any other Origin gets 403.
     */
    private List<String> allowedOrigins = new ArrayList<>();

    /**
     * Host header values accepted besides localhost, 127.0.0.1 and [::1] at the server's port:
     * "name", "name:port" or "*". A request with any other Host gets 403 (DNS-rebinding protection).
     */
    private List<String> allowedHosts = new ArrayList<>();

    /** The request body cap; larger bodies get 413. */
    private DataSize maxBodySize = DataSize.ofMegabytes(4);

    /** How long one request waits for its answer. */
    private Duration requestTimeout = Duration.ofMinutes(5);

    /** How long a session may stay unused before it is closed. */
    private Duration sessionIdleTimeout = Duration.ofMinutes(30);

    /** How long shutdown lets calls in flight finish. */
    private Duration shutdownGrace = Duration.ofSeconds(30);

    /** Open sessions at most; an initialize over it gets 503 with Retry-After. */
    private int maxSessions = 1000;

    /** Open sessions at most. */
    public int getMaxSessions() {
      return maxSessions;
    }

    /** Sets {@link #getMaxSessions()}. */
    public void setMaxSessions(int maxSessions) {
      this.maxSessions = maxSessions;
    }

    /** Whether to serve the MCP endpoint. */
    public boolean isEnabled() {
      return enabled;
    }

    /** Sets {@link #isEnabled()}. */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    /** The endpoint path. */
    public String getPath() {
      return path;
    }

    /** Sets {@link #getPath()}. */
    public void setPath(String path) {
      this.path = path;
    }

    /** The extra accepted origins. */
    public List<String> getAllowedOrigins() {
      return allowedOrigins;
    }

    /** Sets {@link #getAllowedOrigins()}. */
    public void setAllowedOrigins(List<String> allowedOrigins) {
      this.allowedOrigins = allowedOrigins;
    }

    /** The extra accepted hosts. */
    public List<String> getAllowedHosts() {
      return allowedHosts;
    }

    /** Sets {@link #getAllowedHosts()}. */
    public void setAllowedHosts(List<String> allowedHosts) {
      this.allowedHosts = allowedHosts;
    }

    /** The request body cap. */
    public DataSize getMaxBodySize() {
      return maxBodySize;
    }

    /** Sets {@link #getMaxBodySize()}. */
    public void setMaxBodySize(DataSize maxBodySize) {
      this.maxBodySize = maxBodySize;
    }

    /** How long one request waits for its answer. */
    public Duration getRequestTimeout() {
      return requestTimeout;
    }

    /** Sets {@link #getRequestTimeout()}. */
    public void setRequestTimeout(Duration requestTimeout) {
      this.requestTimeout = requestTimeout;
    }

    /** How long a session may stay unused. */
    public Duration getSessionIdleTimeout() {
      return sessionIdleTimeout;
    }

    /** Sets {@link #getSessionIdleTimeout()}. */
    public void setSessionIdleTimeout(Duration sessionIdleTimeout) {
      this.sessionIdleTimeout = sessionIdleTimeout;
    }

    /** How long shutdown lets calls in flight finish. */
    public Duration getShutdownGrace() {
      return shutdownGrace;
    }

    /** Sets {@link #getShutdownGrace()}. */
    public void setShutdownGrace(Duration shutdownGrace) {
      this.shutdownGrace = shutdownGrace;
    }
  }
}
