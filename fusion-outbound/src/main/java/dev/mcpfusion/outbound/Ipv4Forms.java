package dev.mcpfusion.outbound;

/**
 * Reads a host the way the OS resolver's {@code inet_aton} (and the WHATWG URL standard) would:
 * one to four parts, each decimal, octal ({@code 0177}) or hex ({@code 0x7f}), the last part
 * filling the remaining bytes ({@code 127.1}, {@code 2130706433}). A host whose last label is a
 * number is an IPv4 address or malformed, never a name to look up.
 */
final class Ipv4Forms {
  private Ipv4Forms() {}

  /** Whether the host's last label is numeric, so that it must parse as an IPv4 address. */
  static boolean endsInNumber(String host) {
    String[] labels = labels(host);
    String last = labels[labels.length - 1];
    if (last.isEmpty()) {
      return false;
    }
    if (last.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return true;
    }
    return (last.startsWith("0x") || last.startsWith("0X"))
        && last.substring(2).chars().allMatch(c -> Character.digit(c, 16) >= 0);
  }

  /** The four bytes of {@code host}, or {@code null} when it is no valid legacy IPv4 form. */
  static byte[] parse(String host) {
    String[] labels = labels(host);
    if (labels.length > 4) {
      return null;
    }
    long[] parts = new long[labels.length];
    for (int i = 0; i < labels.length; i++) {
      long part = part(labels[i]);
      if (part < 0) {
        return null;
      }
      parts[i] = part;
    }
    long value = 0;
    for (int i = 0; i < parts.length - 1; i++) {
      if (parts[i] > 255) {
        return null;
      }
      value |= parts[i] << (8 * (3 - i));
    }
    long last = parts[parts.length - 1];
    if (last >= (1L << (8 * (5 - parts.length)))) {
      return null;
    }
    value |= last;
    return new byte[] {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value};
  }

  private static String[] labels(String host) {
    String trimmed = host.endsWith(".") && host.length() > 1 ? host.substring(0, host.length() - 1) : host;
    return trimmed.split("\\.", -1);
  }

  /** One part's value, or -1 when it is empty, has a digit outside its radix or exceeds 32 bits. */
  private static long part(String label) {
    if (label.isEmpty()) {
      return -1;
    }
    int radix = 10;
    String digits = label;
    if (label.startsWith("0x") || label.startsWith("0X")) {
      radix = 16;
      digits = label.substring(2);
    } else if (label.length() > 1 && label.charAt(0) == '0') {
      radix = 8;
      digits = label.substring(1);
    }
    if (digits.isEmpty()) {
      return 0;
    }
    long value = 0;
    for (int i = 0; i < digits.length(); i++) {
      int digit = Character.digit(digits.charAt(i), radix);
      if (digit < 0 || digits.charAt(i) > 'f') {
        return -1;
      }
      value = value * radix + digit;
      if (value > 0xffffffffL) {
        return -1;
      }
    }
    return value;
  }
}
