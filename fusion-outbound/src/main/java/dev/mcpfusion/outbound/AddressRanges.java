package dev.mcpfusion.outbound;

import java.net.Inet4Address;
import java.net.InetAddress;

/**
 * Classifies an address against the IANA special-purpose registries (RFC 6890 and successors):
 * {@code null} for a globally reachable unicast address, otherwise the {@link Range} that keeps a
 * connector from calling it. IPv6 is allowed only inside global unicast {@code 2000::/3}; forms
 * that embed an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by the embedded address.
 */
final class AddressRanges {
  private AddressRanges() {}

  static Range classify(InetAddress address) {
    byte[] b = address.getAddress();
    if (address instanceof Inet4Address || b.length == 4) {
      return classifyV4(b, 0);
    }
    return classifyV6(b);
  }

  static Range classifyV4(byte[] b, int at) {
    int a0 = b[at] & 0xff;
    int a1 = b[at + 1] & 0xff;
    int a2 = b[at + 2] & 0xff;
    int a3 = b[at + 3] & 0xff;
    // Cloud metadata services first: they sit inside ranges below (or, on Azure, in public space).
    if ((a0 == 169 && a1 == 254 && a2 == 169 && a3 == 254)       // AWS, GCP, Azure, OCI, DO
        || (a0 == 169 && a1 == 254 && a2 == 170 && a3 == 2)      // AWS ECS task metadata
        || (a0 == 100 && a1 == 100 && a2 == 100 && a3 == 200)    // Alibaba Cloud
        || (a0 == 168 && a1 == 63 && a2 == 129 && a3 == 16)      // Azure WireServer
        || (a0 == 192 && a1 == 0 && a2 == 0 && a3 == 192)) {     // Oracle Cloud (legacy)
      return Range.METADATA;
    }
    if (a0 == 0) {
      return Range.UNSPECIFIED;
    }
    if (a0 == 10 || (a0 == 172 && (a1 & 0xf0) == 16) || (a0 == 192 && a1 == 168)) {
      return Range.PRIVATE;
    }
    if (a0 == 100 && (a1 & 0xc0) == 64) {
      return Range.SHARED_CGNAT;
    }
    if (a0 == 127) {
      return Range.LOOPBACK;
    }
    if (a0 == 169 && a1 == 254) {
      return Range.LINK_LOCAL;
    }
    if (a0 == 192 && a1 == 0 && a2 == 0) {
      return Range.RESERVED;                                      // IETF protocol assignments
    }
    if ((a0 == 192 && a1 == 0 && a2 == 2) || (a0 == 198 && a1 == 51 && a2 == 100)
        || (a0 == 203 && a1 == 0 && a2 == 113)) {
      return Range.DOCUMENTATION;
    }
    if (a0 == 192 && a1 == 88 && a2 == 99) {
      return Range.RESERVED;                                      // deprecated 6to4 relay anycast
    }
    if (a0 == 198 && (a1 & 0xfe) == 18) {
      return Range.BENCHMARK;
    }
    if (a0 == 255 && a1 == 255 && a2 == 255 && a3 == 255) {
      return Range.BROADCAST;
    }
    if ((a0 & 0xf0) == 224) {
      return Range.MULTICAST;
    }
    if ((a0 & 0xf0) == 240) {
      return Range.RESERVED;
    }
    return null;
  }

  static Range classifyV6(byte[] b) {
    if (b[0] == (byte) 0xfd && b[1] == 0 && b[2] == 0x0e && b[3] == (byte) 0xc2 && isZero(b, 4, 14)
        && b[14] == 0x02 && b[15] == 0x54) {
      return Range.METADATA;                                      // fd00:ec2::254, AWS IMDS
    }
    if (isZero(b, 0, 10)) {
      if (b[10] == (byte) 0xff && b[11] == (byte) 0xff) {
        Range embedded = classifyV4(b, 12);                       // ::ffff:a.b.c.d, mapped
        return embedded != null ? embedded : Range.RESERVED;
      }
      if (isZero(b, 10, 16)) {
        return Range.UNSPECIFIED;
      }
      if (isZero(b, 10, 15) && b[15] == 1) {
        return Range.LOOPBACK;
      }
      if (b[10] == 0 && b[11] == 0) {
        Range embedded = classifyV4(b, 12);                       // ::a.b.c.d, compatible (deprecated)
        return embedded != null ? embedded : Range.RESERVED;
      }
      return Range.RESERVED;
    }
    if (b[0] == 0 && b[1] == 0x64 && b[2] == (byte) 0xff && b[3] == (byte) 0x9b) {
      if (isZero(b, 4, 12)) {
        return classifyV4(b, 12);                                 // 64:ff9b::/96, NAT64 well-known
      }
      return Range.RESERVED;                                      // 64:ff9b:1::/48, local-use NAT64
    }
    int first = b[0] & 0xff;
    if ((first & 0xfe) == 0xfc) {
      return Range.UNIQUE_LOCAL;
    }
    if (first == 0xfe && (b[1] & 0xc0) == 0x80) {
      return Range.LINK_LOCAL;
    }
    if (first == 0xff) {
      return Range.MULTICAST;
    }
    if ((first & 0xe0) != 0x20) {
      return Range.RESERVED;                                      // outside global unicast 2000::/3
    }
    if (first == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == (byte) 0xb8) {
      return Range.DOCUMENTATION;                                 // 2001:db8::/32
    }
    if (first == 0x3f && b[1] == (byte) 0xff && (b[2] & 0xf0) == 0) {
      return Range.DOCUMENTATION;                                 // 3fff::/20
    }
    if (first == 0x20 && b[1] == 0x01 && (b[2] & 0xfe) == 0) {
      return Range.RESERVED;                                      // 2001::/23: Teredo, benchmarking, ORCHID
    }
    if (first == 0x20 && b[1] == 0x02) {
      return classifyV4(b, 2);                                    // 2002::/16, 6to4 of a.b.c.d
    }
    return null;
  }

  private static boolean isZero(byte[] b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return true;
  }
}
