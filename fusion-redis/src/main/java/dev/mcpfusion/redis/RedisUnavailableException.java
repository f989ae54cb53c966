package dev.mcpfusion.redis;

/**
 * Redis did not answer a store's command in time, or refused it: the call that needed the store
 * fails with this (never waits longer than {@link RedisSettings#commandTimeout}); the next call
 * tries again, so the stores recover by themselves when Redis is back. The message names the
 * server and what was asked, never a password.
 */
public final class RedisUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  RedisUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
