package dev.mcpfusion.auth;

/**
 * Why a credential was refused, for the log (at DEBUG) only: the client is told nothing but
 * {@code invalid_token}. Never carries the credential. Without a stack trace: it is an answer, not
 * a failure.
 */
final class Rejected extends Exception {
  private static final long serialVersionUID = 1L;

  Rejected(String reason) {
    super(reason, null, false, false);
  }
}
