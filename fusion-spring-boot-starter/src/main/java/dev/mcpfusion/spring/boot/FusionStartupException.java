package dev.mcpfusion.spring.boot;

/**
 * The MCP server could not be assembled from the application context. Its message says what is
 * wrong and names the bean at fault; {@link #action()} says how to fix it (Spring Boot prints both
 * as the "APPLICATION FAILED TO START" report).
 */
public final class FusionStartupException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  private final String action;

  FusionStartupException(String message, String action, Throwable cause) {
    super(message, cause);
    this.action = action;
  }

  /** How to fix it. */
  public String action() {
    return action;
  }
}
