package dev.mcpfusion.core.trace;

import java.security.SecureRandom;

/**
 * W3C Trace Context ids: generation and strict validation (lowercase hex, exact length, not all
 * zeros). For tracers that keep their own ids; the OpenTelemetry adapter lets the SDK generate them.
 */
public final class TraceIds {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private TraceIds() {}

  /** A random, valid trace id: 32 lowercase hex characters, never all zeros. */
  public static String newTraceId() {
    return randomHex(16);
  }

  /** A random, valid span (parent) id: 16 lowercase hex characters, never all zeros. */
  public static String newSpanId() {
    return randomHex(8);
  }

  /** Whether {@code id} is 32 lowercase hex characters, not all zeros. */
  public static boolean isValidTraceId(String id) {
    return isNonZeroHex(id, 32);
  }

  /** Whether {@code id} is 16 lowercase hex characters, not all zeros. */
  public static boolean isValidSpanId(String id) {
    return isNonZeroHex(id, 16);
  }

  static boolean isLowerHex(String s, int length) {
    if (s == null || s.length() != length) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      char c = s.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        return false;
      }
    }
    return true;
  }

  private static boolean isNonZeroHex(String s, int length) {
    if (!isLowerHex(s, length)) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      if (s.charAt(i) != '0') {
        return true;
      }
    }
    return false;
  }

  private static String randomHex(int bytes) {
    byte[] raw = new byte[bytes];
    char[] out = new char[bytes * 2];
    boolean zero = true;
    while (zero) {
      RANDOM.nextBytes(raw);
      for (byte b : raw) {
        if (b != 0) {
          zero = false;
          break;
        }
      }
    }
    for (int i = 0; i < bytes; i++) {
      out[2 * i] = HEX[(raw[i] >> 4) & 0xF];
      out[2 * i + 1] = HEX[raw[i] & 0xF];
    }
    return new String(out);
  }
}
