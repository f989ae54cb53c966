package dev.mcpfusion.core;

import java.util.Locale;

/**
 * The severity of a log message a handler sends to the client ({@code notifications/message}),
 * in the protocol's order (RFC 5424 syslog levels). The client chooses the least severe level it
 * wants with {@code logging/setLevel}; anything below it is not sent.
 */
public enum LogLevel {
  /** Detailed debugging information. */
  DEBUG,
  /** General informational messages. */
  INFO,
  /** Normal but significant events. */
  NOTICE,
  /** Warning conditions. */
  WARNING,
  /** Error conditions. */
  ERROR,
  /** Critical conditions. */
  CRITICAL,
  /** Action must be taken immediately. */
  ALERT,
  /** The system is unusable. */
  EMERGENCY;

  /** The level as the protocol spells it ({@code "warning"}). */
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The level the protocol spells {@code wire}, or {@code null} when it names none. */
  public static LogLevel fromWire(Object wire) {
    if (wire instanceof String s) {
      for (LogLevel level : values()) {
        if (level.wire().equals(s)) {
          return level;
        }
      }
    }
    return null;
  }
}
